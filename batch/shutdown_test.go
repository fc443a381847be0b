package batch_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// failAfter is a store whose Save fails once armed.
type failAfter struct {
	*batch.Memory
	armed atomic.Bool
}

func (s *failAfter) Save(ctx context.Context, c batch.Update) error {
	if s.armed.Load() {
		return errCrash
	}
	return s.Memory.Save(ctx, c)
}

// TestStopThenFailure: a consumer that stops the loop, after which the
// store fails or ctx ends, is never called again (calling it would panic:
// "range function continued iteration after function for loop body
// returned false").
func TestStopThenFailure(t *testing.T) {
	tests := []struct {
		name   string
		cancel bool // end ctx in the loop body too
	}{
		{"save fails after break", false},
		{"ctx ends and save fails after break", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := providertest.NewBatcher(reasks(func(int) int { return 0 }), nil)
			st := &failAfter{Memory: batch.NewMemory(nil)}
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			var log bytes.Buffer
			r := newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t)), batch.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
			calls := 0
			assert.NotPanics(t, func() {
				for _, err := range r.Run(cctx, items(4)) {
					require.NoError(t, err)
					calls++
					st.armed.Store(true)
					if tt.cancel {
						cancel()
					}
					break
				}
			})
			assert.Equal(t, 1, calls)
			assert.Contains(t, log.String(), "crash", "the store's failure after the break is logged")
		})
	}
}

// TestShutdownKeepsRemoteBatches: ending ctx stops the local run only;
// the batches in flight are not cancelled, and a new run picks them up,
// submitting nothing again and handing out every item once.
func TestShutdownKeepsRemoteBatches(t *testing.T) {
	b := providertest.NewBatcher(reasks(func(i int) int { return i % 2 }), &providertest.BatcherOptions{Polls: 3})
	st := batch.NewMemory(nil)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t)))
	polls := 0
	batch.SetCrash(r, func(p string) error {
		if p == "polled" {
			if polls++; polls == 2 {
				cancel()
			}
		}
		return nil
	})
	seen := map[string]int{}
	var runErr error
	for s, err := range r.Run(cctx, items(6)) {
		if err != nil {
			runErr = err
			continue
		}
		seen[s.ID]++
	}
	require.ErrorIs(t, runErr, context.Canceled)
	assert.Empty(t, b.Canceled(), "no remote batch is cancelled by a shutdown")

	resumeOnce(ctx, t, b, st, 6, seen)
}

// resumeOnce runs a second runner over the first n items, counting in seen
// what it hands out, and checks that over both runs every item was handed
// out once and every request submitted once: the run resumed the batch in
// flight.
func resumeOnce(ctx context.Context, t *testing.T, b *providertest.Batcher, st batch.Store, n int, seen map[string]int) {
	t.Helper()
	for s, err := range newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t))).Run(ctx, items(n)) {
		require.NoError(t, err)
		require.NoError(t, s.Err)
		seen[s.ID]++
	}
	require.Len(t, seen, n)
	for id, c := range seen {
		assert.Equal(t, 1, c, "%s handed out once", id)
	}
	for id, c := range b.Submitted() {
		assert.Equal(t, 1, c, "%s submitted once: the run resumed the batch in flight", id)
	}
}

// hangingCancel is a Batcher whose CancelBatch waits for its ctx to end.
type hangingCancel struct{ *providertest.Batcher }

func (h hangingCancel) CancelBatch(ctx context.Context, id string) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestCancelBatches: cancelling the remote batches is its own call, under
// the caller's ctx; the next run resubmits what the cancel kept from
// running and hands every item out once.
func TestCancelBatches(t *testing.T) {
	b := providertest.NewBatcher(reasks(func(int) int { return 0 }), &providertest.BatcherOptions{Polls: 100, Limits: provider.BatchLimits{MaxRequests: 2}})
	st := batch.NewMemory(nil)
	r := newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t)))
	batch.SetCrash(r, func(p string) error {
		if p == "polled" {
			return errCrash
		}
		return nil
	})
	_, err := collect(t, r, items(5))
	require.ErrorIs(t, err, errCrash)
	require.Len(t, b.Submissions(), 3)
	require.Empty(t, b.Canceled())

	require.NoError(t, newRunner(t, b, st).CancelBatches(ctx))
	assert.Len(t, b.Canceled(), 3, "every batch in flight")

	got, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t)), batch.WithMaxResubmits(1)), items(5))
	require.NoError(t, err)
	require.Len(t, got, 5)
	for _, s := range got {
		require.NoError(t, s.Err)
	}

	t.Run("a provider that hangs is bounded by ctx", func(t *testing.T) {
		b := providertest.NewBatcher(reasks(func(int) int { return 0 }), &providertest.BatcherOptions{Polls: 100})
		st := batch.NewMemory(nil)
		r := newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t)))
		batch.SetCrash(r, func(p string) error {
			if p == "polled" {
				return errCrash
			}
			return nil
		})
		_, err := collect(t, r, items(2))
		require.ErrorIs(t, err, errCrash)
		dctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
		defer cancel()
		err = newRunner(t, hangingCancel{b}, st).CancelBatches(dctx)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})
}

// oneCancelHangs is a Batcher that does not answer the first cancel it
// gets until the others have been answered (or its ctx ends): one batch
// the provider is slow to cancel.
type oneCancelHangs struct {
	*providertest.Batcher
	others      int // how many other cancels to wait for
	calls, done atomic.Int32
	answered    chan struct{} // closed once the others are answered
}

func (h *oneCancelHangs) CancelBatch(ctx context.Context, id string) error {
	if h.calls.Add(1) == 1 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-h.answered:
			return &provider.Error{Kind: provider.ErrOverloaded, Provider: "test", Message: "no answer to the cancel"}
		}
	}
	err := h.Batcher.CancelBatch(ctx, id)
	if h.done.Add(1) == int32(h.others) {
		close(h.answered)
	}
	return err
}

// TestCancelBatchesOneHangs: a batch the provider does not answer for
// does not keep CancelBatches from cancelling the others: they are
// cancelled while it waits, and its failure comes back alone.
func TestCancelBatchesOneHangs(t *testing.T) {
	for _, n := range []int{2, 3, 20} {
		t.Run(fmt.Sprintf("%d batches", n), func(t *testing.T) {
			pt := providertest.NewBatcher(reasks(func(int) int { return 0 }), &providertest.BatcherOptions{Polls: 100, Limits: provider.BatchLimits{MaxRequests: 1}})
			st := batch.NewMemory(nil)
			r := newRunner(t, pt, st, batch.WithEnforcer(newEnforcer(t)))
			batch.SetCrash(r, func(p string) error {
				if p == "polled" {
					return errCrash
				}
				return nil
			})
			_, err := collect(t, r, items(n))
			require.ErrorIs(t, err, errCrash)
			require.Len(t, pt.Submissions(), n)

			h := &oneCancelHangs{Batcher: pt, others: n - 1, answered: make(chan struct{})}
			dctx, cancel := context.WithTimeout(ctx, 5*time.Second) // a deadline, as the doc asks
			defer cancel()
			err = newRunner(t, h, st).CancelBatches(dctx)
			var pe *provider.Error
			require.ErrorAs(t, err, &pe, "the cancel that got no answer")
			assert.Equal(t, provider.ErrOverloaded, pe.Kind)
			assert.Len(t, pt.Canceled(), n-1, "the batches the provider answers for are cancelled")
		})
	}
}

// TestStopOptions: the stop timeout and the logger are checked by New.
func TestStopOptions(t *testing.T) {
	b := providertest.NewBatcher(nil, nil)
	_, err := batch.New(b, batch.NewMemory(nil), batch.WithStopTimeout(-time.Second))
	assert.ErrorIs(t, err, batch.ErrInvalidOption)
	_, err = batch.New(b, batch.NewMemory(nil), batch.WithLogger(nil))
	assert.ErrorIs(t, err, batch.ErrInvalidOption)
	_, err = batch.New(b, batch.NewMemory(nil), batch.WithStopTimeout(0))
	assert.NoError(t, err)
}

var _ = errors.Is

// TestShutdownStopsAtOnce: once ctx ends in the loop body, the run yields
// no further outcome, only ctx's error; what it had settled is handed out
// by the next run.
func TestShutdownStopsAtOnce(t *testing.T) {
	b := providertest.NewBatcher(reasks(func(int) int { return 0 }), nil)
	st := batch.NewMemory(nil)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var got []string
	var runErr error
	for s, err := range newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t))).Run(cctx, items(50)) {
		if err != nil {
			runErr = err
			continue
		}
		got = append(got, s.ID)
		cancel()
	}
	require.ErrorIs(t, runErr, context.Canceled)
	assert.Len(t, got, 1, "one outcome, then ctx's error")
	rest, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t))), items(50))
	require.NoError(t, err)
	assert.Len(t, rest, 49)
	assert.NotContains(t, rest, got[0])
}

// failOnce is a store whose Save fails the n-th time it is called.
type failOnce struct {
	*batch.Memory
	n, calls int
}

func (s *failOnce) Save(ctx context.Context, c batch.Update) error {
	if s.calls++; s.calls == s.n {
		return errCrash
	}
	return s.Memory.Save(ctx, c)
}

// TestStoreFailsOnce: a store that fails once, at any of a run's saves,
// stops that run with its error; the next run resumes, submits nothing
// twice, and every item is handed out exactly once across both.
func TestStoreFailsOnce(t *testing.T) {
	// Count the saves of a run that does not fail.
	probe := &failOnce{Memory: batch.NewMemory(nil)}
	_, err := collect(t, newRunner(t, providertest.NewBatcher(reasks(func(i int) int { return i % 2 }), &providertest.BatcherOptions{Polls: 1}), probe,
		batch.WithEnforcer(newEnforcer(t))), items(6))
	require.NoError(t, err)
	require.Greater(t, probe.calls, 4)
	for n := 1; n <= probe.calls; n++ {
		t.Run(fmt.Sprintf("save %d", n), func(t *testing.T) {
			b := providertest.NewBatcher(reasks(func(i int) int { return i % 2 }), &providertest.BatcherOptions{Polls: 1})
			st := &failOnce{Memory: batch.NewMemory(nil), n: n}
			handed := map[string]int{}
			for s, err := range newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t))).Run(ctx, items(6)) {
				if err != nil {
					require.ErrorIs(t, err, errCrash)
					break
				}
				handed[s.ID]++
			}
			resumeOnce(ctx, t, b, st, 6, handed)
		})
	}
}

// noFinder hides FindBatch: a Batcher that cannot find a batch by its
// key, as the Anthropic adapter is.
type noFinder struct{ provider.Batcher }

// TestShutdownAfterSubmitKeepsBatchID: a shutdown (ctx ends) that comes
// just as SubmitBatch returns the batch the provider created still writes
// its ID (within the stop timeout), over a Batcher that cannot find
// batches: the next run takes the batch up instead of paying for its
// requests again, and CancelBatches reaches it.
func TestShutdownAfterSubmitKeepsBatchID(t *testing.T) {
	// first runs a job of 3 items until a shutdown just after SubmitBatch
	// returned.
	first := func(t *testing.T) (*providertest.Batcher, provider.Batcher, *batch.Memory) {
		cctx, cancel := context.WithCancel(ctx)
		t.Cleanup(cancel)
		pt := providertest.NewBatcher(reasks(func(int) int { return 0 }), &providertest.BatcherOptions{
			Polls: 2,
			Hook: func(e providertest.BatchEvent) error {
				if e.Op == providertest.OpSubmitted {
					cancel() // SIGTERM arrives with the provider's answer
				}
				return nil
			},
		})
		b := noFinder{pt}
		st := batch.NewMemory(nil)
		r, err := batch.New(b, st, batch.WithEnforcer(newEnforcer(t)), batch.WithPollInterval(0))
		require.NoError(t, err)
		for _, err := range r.Run(cctx, items(3)) {
			require.ErrorIs(t, err, context.Canceled)
		}
		require.Len(t, pt.Submissions(), 1)
		t.Logf("provider: batch %s created for %v", pt.Submissions()[0].Batch, pt.Submissions()[0].IDs)
		for rec, err := range st.Batches(ctx) {
			require.NoError(t, err)
			t.Logf("store after the shutdown: batch key %s, ID %q", rec.Key, rec.ID)
		}
		return pt, b, st
	}

	t.Run("the next run resumes the batch", func(t *testing.T) {
		pt, b, st := first(t)
		got, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(newEnforcer(t))), items(3))
		require.NoError(t, err)
		assert.Len(t, got, 3)
		t.Logf("submissions over both runs: %d, requests submitted: %v", len(pt.Submissions()), pt.Submitted())
		for id, n := range pt.Submitted() {
			assert.Equal(t, 1, n, "%s submitted once: the run resumes the batch the shutdown left running", id)
		}
	})

	t.Run("CancelBatches reaches the batch", func(t *testing.T) {
		pt, b, st := first(t)
		require.NoError(t, newRunner(t, b, st).CancelBatches(ctx))
		t.Logf("CancelBatches cancelled %v", pt.Canceled())
		assert.Equal(t, []string{pt.Submissions()[0].Batch}, pt.Canceled(), "the batch submitted before the shutdown is cancelled")
	})
}

// bufferedResults is a Batcher whose BatchResults downloads the whole
// results first (under ctx), then yields them from memory without
// looking at ctx, as provider/gemini's BatchResults does (the inlined
// responses come with the batch, in one response).
type bufferedResults struct{ *providertest.Batcher }

func (b bufferedResults) BatchResults(ctx context.Context, id string) iter.Seq2[provider.BatchResult, error] {
	return func(yield func(provider.BatchResult, error) bool) {
		var all []provider.BatchResult
		for r, err := range b.Batcher.BatchResults(ctx, id) {
			if err != nil {
				yield(r, err)
				return
			}
			all = append(all, r)
		}
		for _, r := range all {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// TestShutdownStopsChecks: once ctx has ended, the run checks no more
// results, though the Batcher has them all downloaded, and keeps the
// checks it made: over both runs each result is checked once, and every
// item is handed out.
func TestShutdownStopsChecks(t *testing.T) {
	const n = 600 // more than one save's worth
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	calls, after := 0, 0
	e := newEnforcer(t, enforce.WithValidator(func(context.Context, enforce.Attempt, any) []schema.Violation {
		calls++
		switch {
		case calls == 1:
			cancel() // SIGTERM while the first results are checked
		case cctx.Err() != nil:
			after++
		}
		return nil
	}))
	b := bufferedResults{providertest.NewBatcher(reasks(func(int) int { return 0 }), nil)}
	st := batch.NewMemory(nil)
	var err error
	for _, e := range newRunner(t, b, st, batch.WithEnforcer(e)).Run(cctx, items(n)) {
		if e != nil {
			err = e
		}
	}
	require.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, after, "checks made after the shutdown")
	got, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(e)), items(n))
	require.NoError(t, err)
	assert.Len(t, got, n)
	assert.Equal(t, n, calls, "each result checked once over both runs")
}
