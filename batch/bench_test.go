package batch_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
)

// bigItems returns n items with short prompts.
func bigItems(n int) []batch.Item {
	out := make([]batch.Item, n)
	for i := range out {
		out[i] = batch.Item{ID: "m" + fmt.Sprint(i), Request: enforce.Request{Prompt: "Label message " + fmt.Sprint(i) + "."}}
	}
	return out
}

// BenchmarkRun100k runs 100,000 items through a scripted Batcher, one in
// ten re-asked once, with a memory store that drops what was handed out.
// It reports the settle throughput (items/s) and the heap held per item
// in flight (the peak heap during the first round, over the items).
func BenchmarkRun100k(b *testing.B) {
	const n = 100_000
	e := newEnforcer(b)
	its := bigItems(n)
	for b.Loop() {
		bt := providertest.NewBatcher(reasks(func(i int) int {
			if i%10 == 0 {
				return 1
			}
			return 0
		}), nil)
		r, err := batch.New(bt, batch.NewMemory(&batch.MemoryOptions{DropDelivered: true}), batch.WithEnforcer(e), batch.WithPollInterval(0))
		require.NoError(b, err)
		var before, peak runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		settled := 0
		for _, err := range r.Run(ctx, its) {
			require.NoError(b, err)
			if settled == 0 {
				// Every item is in flight: the first round was submitted.
				runtime.ReadMemStats(&peak)
			}
			settled++
		}
		require.Equal(b, n, settled)
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "items/s")
		b.ReportMetric(float64(int64(peak.HeapAlloc)-int64(before.HeapAlloc))/n, "B/in-flight-item")
	}
}

// TestMemoryDoesNotGrowWithSettled settles 100,000 items with a memory
// store that drops delivered results, and checks that what stays on the
// heap afterwards is a small fraction of what the same job keeps when the
// store keeps every result: the runner itself keeps nothing per settled
// item.
func TestMemoryDoesNotGrowWithSettled(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 items")
	}
	n := 100_000
	if raceEnabled {
		n = 20_000 // the race detector makes it five times slower
	}
	e := newEnforcer(t)
	its := bigItems(n)
	retained := func(opts *batch.MemoryOptions) float64 {
		bt := providertest.NewBatcher(reasks(func(int) int { return 0 }), nil)
		store := batch.NewMemory(opts)
		r, err := batch.New(bt, store, batch.WithEnforcer(e), batch.WithPollInterval(0))
		require.NoError(t, err)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for _, err := range r.Run(ctx, its) {
			require.NoError(t, err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		require.Equal(t, n, store.Len())
		runtime.KeepAlive(store)
		runtime.KeepAlive(bt)
		return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
	}
	kept := retained(nil)
	dropped := retained(&batch.MemoryOptions{DropDelivered: true})
	t.Logf("heap per settled item: %.0f B keeping results, %.0f B dropping them", kept, dropped)
	require.Less(t, dropped, 400.0, "bytes per settled item when results are dropped (store tombstone and the Batcher's record)")
	require.Less(t, dropped*4, kept, "a kept result (its record and log, about 1.5 KB) against a dropped one")
}
