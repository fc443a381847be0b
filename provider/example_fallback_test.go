package provider_test

import (
	"context"
	"fmt"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// Fallback moves to the next provider when one is overloaded, and the
// reply says which one answered.
func ExampleFallback() {
	primary := providertest.New(providertest.Failed(&provider.Error{Kind: provider.ErrOverloaded, StatusCode: 503}))
	backup := providertest.New(providertest.Text(`{"ok": true}`))
	p, err := provider.Fallback([]provider.Provider{primary, backup}, &provider.FallbackOptions{
		Names: []string{"primary", "backup"},
		OnFallback: func(_ context.Context, from int, err error) {
			fmt.Printf("provider %d failed: %v\n", from, err)
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("Is it ok?")}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Provider, resp.Text)
	// Output:
	// provider 0 failed: provider: overloaded (HTTP 503)
	// backup {"ok": true}
}
