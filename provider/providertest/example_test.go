package providertest_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// A scripted provider answers in order and records what it was sent.
func Example() {
	p := providertest.New(
		providertest.Text(`{"answer": 41}`),
		providertest.Text(`{"answer": 42}`),
	)
	ctx := context.Background()
	for _, prompt := range []string{"What is 6 x 7?", "Check again."} {
		resp, err := p.Generate(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage(prompt)}})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(resp.Text)
	}
	for _, req := range p.Requests() {
		fmt.Println("sent:", req.Messages[0].Content)
	}
	// Output:
	// {"answer": 41}
	// {"answer": 42}
	// sent: What is 6 x 7?
	// sent: Check again.
}

// Cues script the failures a service must cope with: a truncated reply, a
// refusal, an API error, and running out of replies.
func Example_cues() {
	p := providertest.New(
		providertest.Truncated(`{"items": [1, 2,`),
		providertest.Refused("I can't help with that."),
		providertest.Failed(&provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429, Message: "slow down"}),
	)
	ctx := context.Background()
	req := &provider.Request{Messages: []provider.Message{provider.UserMessage("List the items.")}}
	for range 4 {
		resp, err := p.Generate(ctx, req)
		var exhausted *providertest.ExhaustedError
		switch {
		case errors.Is(err, provider.ErrRateLimited):
			fmt.Println("rate limited:", err)
		case errors.As(err, &exhausted):
			fmt.Println(err)
		case err != nil:
			fmt.Println("unexpected:", err)
		default:
			fmt.Printf("stop=%s text=%q refusal=%q\n", resp.StopReason, resp.Text, resp.Refusal)
		}
	}
	// Output:
	// stop=length text="{\"items\": [1, 2," refusal=""
	// stop=refusal text="" refusal="I can't help with that."
	// rate limited: provider: rate_limited (HTTP 429): slow down
	// providertest: call 4 made but only 3 replies were scripted
}

// Declare capabilities with provider.WithCapabilities and keep the
// *Provider to read what was sent.
func ExampleCallTool() {
	p := providertest.New(providertest.CallTool("submit_result", `{"ok": true}`))
	tooled := provider.WithCapabilities(p, provider.Capabilities{Tools: true, ForcedTool: true})
	resp, err := tooled.Generate(context.Background(), &provider.Request{
		Messages:   []provider.Message{provider.UserMessage("Submit.")},
		Tools:      []provider.Tool{{Name: "submit_result", InputSchema: []byte(`{"type":"object"}`)}},
		ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	tc := resp.ToolCalls[0]
	fmt.Println(tooled.Capabilities().ForcedTool, resp.StopReason, tc.ID, tc.Name, string(tc.Arguments))
	fmt.Println("forced:", p.Requests()[0].ToolChoice.Name)
	// Output:
	// true tool_use call_1 submit_result {"ok": true}
	// forced: submit_result
}

// A Batcher answers batches from a script: here each item's first reply is
// its name, and the second batch expires with one request run.
func ExampleNewBatcher() {
	ctx := context.Background()
	b := providertest.NewBatcher(
		func(item string, n int) providertest.Reply { return providertest.Text(fmt.Sprintf("%s#%d", item, n)) },
		&providertest.BatcherOptions{Faults: map[int]providertest.BatchFault{2: {Status: provider.BatchExpired, Ran: 1}}},
	)
	for _, ids := range [][]string{{"a-1", "b-1"}, {"a-2", "b-2"}} {
		reqs := []provider.BatchRequest{
			{ID: ids[0], Request: &provider.Request{Messages: []provider.Message{provider.UserMessage("hi")}}},
			{ID: ids[1], Request: &provider.Request{Messages: []provider.Message{provider.UserMessage("hi")}}},
		}
		bt, err := b.SubmitBatch(ctx, "job-"+ids[0], reqs)
		if err != nil {
			fmt.Println(err)
			return
		}
		bt, err = b.Batch(ctx, bt.ID)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print(bt.ID, " ", bt.Status, ":")
		for r, err := range b.BatchResults(ctx, bt.ID) {
			if err != nil {
				fmt.Println(err)
				return
			}
			fmt.Print(" ", r.ID, "=", r.Response.Text)
		}
		fmt.Println()
	}
	fmt.Println(len(b.Submissions()), "submissions")
	// Output:
	// batch_1 ended: a-1=a#0 b-1=b#0
	// batch_2 expired: a-2=a#1
	// 2 submissions
}
