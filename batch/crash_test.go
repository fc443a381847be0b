package batch_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// TestCrashAtEveryStep kills a run at every step boundary it passes (each
// save, before and after; after a submission before it is recorded; after
// each poll; after each result checked, mid-download; after each
// delivery), one crash point per subtest, found by tracing a run that does
// not crash (round 1 in three batches, two re-ask rounds), then resumes it with a new Runner over the same store and
// Batcher. Nothing is lost: every item is handed out with the outcome the
// uncrashed run gives. With FindBatch nothing is submitted twice; without
// it, only the batch whose submission was not recorded may be.
func TestCrashAtEveryStep(t *testing.T) {
	const n = 12
	fails := func(i int) int { return i % 3 }
	opts := func() *providertest.BatcherOptions {
		return &providertest.BatcherOptions{Polls: 1, Limits: provider.BatchLimits{MaxRequests: 5}}
	}
	e := newEnforcer(t)

	// The trace of a run that does not crash.
	var trace []string
	b := providertest.NewBatcher(reasks(fails), opts())
	r := newRunner(t, b, batch.NewMemory(nil), batch.WithEnforcer(e))
	batch.SetCrash(r, func(p string) error { trace = append(trace, p); return nil })
	want, err := collect(t, r, items(n))
	require.NoError(t, err)
	for id, c := range b.Submitted() {
		require.Equal(t, 1, c, id)
	}
	require.Len(t, want, n)
	kinds := map[string]int{}
	for _, p := range trace {
		kinds[p]++
	}
	for _, p := range []string{"before save", "after save", "submitted", "polled", "checked", "delivered"} {
		require.NotZero(t, kinds[p], "the trace passes %q", p)
	}

	for _, finder := range []bool{true, false} {
		for i, point := range trace {
			t.Run(fmt.Sprintf("finder=%v/%d-%s", finder, i+1, point), func(t *testing.T) {
				sb := providertest.NewBatcher(reasks(fails), opts())
				var pb provider.Batcher = sb
				if !finder {
					pb = struct{ provider.Batcher }{sb}
				}
				st := batch.NewMemory(nil)
				r := newRunner(t, pb, st, batch.WithEnforcer(e))
				step := 0
				batch.SetCrash(r, func(string) error {
					if step++; step == i+1 {
						return errCrash
					}
					return nil
				})
				got, err := collect(t, r, items(n))
				require.ErrorIs(t, err, errCrash)

				rest, err := collect(t, newRunner(t, pb, st, batch.WithEnforcer(e)), items(n))
				require.NoError(t, err)
				for id, s := range rest {
					got[id] = s
				}
				require.Len(t, got, n, "every item is handed out")
				for id, w := range want {
					g := got[id]
					require.NoError(t, g.Err, id)
					assert.JSONEq(t, string(w.Result.JSON), string(g.Result.JSON), id)
					assert.Equal(t, w.Result.Value, g.Result.Value, id)
					assert.Len(t, g.Result.Attempts, len(w.Result.Attempts), id)
				}
				// Between SubmitBatch and recording its ID, only FindBatch
				// can tell that the batch exists.
				unrecorded := point == "submitted" || (point == "before save" && i > 0 && trace[i-1] == "submitted")
				twice := 0
				for _, c := range sb.Submitted() {
					if c > 1 {
						twice++
					}
				}
				if finder || !unrecorded {
					assert.Zero(t, twice, "requests submitted twice")
				} else {
					assert.NotZero(t, twice, "without FindBatch the unrecorded batch is submitted again")
					assert.LessOrEqual(t, twice, 5, "only that batch")
				}
			})
		}
	}
}
