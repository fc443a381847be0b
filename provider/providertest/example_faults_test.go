package providertest_test

import (
	"context"
	"fmt"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// A Faulty provider injects the faults a schedule names, here a 503 on
// the first call and a truncated reply on the third.
func ExampleNewFaulty() {
	model := provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: `{"ok": true}`, StopReason: provider.StopEnd}, nil
	})
	p, err := providertest.NewFaulty(model, &providertest.FaultOptions{Schedule: map[int]providertest.Fault{
		0: providertest.FaultUnavailable,
		2: providertest.FaultTruncated,
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 3 {
		resp, err := p.Generate(context.Background(), &provider.Request{})
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("%s (%s)\n", resp.Text, resp.StopReason)
	}
	fmt.Println(p.Injected())
	// Output:
	// error: providertest: overloaded (HTTP 503): injected: service unavailable
	// {"ok": true} (end)
	// {"ok": (length)
	// map[truncated:1 unavailable:1]
}
