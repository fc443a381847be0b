package providertest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

func batchReqs(ids ...string) []provider.BatchRequest {
	out := make([]provider.BatchRequest, len(ids))
	for i, id := range ids {
		out[i] = provider.BatchRequest{ID: id, Request: &provider.Request{Messages: []provider.Message{provider.UserMessage("q " + id)}}}
	}
	return out
}

// results downloads every result of a batch, or fails the test.
func results(t *testing.T, b provider.Batcher, id string) []provider.BatchResult {
	t.Helper()
	var out []provider.BatchResult
	for r, err := range b.BatchResults(context.Background(), id) {
		require.NoError(t, err)
		out = append(out, r)
	}
	return out
}

func TestBatcherScriptPerItem(t *testing.T) {
	ctx := context.Background()
	b := providertest.NewBatcher(providertest.Replies(map[string][]providertest.Reply{
		"a": {providertest.Text("a0"), providertest.Text("a1")},
		"b": {providertest.Failed(&provider.Error{Kind: provider.ErrRateLimited})},
	}), &providertest.BatcherOptions{Polls: 2})
	bt, err := b.SubmitBatch(ctx, "k1", batchReqs("a-1", "b-1", "c-1"))
	require.NoError(t, err)
	for range 2 {
		got, err := b.Batch(ctx, bt.ID)
		require.NoError(t, err)
		assert.Equal(t, provider.BatchInProgress, got.Status)
		for _, err := range b.BatchResults(ctx, bt.ID) {
			assert.ErrorIs(t, err, provider.ErrBatchNotDone)
		}
	}
	got, err := b.Batch(ctx, bt.ID)
	require.NoError(t, err)
	assert.Equal(t, provider.BatchEnded, got.Status)
	assert.Equal(t, provider.BatchCounts{Total: 3, Succeeded: 1, Failed: 2}, got.Counts)
	rs := results(t, b, bt.ID)
	require.Len(t, rs, 3)
	assert.Equal(t, "a0", rs[0].Response.Text)
	assert.ErrorIs(t, rs[1].Err, provider.ErrRateLimited)
	var ex *providertest.ExhaustedError
	assert.ErrorAs(t, rs[2].Err, &ex)

	bt2, err := b.SubmitBatch(ctx, "k2", batchReqs("a-2"))
	require.NoError(t, err)
	_, err = b.Batch(ctx, bt2.ID)
	require.NoError(t, err)
	_, err = b.Batch(ctx, bt2.ID)
	require.NoError(t, err)
	_, err = b.Batch(ctx, bt2.ID)
	require.NoError(t, err)
	assert.Equal(t, "a1", results(t, b, bt2.ID)[0].Response.Text, "the item's second reply")
	assert.Equal(t, map[string]int{"a-1": 1, "b-1": 1, "c-1": 1, "a-2": 1}, b.Submitted())
}

func TestBatcherFaults(t *testing.T) {
	ctx := context.Background()
	reject := errors.New("refused")
	script := func(item string, n int) providertest.Reply { return providertest.Text(item) }
	b := providertest.NewBatcher(script, &providertest.BatcherOptions{
		Limits: provider.BatchLimits{MaxRequests: 3, MaxBytes: 1000},
		Faults: map[int]providertest.BatchFault{
			1: {Reject: reject},
			2: {Status: provider.BatchExpired, Ran: 1},
			3: {Status: provider.BatchCanceled, Ran: 1, Report: true},
			4: {Status: provider.BatchFailed},
		},
	})
	_, err := b.SubmitBatch(ctx, "k", batchReqs("x-1"))
	assert.ErrorIs(t, err, reject)

	tests := []struct {
		name   string
		status provider.BatchStatus
		texts  []string
		errs   []error
	}{
		{"expired keeps what ran", provider.BatchExpired, []string{"x"}, []error{nil}},
		{"cancelled reports what did not run", provider.BatchCanceled, []string{"x", ""}, []error{nil, provider.ErrCanceled}},
		{"failed has no results", provider.BatchFailed, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bt, err := b.SubmitBatch(ctx, "k", batchReqs("x-1", "y-1"))
			require.NoError(t, err)
			got, err := b.Batch(ctx, bt.ID)
			require.NoError(t, err)
			assert.Equal(t, tt.status, got.Status)
			if tt.status == provider.BatchFailed {
				assert.ErrorIs(t, got.Err, provider.ErrInvalidRequest)
			}
			rs := results(t, b, bt.ID)
			require.Len(t, rs, len(tt.texts))
			for i, r := range rs {
				if tt.errs[i] != nil {
					assert.ErrorIs(t, r.Err, tt.errs[i])
					continue
				}
				assert.Equal(t, tt.texts[i], r.Response.Text)
			}
		})
	}

	_, err = b.SubmitBatch(ctx, "k", batchReqs("a-1", "b-1", "c-1", "d-1"))
	assert.ErrorIs(t, err, provider.ErrInvalidRequest, "over MaxRequests")
	big := batchReqs("a-1")
	big[0].Request.System = string(make([]byte, 1000))
	_, err = b.SubmitBatch(ctx, "k", big)
	assert.ErrorIs(t, err, provider.ErrInvalidRequest, "over MaxBytes")
	_, err = b.SubmitBatch(ctx, "k", batchReqs("a-1", "a-1"))
	assert.ErrorIs(t, err, provider.ErrInvalidRequest, "repeated ID")
	_, err = b.SubmitBatch(ctx, "k", nil)
	assert.ErrorIs(t, err, provider.ErrInvalidRequest, "empty")
}

func TestBatcherCancelFindAndHook(t *testing.T) {
	ctx := context.Background()
	crash := errors.New("crash")
	var seen []providertest.BatchOp
	b := providertest.NewBatcher(func(item string, n int) providertest.Reply { return providertest.Text(item) }, &providertest.BatcherOptions{
		Polls: 5,
		Hook: func(e providertest.BatchEvent) error {
			seen = append(seen, e.Op)
			if e.Op == providertest.OpSubmitted && e.Key == "lost" {
				return crash
			}
			return nil
		},
	})
	_, err := b.SubmitBatch(ctx, "lost", batchReqs("a-1"))
	require.ErrorIs(t, err, crash)
	found, err := b.FindBatch(ctx, "lost")
	require.NoError(t, err)
	require.NotNil(t, found, "the batch exists although SubmitBatch failed")
	none, err := b.FindBatch(ctx, "never")
	require.NoError(t, err)
	assert.Nil(t, none)

	require.NoError(t, b.CancelBatch(ctx, found.ID))
	got, err := b.Batch(ctx, found.ID)
	require.NoError(t, err)
	assert.Equal(t, provider.BatchCanceled, got.Status)
	assert.Empty(t, results(t, b, found.ID), "nothing ran before the cancellation")
	assert.Equal(t, []string{found.ID}, b.Canceled())
	require.NoError(t, b.CancelBatch(ctx, found.ID), "cancelling a batch that is done is not an error")
	assert.Equal(t, []providertest.BatchOp{providertest.OpSubmit, providertest.OpSubmitted, providertest.OpFind, providertest.OpFind,
		providertest.OpCancel, providertest.OpPoll, providertest.OpResult, providertest.OpCancel}[:6], seen[:6])

	_, err = b.Batch(ctx, "nope")
	assert.ErrorIs(t, err, provider.ErrInvalidRequest)
	resp, err := b.Generate(ctx, &provider.Request{})
	require.NoError(t, err)
	assert.Equal(t, "", resp.Text, "Generate answers as item \"\"")
}

func TestBatcherHookEndsDownload(t *testing.T) {
	ctx := context.Background()
	crash := errors.New("crash")
	b := providertest.NewBatcher(func(item string, n int) providertest.Reply { return providertest.Text(item) }, &providertest.BatcherOptions{
		Hook: func(e providertest.BatchEvent) error {
			if e.Op == providertest.OpResult && e.N == 1 {
				return crash
			}
			return nil
		},
		KeepRequests: true,
	})
	bt, err := b.SubmitBatch(ctx, "k", batchReqs("a-1", "b-1", "c-1"))
	require.NoError(t, err)
	_, err = b.Batch(ctx, bt.ID)
	require.NoError(t, err)
	var ids []string
	var last error
	for r, err := range b.BatchResults(ctx, bt.ID) {
		if err != nil {
			last = err
			assert.Empty(t, r.ID)
			continue
		}
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"a-1"}, ids)
	assert.ErrorIs(t, last, crash)
	subs := b.Submissions()
	require.Len(t, subs, 1)
	assert.Equal(t, "q b-1", subs[0].Requests[1].Messages[0].Content)
}
