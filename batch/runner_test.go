package batch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/record"
)

// TestReaskRounds: items that need k re-asks take exactly k+1
// submissions, and each round holds only the items still invalid.
func TestReaskRounds(t *testing.T) {
	for k := 0; k <= 4; k++ {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			const n = 20
			// Item i needs min(i%(k+1), k) re-asks: the last ones need k.
			fails := func(i int) int { return i % (k + 1) }
			b := providertest.NewBatcher(reasks(fails), &providertest.BatcherOptions{Polls: 2})
			r := newRunner(t, b, batch.NewMemory(nil), batch.WithEnforcer(newEnforcer(t, enforce.WithMaxRetries(k))))
			got, err := collect(t, r, items(n))
			require.NoError(t, err)
			require.Len(t, got, n)
			for i := range n {
				s := got[fmt.Sprintf("m%d", i)]
				require.NoError(t, s.Err, s.ID)
				assert.Len(t, s.Result.Attempts, fails(i)+1, s.ID)
				assert.JSONEq(t, valid, string(s.Result.JSON))
			}
			subs := b.Submissions()
			require.Len(t, subs, k+1, "k re-ask rounds take k+1 submissions")
			for round, sub := range subs {
				want := 0
				for i := range n {
					if fails(i) >= round {
						want++
					}
				}
				assert.Len(t, sub.IDs, want, "round %d holds only the items still invalid", round+1)
			}
			for id, c := range b.Submitted() {
				assert.Equal(t, 1, c, id)
			}
		})
	}
}

// TestSpentBudget: an item that never becomes valid ends with the
// ValidationError Run gives, after the allowed re-asks.
func TestSpentBudget(t *testing.T) {
	b := providertest.NewBatcher(func(string, int) providertest.Reply { return providertest.Text(invalid) }, nil)
	r := newRunner(t, b, batch.NewMemory(nil), batch.WithEnforcer(newEnforcer(t, enforce.WithMaxRetries(1))))
	got, err := collect(t, r, items(3))
	require.NoError(t, err)
	for _, s := range got {
		var ve *enforce.ValidationError
		require.ErrorAs(t, s.Err, &ve)
		assert.Equal(t, 1, ve.Retries)
		assert.Len(t, ve.Attempts, 2)
		assert.Nil(t, s.Result.JSON)
	}
	assert.Len(t, b.Submissions(), 2)
}

// TestLimitsSplitRounds: a round over the provider's limits goes in
// several batches, each within them.
func TestLimitsSplitRounds(t *testing.T) {
	tests := []struct {
		name   string
		limits provider.BatchLimits
		want   int
	}{
		{"by count", provider.BatchLimits{MaxRequests: 4}, 3},
		{"by bytes", provider.BatchLimits{MaxBytes: 3 * 700}, 3},
		{"none", provider.BatchLimits{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := providertest.NewBatcher(reasks(func(int) int { return 0 }), &providertest.BatcherOptions{Limits: tt.limits})
			r := newRunner(t, b, batch.NewMemory(nil), batch.WithEnforcer(newEnforcer(t)))
			got, err := collect(t, r, items(10))
			require.NoError(t, err)
			require.Len(t, got, 10)
			subs := b.Submissions()
			assert.Len(t, subs, tt.want)
			for _, s := range subs {
				assert.NoError(t, s.Err)
			}
		})
	}
	t.Run("a request over MaxBytes ends its item", func(t *testing.T) {
		b := providertest.NewBatcher(reasks(func(int) int { return 0 }), &providertest.BatcherOptions{Limits: provider.BatchLimits{MaxBytes: 900}})
		its := items(2)
		its[1].Request.Prompt = string(make([]byte, 1000))
		r := newRunner(t, b, batch.NewMemory(nil), batch.WithEnforcer(newEnforcer(t)))
		got, err := collect(t, r, its)
		require.NoError(t, err)
		require.NoError(t, got["m0"].Err)
		assert.ErrorIs(t, got["m1"].Err, provider.ErrInvalidRequest)
		assert.Len(t, b.Submissions(), 1)
	})
}

// TestFaults: expired, cancelled and failed batches and per-request
// errors resubmit what got no reply, within the bound, and end the rest
// with a typed error.
func TestFaults(t *testing.T) {
	rate := &provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429}
	auth := &provider.Error{Kind: provider.ErrAuth, StatusCode: 401}
	tests := []struct {
		name   string
		faults map[int]providertest.BatchFault
		script providertest.Script
		max    int
		subs   int   // submissions expected
		errs   int   // items ending in error
		is     error // what their error matches
		sizes  []int // the submissions' sizes
	}{
		{name: "expired resubmits what did not run", faults: map[int]providertest.BatchFault{1: {Status: provider.BatchExpired, Ran: 3}},
			max: 3, subs: 2, sizes: []int{5, 2}},
		{name: "cancelled with errors reported", faults: map[int]providertest.BatchFault{1: {Status: provider.BatchCanceled, Ran: 1, Report: true}},
			max: 3, subs: 2, sizes: []int{5, 4}},
		{name: "failed batch resubmitted", faults: map[int]providertest.BatchFault{1: {Status: provider.BatchFailed}},
			max: 3, subs: 2, sizes: []int{5, 5}},
		{name: "failing batch gives up", faults: map[int]providertest.BatchFault{1: {Status: provider.BatchFailed}, 2: {Status: provider.BatchFailed}},
			max: 1, subs: 2, errs: 5, is: batch.ErrBatchFailed, sizes: []int{5, 5}},
		{name: "expiring batch gives up", faults: map[int]providertest.BatchFault{1: {Status: provider.BatchExpired}, 2: {Status: provider.BatchExpired}, 3: {Status: provider.BatchExpired}},
			max: 2, subs: 3, errs: 5, is: batch.ErrResubmits, sizes: []int{5, 5, 5}},
		{name: "rate limited is resubmitted", max: 3, subs: 2, sizes: []int{5, 1},
			script: func(item string, n int) providertest.Reply {
				if item == "m2" && n == 0 {
					return providertest.Failed(rate)
				}
				return providertest.Text(valid)
			}},
		{name: "rate limited for ever ends with the provider's error", max: 1, subs: 2, errs: 1, is: provider.ErrRateLimited, sizes: []int{5, 1},
			script: func(item string, n int) providertest.Reply {
				if item == "m2" {
					return providertest.Failed(rate)
				}
				return providertest.Text(valid)
			}},
		{name: "auth is not retried", max: 3, subs: 1, errs: 1, is: provider.ErrAuth, sizes: []int{5},
			script: func(item string, n int) providertest.Reply {
				if item == "m2" {
					return providertest.Failed(auth)
				}
				return providertest.Text(valid)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := tt.script
			if script == nil {
				script = reasks(func(int) int { return 0 })
			}
			b := providertest.NewBatcher(script, &providertest.BatcherOptions{Faults: tt.faults})
			r := newRunner(t, b, batch.NewMemory(nil), batch.WithEnforcer(newEnforcer(t)), batch.WithMaxResubmits(tt.max))
			got, err := collect(t, r, items(5))
			require.NoError(t, err)
			require.Len(t, got, 5)
			errs := 0
			for _, s := range got {
				if s.Err != nil {
					errs++
					assert.ErrorIs(t, s.Err, tt.is)
					continue
				}
				assert.JSONEq(t, valid, string(s.Result.JSON))
				assert.Len(t, s.Result.Attempts, 1, "a resubmission is not an attempt")
			}
			assert.Equal(t, tt.errs, errs)
			subs := b.Submissions()
			require.Len(t, subs, tt.subs)
			var sizes []int
			for _, s := range subs {
				sizes = append(sizes, len(s.IDs))
			}
			assert.Equal(t, tt.sizes, sizes)
		})
	}
}

// TestBreakAndResume: stopping the loop leaves the batch running; the
// next run does not hand out again what was handed out, and Results lists
// everything.
func TestBreakAndResume(t *testing.T) {
	b := providertest.NewBatcher(reasks(func(i int) int { return i % 3 }), nil)
	st := batch.NewMemory(nil)
	e := newEnforcer(t)
	first := map[string]bool{}
	for s, err := range newRunner(t, b, st, batch.WithEnforcer(e)).Run(ctx, items(9)) {
		require.NoError(t, err)
		first[s.ID] = true
		if len(first) == 4 {
			break
		}
	}
	rest, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(e)), items(9))
	require.NoError(t, err)
	for id := range rest {
		assert.False(t, first[id], "%s handed out twice", id)
	}
	assert.Len(t, rest, 5)
	var ids []string
	for s, err := range newRunner(t, b, st, batch.WithEnforcer(e)).Results(ctx) {
		require.NoError(t, err)
		require.NoError(t, s.Err)
		assert.JSONEq(t, valid, string(s.Result.JSON))
		ids = append(ids, s.ID)
	}
	sort.Strings(ids)
	assert.Len(t, ids, 9)
	for id, c := range b.Submitted() {
		assert.Equal(t, 1, c, id)
	}
	again, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(e)), items(9))
	require.NoError(t, err)
	assert.Empty(t, again, "a finished job has nothing left to hand out")
}

// TestInvalidInput: bad options and items fail before anything is
// submitted.
func TestInvalidInput(t *testing.T) {
	b := providertest.NewBatcher(nil, nil)
	_, err := batch.New(nil, batch.NewMemory(nil))
	assert.ErrorIs(t, err, batch.ErrInvalidOption)
	_, err = batch.New(b, nil)
	assert.ErrorIs(t, err, batch.ErrInvalidOption)
	_, err = batch.New(b, batch.NewMemory(nil), batch.WithPollInterval(-1))
	assert.ErrorIs(t, err, batch.ErrInvalidOption)
	_, err = batch.New(b, batch.NewMemory(nil), batch.WithMaxResubmits(-1))
	assert.ErrorIs(t, err, batch.ErrInvalidOption)
	_, err = batch.New(b, batch.NewMemory(nil), batch.WithEnforcer(nil))
	assert.ErrorIs(t, err, batch.ErrInvalidOption)

	e := newEnforcer(t)
	tests := []struct {
		name  string
		items []batch.Item
		opts  []batch.Option
	}{
		{"empty ID", []batch.Item{{Request: enforce.Request{Prompt: "x"}}}, []batch.Option{batch.WithEnforcer(e)}},
		{"bad character", []batch.Item{{ID: "a/b", Request: enforce.Request{Prompt: "x"}}}, []batch.Option{batch.WithEnforcer(e)}},
		{"too long", []batch.Item{{ID: string(make([]byte, 57)), Request: enforce.Request{Prompt: "x"}}}, []batch.Option{batch.WithEnforcer(e)}},
		{"repeated", []batch.Item{{ID: "a", Request: enforce.Request{Prompt: "x"}}, {ID: "a", Request: enforce.Request{Prompt: "y"}}}, []batch.Option{batch.WithEnforcer(e)}},
		{"no enforcer", []batch.Item{{ID: "a", Request: enforce.Request{Prompt: "x"}}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := collect(t, newRunner(t, b, batch.NewMemory(nil), tt.opts...), tt.items)
			assert.ErrorIs(t, err, batch.ErrInvalidItem)
			assert.Empty(t, b.Submissions())
		})
	}

	t.Run("empty prompt settles at once", func(t *testing.T) {
		got, err := collect(t, newRunner(t, b, batch.NewMemory(nil), batch.WithEnforcer(e)), []batch.Item{{ID: "a"}})
		require.NoError(t, err)
		assert.ErrorIs(t, got["a"].Err, enforce.ErrInvalidRequest)
		assert.Nil(t, got["a"].Result)
		assert.Empty(t, b.Submissions())
	})

	t.Run("pending item not given", func(t *testing.T) {
		st := batch.NewMemory(nil)
		slow := providertest.NewBatcher(nil, &providertest.BatcherOptions{Polls: 100})
		r := newRunner(t, slow, st, batch.WithEnforcer(e))
		batch.SetCrash(r, func(p string) error {
			if p == "polled" {
				return errCrash
			}
			return nil
		})
		_, err := collect(t, r, items(2))
		require.ErrorIs(t, err, errCrash)
		_, err = collect(t, newRunner(t, slow, st, batch.WithEnforcer(e)), items(1))
		assert.ErrorIs(t, err, batch.ErrUnknownItem)
		assert.Len(t, slow.Submissions(), 1)
	})
}

// TestPerItemEnforcer: an item's own Enforcer wins over the Runner's.
func TestPerItemEnforcer(t *testing.T) {
	b := providertest.NewBatcher(func(string, int) providertest.Reply { return providertest.Text(invalid) }, nil)
	its := items(2)
	its[1].Enforcer = newEnforcer(t, enforce.WithMaxRetries(0))
	got, err := collect(t, newRunner(t, b, batch.NewMemory(nil), batch.WithEnforcer(newEnforcer(t, enforce.WithMaxRetries(2)))), its)
	require.NoError(t, err)
	var ve *enforce.ValidationError
	require.ErrorAs(t, got["m0"].Err, &ve)
	assert.Equal(t, 2, ve.Retries)
	require.ErrorAs(t, got["m1"].Err, &ve)
	assert.Equal(t, 0, ve.Retries)
}

// TestStoreFailureStops: a store that fails stops the run with its error.
func TestStoreFailureStops(t *testing.T) {
	b := providertest.NewBatcher(reasks(func(int) int { return 0 }), nil)
	_, err := collect(t, newRunner(t, b, failingStore{batch.NewMemory(nil)}, batch.WithEnforcer(newEnforcer(t))), items(2))
	assert.ErrorIs(t, err, errCrash)
	assert.Empty(t, b.Submissions())
}

type failingStore struct{ *batch.Memory }

func (failingStore) Save(context.Context, batch.Update) error { return errCrash }

// TestToolArgumentsKeptByteForByte: the arguments of a model's tool call
// (in tool mode, the very reply a re-ask is for) are stored and read back
// byte for byte, in the reply and in the next request's messages, whatever
// they are: not JSON, or empty (a call without input), rather than
// stopping the job with an encoding error, or JSON that encoding/json
// would rewrite (a request rebuilt from the log is the one sent). The run is resumed while the
// re-ask is in flight, so what it reads back is what it goes on with.
func TestToolArgumentsKeptByteForByte(t *testing.T) {
	for _, tc := range []struct{ name, args string }{
		{"not JSON", `{"label": "ham",, "score": `},
		{"empty", ""},
		{"JSON with spaces", invalid},
		{"JSON encoding/json escapes", `{"label":"<eggs>","score":3}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := providertest.NewBatcher(func(_ string, n int) providertest.Reply {
				if n == 0 {
					return providertest.CallTool(enforce.ToolName, tc.args)
				}
				return providertest.CallTool(enforce.ToolName, valid)
			}, &providertest.BatcherOptions{Capabilities: provider.Capabilities{Tools: true, ForcedTool: true}, Polls: 1})
			e := newEnforcer(t, enforce.WithMode(enforce.ModeTool))
			st := batch.NewMemory(nil)
			r := newRunner(t, b, st, batch.WithEnforcer(e))
			polls := 0
			batch.SetCrash(r, func(p string) error {
				if p == "polled" {
					if polls++; polls == 3 { // the re-ask is in flight
						return errCrash
					}
				}
				return nil
			})
			_, err := collect(t, r, items(1))
			require.ErrorIs(t, err, errCrash)
			require.Len(t, b.Submissions(), 2, "the re-ask was submitted before the crash")
			got, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(e)), items(1))
			require.NoError(t, err)
			s := got["m0"]
			require.NoError(t, s.Err)
			require.Len(t, s.Result.Attempts, 2)
			assert.Equal(t, tc.args, string(s.Result.Attempts[0].Response.ToolCalls[0].Arguments), "the reply, read back from the store")
			var sent []string
			for _, m := range s.Result.Attempts[1].Request.Messages {
				for _, c := range m.ToolCalls {
					sent = append(sent, string(c.Arguments))
				}
			}
			assert.Equal(t, []string{tc.args}, sent, "the re-ask's messages, read back from the store")
			n := 0
			for r, err := range newRunner(t, b, st, batch.WithEnforcer(e)).Results(ctx) {
				require.NoError(t, err)
				assert.Equal(t, tc.args, string(r.Result.Attempts[0].Response.ToolCalls[0].Arguments))
				n++
			}
			assert.Equal(t, 1, n)
		})
	}
}

// TestToolCallWithoutArgumentsInMessages: a caller's conversation holding
// a tool call without input (empty arguments, as an adapter gives them)
// is logged with the item's first request and the job runs.
func TestToolCallWithoutArgumentsInMessages(t *testing.T) {
	b := providertest.NewBatcher(reasks(func(int) int { return 0 }), nil)
	its := items(3)
	its[0].Request = enforce.Request{Messages: []provider.Message{
		provider.UserMessage("What time is it?"),
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "now", Arguments: json.RawMessage("")}}},
		{Role: provider.RoleTool, ToolCallID: "c1", Content: "12:00"},
		provider.UserMessage("Label this conversation."),
	}}
	st := batch.NewMemory(nil)
	got, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t))), its)
	require.NoError(t, err)
	assert.Len(t, got, 3)
	for id, s := range got {
		assert.NoError(t, s.Err, id)
	}
	for r, err := range newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t))).Results(ctx) {
		require.NoError(t, err)
		if r.ID == "m0" {
			args := r.Result.Attempts[0].Request.Messages[1].ToolCalls[0].Arguments
			assert.NotNil(t, args)
			assert.Empty(t, args, "the call without input, read back from the store")
		}
	}
}

// noBatch is a Batcher whose SubmitBatch answers neither a batch nor an
// error, or a batch without an ID: a broken adapter.
type noBatch struct {
	*providertest.Batcher
	b *provider.Batch
}

func (n noBatch) SubmitBatch(context.Context, string, []provider.BatchRequest) (*provider.Batch, error) {
	return n.b, nil
}

// TestSubmitWithoutBatch: a SubmitBatch that answers no batch ID stops
// the run with an error, not a panic.
func TestSubmitWithoutBatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    *provider.Batch
	}{{"nil", nil}, {"no ID", &provider.Batch{Status: provider.BatchInProgress}}} {
		t.Run(tc.name, func(t *testing.T) {
			b := noBatch{providertest.NewBatcher(reasks(func(int) int { return 0 }), nil), tc.b}
			_, err := collect(t, newRunner(t, b, batch.NewMemory(nil), batch.WithEnforcer(newEnforcer(t))), items(2))
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, provider.ErrOther, pe.Kind)
		})
	}
}

// TestSubmitErrorBesideBatchKeepsID: a batch SubmitBatch returns beside
// an error (provider/record's recording could not be written: a full
// disk, a read-only mount) was created at the provider: the run writes its
// ID before it stops with the error, and the next run takes the batch up,
// over a Batcher that cannot find batches, instead of submitting its
// requests again.
func TestSubmitErrorBesideBatchKeepsID(t *testing.T) {
	pt := providertest.NewBatcher(reasks(func(int) int { return 0 }), nil)
	dir := t.TempDir()
	block := filepath.Join(dir, "capabilities.json")
	require.NoError(t, os.Mkdir(block, 0o755)) // a full disk, a read-only mount...
	rec, err := record.New(noFinder{pt}, dir, record.Record, nil)
	require.NoError(t, err)
	st := batch.NewMemory(nil)
	_, err = collect(t, newRunner(t, rec.(provider.Batcher), st, batch.WithEnforcer(newEnforcer(t))), items(2))
	t.Logf("first run: %v", err)
	require.Error(t, err)
	require.Len(t, pt.Submissions(), 1, "the provider created the batch")
	for rec, err := range st.Batches(ctx) {
		require.NoError(t, err)
		t.Logf("store: batch key %s, ID %q (the provider's: %s)", rec.Key, rec.ID, pt.Submissions()[0].Batch)
	}

	require.NoError(t, os.Remove(block))
	got, err := collect(t, newRunner(t, rec.(provider.Batcher), st, batch.WithEnforcer(newEnforcer(t))), items(2))
	require.NoError(t, err)
	assert.Len(t, got, 2)
	t.Logf("submissions: %d, requests submitted: %v", len(pt.Submissions()), pt.Submitted())
	for id, n := range pt.Submitted() {
		assert.Equal(t, 1, n, "%s submitted once", id)
	}
}

// toolCaps is a provider that calls tools, for enforce.ModeTool.
var toolCaps = provider.Capabilities{Tools: true, ForcedTool: true}

// TestResumedToolReaskReplays: a run resumed while a tool-mode re-ask is
// pending sends the request an uninterrupted run sends, byte for byte
// (the model's arguments with their spaces), so a replay of a recorded
// job (provider/record keys requests by their bytes) matches it.
func TestResumedToolReaskReplays(t *testing.T) {
	script := func(_ string, n int) providertest.Reply {
		if n == 0 {
			return providertest.CallTool("submit_result", `{"label": "eggs", "score": 3}`)
		}
		return providertest.CallTool("submit_result", `{"label": "ham", "score": 3}`)
	}
	e := newEnforcer(t, enforce.WithMode(enforce.ModeTool))
	its := []batch.Item{{ID: "m0", Request: enforce.Request{Prompt: "Label message 0."}}}
	dir := t.TempDir()
	rec, err := record.New(providertest.NewBatcher(script, &providertest.BatcherOptions{Capabilities: toolCaps}), dir, record.Record, nil)
	require.NoError(t, err)
	want, err := collect(t, newRunner(t, rec.(provider.Batcher), batch.NewMemory(nil), batch.WithEnforcer(e)), its)
	require.NoError(t, err)
	require.NoError(t, want["m0"].Err)
	require.Len(t, want["m0"].Result.Attempts, 2)

	replay := func() provider.Batcher {
		rep, err := record.New(nil, dir, record.Replay, nil)
		require.NoError(t, err)
		return rep.(provider.Batcher)
	}
	// Control: an uninterrupted replay matches.
	got, err := collect(t, newRunner(t, replay(), batch.NewMemory(nil), batch.WithEnforcer(e)), its)
	require.NoError(t, err)
	require.NoError(t, got["m0"].Err)

	// The replay stops once round 1 is settled (the re-ask is pending in
	// the store), then resumes.
	st := batch.NewMemory(nil)
	r := newRunner(t, replay(), st, batch.WithEnforcer(e))
	checked := false
	batch.SetCrash(r, func(p string) error {
		switch {
		case p == "checked":
			checked = true
		case p == "after save" && checked:
			return errCrash
		}
		return nil
	})
	_, err = collect(t, r, its)
	require.ErrorIs(t, err, errCrash)
	got, err = collect(t, newRunner(t, replay(), st, batch.WithEnforcer(e)), its)
	require.NoError(t, err, "the resumed replay sends the re-ask the recording holds")
	require.NoError(t, got["m0"].Err)
}
