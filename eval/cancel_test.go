package eval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider"
)

// TestRunCancelledKeepsResults: the run is cancelled during its third
// call, one run at a time. The two runs that finished are kept in a report
// marked partial, beside the context's error; the interrupted run and the
// three never started count as not run.
func TestRunCancelledKeepsResults(t *testing.T) {
	cases := []eval.Case{inline("a", ""), inline("b", ""), inline("c", ""), inline("d", ""), inline("e", ""), inline("f", "")}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int32
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		if calls.Add(1) == 3 {
			cancel()
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return &provider.Response{Text: `{"n": 1}`, StopReason: provider.StopEnd}, nil
	})
	var progressed []string
	rep, err := eval.Run(ctx, cases, []eval.Target{{Name: "m", Provider: p}}, eval.WithConcurrency(1),
		eval.WithProgress(func(pr eval.Progress) { progressed = append(progressed, pr.Last.Case) }))
	require.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, rep, "the report of what finished comes with the error")
	assert.True(t, rep.Partial)
	assert.Equal(t, 4, rep.NotRun)
	require.Len(t, rep.Results, 2)
	assert.Equal(t, "a", rep.Results[0].Case)
	assert.Equal(t, "b", rep.Results[1].Case)
	tr := rep.Target("m")
	require.NotNil(t, tr)
	assert.Equal(t, 2, tr.Cases)
	assert.Equal(t, 2, tr.Valid, "the interrupted run is not counted as a failure")
	require.Len(t, rep.CutShort, 1, "the interrupted run made its call")
	assert.Equal(t, "c", rep.CutShort[0].Case)
	assert.Equal(t, []string{"a", "b"}, progressed)
	assert.Contains(t, rep.Markdown(), "**Partial report**: interrupted, 4 of 6 runs not run (1 cut short after 1 call, 0 tokens, counted in no figure);")
	var page strings.Builder
	require.NoError(t, rep.HTML(&page))
	assert.Contains(t, page.String(), "<strong>Partial report</strong>: interrupted, 4 of 6 runs not run (1 cut short after 1 call, 0 tokens, counted in no figure);")
}

// TestRunCancelledBeforeStart: a context that has ended before Run gives a
// partial report with nothing run.
func TestRunCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		t.Error("no call after the context ended")
		return nil, ctx.Err()
	})
	rep, err := eval.Run(ctx, []eval.Case{inline("a", ""), inline("b", "")}, []eval.Target{{Name: "m", Provider: p}})
	require.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, rep)
	assert.True(t, rep.Partial)
	assert.Equal(t, 2, rep.NotRun)
	assert.Empty(t, rep.Results)
}

// TestRunKeepsCutShortCalls: a run whose first call was made and paid
// for (an invalid reply, 500 tokens) and which the end of the context cut
// before its re-ask is not a result, but its call and tokens are kept in
// Report.CutShort.
func TestRunKeepsCutShortCalls(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		cancel() // interrupted while the model answers
		return &provider.Response{Text: `{"n": "not a number"}`, StopReason: provider.StopEnd,
			Usage: provider.Usage{InputTokens: 250, OutputTokens: 250, TotalTokens: 500}}, nil
	})
	rep, err := eval.Run(ctx, []eval.Case{inline("a", ""), inline("b", "")}, []eval.Target{{Name: "m", Provider: p}}, eval.WithConcurrency(1))
	require.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, rep)
	assert.True(t, rep.Partial)
	assert.Equal(t, 2, rep.NotRun)
	assert.Empty(t, rep.Results)
	require.Len(t, rep.CutShort, 1, "b never started: nothing paid for")
	cut := rep.CutShort[0]
	assert.Equal(t, "a", cut.Case)
	assert.Equal(t, 1, cut.Calls)
	assert.Equal(t, 500, cut.Tokens)
	assert.False(t, cut.Valid)
	assert.Empty(t, cut.Class, "a run cut short is no failure")
	data, err := json.Marshal(rep)
	require.NoError(t, err)
	var back eval.Report
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Equal(t, rep.CutShort, back.CutShort)
	assert.Contains(t, rep.Markdown(), "**Partial report**: interrupted, 2 of 2 runs not run (1 cut short after 1 call, 500 tokens, counted in no figure);")
}

// TestRunCancelledAsLastRunEnds: when the context ends as the last run
// returns its valid output, nothing is missing: the report is whole and
// comes without an error.
func TestRunCancelledAsLastRunEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int32
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		if calls.Add(1) == 2 {
			cancel()
		}
		return &provider.Response{Text: `{"n": 1}`, StopReason: provider.StopEnd}, nil
	})
	rep, err := eval.Run(ctx, []eval.Case{inline("a", ""), inline("b", "")}, []eval.Target{{Name: "m", Provider: p}}, eval.WithConcurrency(1))
	require.NoError(t, err)
	assert.False(t, rep.Partial)
	assert.Zero(t, rep.NotRun)
	assert.Len(t, rep.Results, 2)
	assert.Empty(t, rep.CutShort)
}

// TestRunCancelNoLeak: Run cancelled mid-way, with concurrency, a rate
// limit and two targets, leaves no goroutine behind and counts each run
// once, as a result or as not run.
func TestRunCancelNoLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	var cases []eval.Case
	for i := range 40 {
		cases = append(cases, inline(fmt.Sprint("c", i), ""))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int32
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		if n.Add(1) > 10 {
			cancel()
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return &provider.Response{Text: `{"n": 1}`, StopReason: provider.StopEnd}, nil
	})
	rep, err := eval.Run(ctx, cases, []eval.Target{{Name: "a", Provider: p}, {Name: "b", Provider: p}},
		eval.WithConcurrency(8), eval.WithRateLimit(1000))
	require.ErrorIs(t, err, context.Canceled)
	// A worker has done its last work when Run returns, but may not yet
	// have run past its deferred wg.Done to its end: yield to it, for a
	// bounded time (a goroutine still blocked in Run's work never ends).
	for deadline := time.Now().Add(time.Second); runtime.NumGoroutine() > before && time.Now().Before(deadline); {
		runtime.Gosched()
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "every goroutine Run started has ended")
	seen := map[string]bool{}
	for _, r := range rep.Results {
		k := r.Case + "/" + r.Target
		assert.False(t, seen[k], "%s counted twice", k)
		seen[k] = true
	}
	assert.Equal(t, 80, len(rep.Results)+rep.NotRun)
}

// TestRunCancelDuringQuoteCheck: a case with a quote_in_input invariant,
// a 200 KB input and a reply whose quote repeats, 1,000 times, a part
// found mostly inside words. Run, its context ending 100 ms in, returns
// soon after: the check is linear, and a cut-short run is not waited for.
func TestRunCancelDuringQuoteCheck(t *testing.T) {
	var b strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&b, "station%d ", i%97)
	}
	b.WriteString(strings.Repeat("tion| ", 1000))
	reply, err := json.Marshal(map[string]any{"q": "tion" + strings.Repeat(" ... tion", 999)})
	require.NoError(t, err)
	c := eval.Case{ID: "big", Schema: []byte(`{"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}`),
		Prompt: b.String(), Invariants: []crosscheck.Invariant{{Kind: crosscheck.QuoteInInput, Values: "$.q"}}}
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: string(reply), StopReason: provider.StopEnd}, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, _ = eval.Run(ctx, []eval.Case{c}, []eval.Target{{Name: "m", Provider: p}})
	assert.Less(t, time.Since(begin), time.Second)
}
