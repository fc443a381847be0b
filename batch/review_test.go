package batch_test

// Reproductions of defects found reviewing issue #37's change (review-37).
// Each test fails on the code as it is.

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// reviewNoFinder hides FindBatch: a Batcher that cannot find a batch by
// its key, as the Anthropic adapter is (only openai and gemini implement
// provider.BatchFinder).
type reviewNoFinder struct{ provider.Batcher }

// TestReviewShutdownAfterSubmitLosesBatchID: a shutdown (ctx ends) that
// comes just after SubmitBatch returned the batch, before the runner
// wrote its ID, drops the ID the runner holds: the write is made with the
// ended ctx and fails. The remote batch keeps running (paid), the next run
// submits the same requests again in a second batch, and CancelBatches
// cannot reach the first one. The runner already has a detached,
// WithStopTimeout-bounded write for delivery marks; it does not use it for
// the one write that makes a shutdown lose paid work.
func TestReviewShutdownAfterSubmitLosesBatchID(t *testing.T) {
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
		b := reviewNoFinder{pt}
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
