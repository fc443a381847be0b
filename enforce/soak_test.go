package enforce_test

import (
	"context"
	"errors"
	"flag"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/internal/shared"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

var soakRuns = flag.Int("soak.runs", 1000, "enforce.Run calls of TestSoakFaultyProvider (10000 for the long soak)")

// TestSoakFaultyProvider runs the enforcement loop many times at once
// over a provider that faults one call in five (every fault kind), behind
// the retry wrapper: every run ends exactly once, with a Result or a typed
// error, and no goroutine outlives the runs. It reports the outcomes, the
// faults injected, the peak heap and the runs per second. A measuring
// test: under -race it skips; -soak.runs=10000 makes it the long soak.
func TestSoakFaultyProvider(t *testing.T) {
	shared.Measuring(t)
	const concurrency = 256
	runs := *soakRuns
	s, err := schema.Parse([]byte(`{"type":"object","required":["ok","n"],"properties":{"ok":{"type":"boolean"},"n":{"type":"integer"}}}`))
	require.NoError(t, err)
	model := provider.Func(func(ctx context.Context, _ *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: `Here it is: {"ok": true, "n": 42}`, StopReason: provider.StopEnd,
			Usage: provider.Usage{InputTokens: 20, OutputTokens: 10, TotalTokens: 30}}, nil
	})
	faulty, err := providertest.NewFaulty(model, &providertest.FaultOptions{
		Rate: 0.2, Seed: 40, Kinds: providertest.Faults(), RetryAfter: 5 * time.Millisecond, SlowFor: 20 * time.Millisecond})
	require.NoError(t, err)
	var retries atomic.Int64
	p, err := provider.WithRetry(faulty, &provider.RetryOptions{MaxAttempts: 4, BaseDelay: time.Millisecond, MaxDelay: 50 * time.Millisecond,
		OnRetry: func(context.Context, int, error, time.Duration) { retries.Add(1) }})
	require.NoError(t, err)
	e, err := enforce.New(s)
	require.NoError(t, err)

	runtime.GC()
	baseline := runtime.NumGoroutine()
	stopSampling := sampleHeap()

	ended := make([]atomic.Int32, runs)
	outcomes := make([]string, runs)
	next := atomic.Int64{}
	start := time.Now()
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= runs {
					return
				}
				ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
				res, err := e.Run(ctx, p, enforce.Request{Prompt: "Is it ok?"})
				cancel()
				ended[i].Add(1)
				outcomes[i] = outcome(res, err)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	peak := stopSampling()

	byClass := map[string]int{}
	for i := range runs {
		assert.Equal(t, int32(1), ended[i].Load(), "run %d ended once", i)
		byClass[outcomes[i]]++
	}
	assert.Zero(t, byClass["untyped"], "every failure is a typed error")
	assert.Greater(t, byClass["result"], runs*9/10, "the loop and the retries absorb most faults")

	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(2 * time.Second); after > baseline && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, after, baseline, "goroutines back to the baseline")

	t.Logf("soak: %d runs at concurrency %d in %v: %.0f runs/s, %v per run at that concurrency",
		runs, concurrency, elapsed.Round(time.Millisecond), float64(runs)/elapsed.Seconds(), (elapsed / time.Duration(runs)).Round(time.Microsecond))
	t.Logf("soak: provider calls %d, faults injected %v, retries %d", faulty.Calls(), faulty.Injected(), retries.Load())
	t.Logf("soak: outcomes %v", byClass)
	t.Logf("soak: goroutines %d before, %d after; peak heap %.1f MiB", baseline, after, float64(peak)/(1<<20))
}

// outcome classifies how a run ended: "result", a typed error's class,
// or "untyped".
func outcome(res *enforce.Result, err error) string {
	var ve *enforce.ValidationError
	var pe *provider.Error
	switch {
	case err == nil && res != nil:
		return "result"
	case err == nil:
		return "untyped"
	case errors.As(err, &ve):
		switch {
		case errors.Is(err, enforce.ErrTruncated):
			return "validation: truncated"
		case errors.Is(err, enforce.ErrNoJSON):
			return "validation: no JSON"
		default:
			return "validation: invalid"
		}
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline"
	case errors.As(err, &pe):
		return "provider: " + string(pe.Kind)
	default:
		return "untyped"
	}
}

// sampleHeap samples the heap's live bytes every few milliseconds until
// the function it returns is called, which returns the highest sample.
func sampleHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak.Store(max(peak.Load(), sample[0].Value.Uint64()))
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}
