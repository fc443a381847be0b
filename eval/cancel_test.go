package eval_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	assert.Equal(t, []string{"a", "b"}, progressed)
	assert.Contains(t, rep.Markdown(), "**Partial report**: interrupted, 4 of 6 runs not run;")
	var page strings.Builder
	require.NoError(t, rep.HTML(&page))
	assert.Contains(t, page.String(), "<strong>Partial report</strong>: interrupted, 4 of 6 runs not run;")
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
