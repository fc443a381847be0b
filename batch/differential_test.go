package batch_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// TestSameAsRun is the differential test: each item's replies are run
// through enforce.Run with a scripted Provider and through the batch
// runner with a scripted Batcher, and the outcomes must agree: the JSON,
// the value, the text, every attempt (request sent, outcome, violations),
// the usage and the class of the error. Half the cases read the outcome
// back from the store after a restart.
func TestSameAsRun(t *testing.T) {
	tests := []struct {
		name    string
		opts    []enforce.Option
		caps    provider.Capabilities
		replies []providertest.Reply
	}{
		{name: "valid at once", replies: []providertest.Reply{providertest.Text(valid)}},
		{name: "re-asked then valid", replies: []providertest.Reply{providertest.Text(invalid), providertest.Text("no json here"), providertest.Text(valid)}},
		{name: "never valid", replies: []providertest.Reply{providertest.Text(invalid), providertest.Text(invalid), providertest.Text(invalid)}},
		{name: "no JSON at the end", replies: []providertest.Reply{providertest.Text("a"), providertest.Text("b"), providertest.Text("c")}},
		{name: "truncated", replies: []providertest.Reply{providertest.Truncated(`{"label": "ha`), providertest.Truncated(`{"label": "ha`), providertest.Truncated(`{"lab`)}},
		{name: "raised max tokens", opts: []enforce.Option{enforce.WithRaiseMaxTokens(4000)},
			replies: []providertest.Reply{{Text: `{"label": "ha`, StopReason: provider.StopLength, Usage: provider.Usage{OutputTokens: 100}}, providertest.Text(valid)}},
		{name: "refused", replies: []providertest.Reply{providertest.Refused("I cannot label that.")}},
		{name: "provider error", replies: []providertest.Reply{providertest.Text(invalid), providertest.Failed(&provider.Error{Kind: provider.ErrInvalidRequest, StatusCode: 400, Message: "bad"})}},
		{name: "repair", opts: []enforce.Option{enforce.WithRepair()}, replies: []providertest.Reply{providertest.Text(`{"label": "ham", "score": 3,}`)}},
		{name: "lenient", opts: []enforce.Option{enforce.WithLenient()}, replies: []providertest.Reply{providertest.Text(`{"label": "HAM", "score": "3"}`)}},
		{name: "full history", opts: []enforce.Option{enforce.WithFullHistory()},
			replies: []providertest.Reply{providertest.Text(invalid), providertest.Text(invalid), providertest.Text(valid)}},
		{name: "token budget", opts: []enforce.Option{enforce.WithTokenBudget(900)},
			replies: []providertest.Reply{{Text: invalid, Usage: provider.Usage{InputTokens: 400, OutputTokens: 20}}, {Text: invalid, Usage: provider.Usage{InputTokens: 400, OutputTokens: 20}}, providertest.Text(valid)}},
		{name: "validator", opts: []enforce.Option{enforce.WithValidator(func(_ context.Context, a enforce.Attempt, v any) []schema.Violation {
			if a.Number == 1 {
				return []schema.Violation{{Path: "$.score", Message: "too sure on a first attempt"}}
			}
			return nil
		})}, replies: []providertest.Reply{providertest.Text(valid), providertest.Text(valid)}},
		{name: "tool mode", opts: []enforce.Option{enforce.WithMode(enforce.ModeTool)}, caps: provider.Capabilities{Tools: true, ForcedTool: true},
			replies: []providertest.Reply{providertest.CallTool(enforce.ToolName, invalid), providertest.CallTool(enforce.ToolName, valid)}},
		{name: "native mode", opts: []enforce.Option{enforce.WithMode(enforce.ModeNative)}, caps: provider.Capabilities{NativeSchema: true, StrictSchema: true, Dialect: "openai"},
			replies: []providertest.Reply{providertest.Text(valid)}},
	}
	for _, tt := range tests {
		for _, restart := range []bool{false, true} {
			name := tt.name
			if restart {
				name += "/read back"
			}
			t.Run(name, func(t *testing.T) {
				e := newEnforcer(t, tt.opts...)
				req := enforce.Request{Prompt: "Label this message."}
				p := provider.WithCapabilities(providertest.New(tt.replies...), tt.caps)
				want, wantErr := e.Run(ctx, p, req)

				b := providertest.NewBatcher(providertest.Replies(map[string][]providertest.Reply{"x": tt.replies}), &providertest.BatcherOptions{Capabilities: tt.caps})
				st := batch.NewMemory(nil)
				its := []batch.Item{{ID: "x", Request: req}}
				r := newRunner(t, b, st, batch.WithEnforcer(e))
				var got batch.Settled
				if restart {
					for range r.Run(ctx, its) {
						break // handed out, not marked: read back by the next run
					}
					all, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(e)), its)
					require.NoError(t, err)
					if len(all) == 0 {
						for s, err := range newRunner(t, b, st, batch.WithEnforcer(e)).Results(ctx) {
							require.NoError(t, err)
							got = s
						}
					} else {
						got = all["x"]
					}
				} else {
					all, err := collect(t, r, its)
					require.NoError(t, err)
					got = all["x"]
				}
				require.Equal(t, "x", got.ID)
				sameOutcome(t, want, wantErr, got.Result, got.Err)
				assert.Len(t, b.Submissions(), max(len(want.Attempts), 1))
			})
		}
	}
}

// sameOutcome asserts that a batch outcome is what Run gave.
func sameOutcome(t *testing.T, want *enforce.Result, wantErr error, got *enforce.Result, gotErr error) {
	t.Helper()
	require.Equal(t, want == nil, got == nil, "a Result beside the error")
	if want != nil {
		assert.Equal(t, string(want.JSON), string(got.JSON))
		assert.Equal(t, want.Value, got.Value)
		assert.Equal(t, want.Text, got.Text)
		assert.Equal(t, want.Usage, got.Usage)
		assert.Equal(t, want.Mode, got.Mode)
		assert.Equal(t, want.Coercions, got.Coercions)
		require.Len(t, got.Attempts, len(want.Attempts))
		for i, w := range want.Attempts {
			g := got.Attempts[i]
			assert.Equal(t, w.Number, g.Number)
			assert.Equal(t, w.Outcome, g.Outcome)
			assert.Equal(t, w.Violations, g.Violations)
			// Compared as JSON: read back from a store, JSON values come
			// back compacted.
			wr, err := json.Marshal(w.Request)
			require.NoError(t, err)
			gr, err := json.Marshal(g.Request)
			require.NoError(t, err)
			assert.JSONEq(t, string(wr), string(gr), "attempt %d sent the same request", w.Number)
			assert.Equal(t, w.Fixes, g.Fixes)
			assert.Equal(t, w.Err == nil, g.Err == nil)
		}
	}
	require.Equal(t, wantErr == nil, gotErr == nil, "error: %v, batch: %v", wantErr, gotErr)
	if wantErr == nil {
		return
	}
	for _, target := range []error{enforce.ErrRefused, enforce.ErrNoJSON, enforce.ErrTruncated, enforce.ErrTokenBudget,
		enforce.ErrInvalidRequest, provider.ErrInvalidRequest, provider.ErrRateLimited} {
		assert.Equal(t, errors.Is(wantErr, target), errors.Is(gotErr, target), "errors.Is %v", target)
	}
	var wv, gv *enforce.ValidationError
	require.Equal(t, errors.As(wantErr, &wv), errors.As(gotErr, &gv), "a *ValidationError")
	if wv != nil {
		assert.Equal(t, wv.Retries, gv.Retries)
		assert.Equal(t, wv.Violations, gv.Violations)
		assert.Equal(t, wv.Output, gv.Output)
		assert.Equal(t, wv.Usage, gv.Usage)
		assert.Len(t, gv.Attempts, len(wv.Attempts))
		assert.Equal(t, wv.Error(), gv.Error())
	}
	var wp, gp *provider.Error
	require.Equal(t, errors.As(wantErr, &wp), errors.As(gotErr, &gp), "a *provider.Error")
	if wp != nil {
		assert.Equal(t, wp.Kind, gp.Kind)
		assert.Equal(t, wp.StatusCode, gp.StatusCode)
	}
}
