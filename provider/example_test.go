package provider_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentio/agentio/provider"
)

// complete stands for a host's existing client call: a system prompt and a
// user message in, text out.
func complete(_ context.Context, system, user string) (string, error) {
	return strings.ToUpper(user), nil
}

// Func wraps an existing client call as a Provider in a few lines.
func ExampleFunc() {
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		last := req.Messages[len(req.Messages)-1]
		text, err := complete(ctx, req.System, last.Content)
		if err != nil {
			return nil, err
		}
		return &provider.Response{Text: text, StopReason: provider.StopEnd}, nil
	})

	resp, err := p.Generate(context.Background(), &provider.Request{
		Messages: []provider.Message{provider.UserMessage(`{"ok": true}`)},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Text)
	fmt.Printf("%+v\n", p.Capabilities())
	// Output:
	// {"OK": TRUE}
	// {NativeSchema:false StrictSchema:false JSONMode:false Tools:false ForcedTool:false SchemaWithTools:false Dialect:}
}

// WithCapabilities declares what a wrapped API supports, here native JSON
// Schema output in OpenAI's dialect.
func ExampleWithCapabilities() {
	f := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: `{"ok":true}`, StopReason: provider.StopEnd}, nil
	})
	p := provider.WithCapabilities(f, provider.Capabilities{NativeSchema: true, StrictSchema: true, Dialect: "openai"})
	caps := p.Capabilities()
	fmt.Println(caps.NativeSchema, caps.StrictSchema, caps.Dialect)
	// Output:
	// true true openai
}
