package provider_test

import (
	"context"
	"fmt"
	"time"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// WithRetry waits the time a rate-limited provider asks for, then calls it
// again. The Sleep hook stands in for the wait here.
func ExampleWithRetry() {
	model := providertest.New(
		providertest.Failed(&provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429, RetryAfter: 2 * time.Second}),
		providertest.Text(`{"ok": true}`),
	)
	p, err := provider.WithRetry(model, &provider.RetryOptions{
		MaxAttempts: 3,
		OnRetry: func(_ context.Context, attempt int, err error, wait time.Duration) {
			fmt.Printf("attempt %d failed (%v); waiting %v\n", attempt, err, wait)
		},
		Sleep: func(context.Context, time.Duration) error { return nil },
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
	fmt.Println(resp.Text)
	// Output:
	// attempt 1 failed (provider: rate_limited (HTTP 429)); waiting 2s
	// {"ok": true}
}
