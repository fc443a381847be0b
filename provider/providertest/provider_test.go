package providertest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

func request(prompt string) *provider.Request {
	return &provider.Request{Messages: []provider.Message{provider.UserMessage(prompt)}}
}

func TestCues(t *testing.T) {
	apiErr := &provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429}
	tests := []struct {
		name    string
		reply   providertest.Reply
		want    *provider.Response
		wantErr error
	}{
		{
			name:  "text",
			reply: providertest.Text(`{"ok":true}`),
			want:  &provider.Response{Text: `{"ok":true}`, StopReason: provider.StopEnd},
		},
		{
			name:  "truncated",
			reply: providertest.Truncated(`{"ok":`),
			want:  &provider.Response{Text: `{"ok":`, StopReason: provider.StopLength, RawStopReason: "length"},
		},
		{
			name:  "refused",
			reply: providertest.Refused("I can't help with that."),
			want:  &provider.Response{Refusal: "I can't help with that.", StopReason: provider.StopRefusal, RawStopReason: "refusal"},
		},
		{
			name:  "refusal without stop reason",
			reply: providertest.Reply{Refusal: "no"},
			want:  &provider.Response{Refusal: "no", StopReason: provider.StopRefusal},
		},
		{
			name:  "tool call",
			reply: providertest.CallTool("submit_result", `{"ok":true}`),
			want: &provider.Response{
				ToolCalls:  []provider.ToolCall{{ID: "call_1", Name: "submit_result", Arguments: json.RawMessage(`{"ok":true}`)}},
				StopReason: provider.StopToolUse,
			},
		},
		{
			name:  "content filter",
			reply: providertest.Reply{StopReason: provider.StopContentFilter},
			want:  &provider.Response{StopReason: provider.StopContentFilter, RawStopReason: "content_filter"},
		},
		{
			name:  "usage total filled in",
			reply: providertest.Reply{Text: "x", Usage: provider.Usage{InputTokens: 10, OutputTokens: 5}, Model: "m"},
			want: &provider.Response{Text: "x", StopReason: provider.StopEnd, Model: "m",
				Usage: provider.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}},
		},
		{
			name:    "failed",
			reply:   providertest.Failed(apiErr),
			wantErr: apiErr,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := providertest.New(tt.reply)
			resp, err := p.Generate(context.Background(), request("hi"))
			if tt.wantErr != nil {
				assert.Same(t, tt.wantErr, err)
				assert.Nil(t, resp)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, resp)
			assert.Equal(t, 0, p.Remaining())
		})
	}
}

func TestCapabilities(t *testing.T) {
	p := providertest.New()
	assert.Equal(t, provider.Capabilities{}, p.Capabilities(), "text-only by itself")
	caps := provider.Capabilities{NativeSchema: true, Dialect: "openai"}
	assert.Equal(t, caps, provider.WithCapabilities(p, caps).Capabilities())
}

func TestRepliesInOrderAndRecorded(t *testing.T) {
	p := providertest.New(providertest.Text("one"), providertest.Text("two"))
	ctx := context.Background()
	for _, want := range []string{"one", "two"} {
		resp, err := p.Generate(ctx, request("ask "+want))
		require.NoError(t, err)
		assert.Equal(t, want, resp.Text)
	}
	reqs := p.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "ask one", reqs[0].Messages[0].Content)
	assert.Equal(t, "ask two", reqs[1].Messages[0].Content)
}

func TestExhausted(t *testing.T) {
	tests := []struct {
		name    string
		replies []providertest.Reply
		wantMsg string
	}{
		{"none scripted", nil, "providertest: call 1 made but only 0 replies were scripted"},
		{"one scripted", []providertest.Reply{providertest.Text("a")}, "providertest: call 2 made but only 1 reply was scripted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := providertest.New(tt.replies...)
			var err error
			for range len(tt.replies) + 1 {
				_, err = p.Generate(context.Background(), request("again"))
			}
			var ee *providertest.ExhaustedError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, len(tt.replies)+1, ee.Call)
			assert.Equal(t, len(tt.replies), ee.Scripted)
			assert.EqualError(t, err, tt.wantMsg)
			assert.Len(t, p.Requests(), len(tt.replies)+1, "the extra request is recorded")
		})
	}
}

func TestCancelledContext(t *testing.T) {
	p := providertest.New(providertest.Text("unused"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.Generate(ctx, request("hi"))
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, p.Requests())
	assert.Equal(t, 1, p.Remaining())
}

func TestDeepCopies(t *testing.T) {
	args := []byte(`{"a":1}`)
	call := provider.ToolCall{ID: "fixed", Name: "t", Arguments: args}
	script := []providertest.Reply{{ToolCalls: []provider.ToolCall{call}}, {ToolCalls: []provider.ToolCall{call}}}
	p := providertest.New(script...)
	args[1] = 'X'        // the caller's bytes change after New...
	script[0].Text = "x" // ...and so does its slice
	req := &provider.Request{
		Messages: []provider.Message{{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c", Arguments: json.RawMessage(`{}`)}}}},
		Output:   &provider.OutputSpec{Schema: json.RawMessage(`{"type":"object"}`)},
		Tools:    []provider.Tool{{Name: "t", InputSchema: json.RawMessage(`{}`)}},
	}
	resp, err := p.Generate(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, "fixed", resp.ToolCalls[0].ID, "an ID given in the script is kept")
	assert.Empty(t, resp.Text)
	assert.JSONEq(t, `{"a":1}`, string(resp.ToolCalls[0].Arguments))

	req.Messages[0].ToolCalls[0].Arguments[0] = '['
	req.Output.Schema[0] = '['
	req.Tools[0].InputSchema[0] = '['
	got := p.Requests()[0]
	assert.JSONEq(t, `{}`, string(got.Messages[0].ToolCalls[0].Arguments))
	assert.JSONEq(t, `{"type":"object"}`, string(got.Output.Schema))
	assert.JSONEq(t, `{}`, string(got.Tools[0].InputSchema))

	got.Messages[0].Content = "changed"
	assert.Empty(t, p.Requests()[0].Messages[0].Content, "Requests hands out copies")

	resp.ToolCalls[0].Arguments[0] = '['
	again, err := p.Generate(context.Background(), req)
	require.NoError(t, err)
	assert.JSONEq(t, `{"a":1}`, string(again.ToolCalls[0].Arguments), "each response is fresh")
}

func TestToolCallIDsNumberedAcrossCalls(t *testing.T) {
	p := providertest.New(
		providertest.CallTool("a", `{}`),
		providertest.Reply{ToolCalls: []provider.ToolCall{{Name: "b"}, {Name: "c"}}},
	)
	var ids []string
	for range 2 {
		resp, err := p.Generate(context.Background(), request("go"))
		require.NoError(t, err)
		for _, tc := range resp.ToolCalls {
			ids = append(ids, tc.ID)
		}
	}
	assert.Equal(t, []string{"call_1", "call_2", "call_3"}, ids)
}

func TestConcurrentUse(t *testing.T) {
	const n = 50
	replies := make([]providertest.Reply, n)
	for i := range replies {
		replies[i] = providertest.Text(fmt.Sprint(i))
	}
	p := providertest.New(replies...)
	var wg sync.WaitGroup
	seen := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := p.Generate(context.Background(), request(fmt.Sprint(i)))
			if assert.NoError(t, err) {
				seen <- resp.Text
			}
			_ = p.Requests()
			_ = p.Remaining()
		}()
	}
	wg.Wait()
	close(seen)
	got := map[string]bool{}
	for s := range seen {
		got[s] = true
	}
	assert.Len(t, got, n, "every reply served exactly once")
	assert.Len(t, p.Requests(), n)
	_, err := p.Generate(context.Background(), request("extra"))
	assert.True(t, errors.As(err, new(*providertest.ExhaustedError)))
}
