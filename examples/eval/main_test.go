package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/record"
)

// TestOutput runs the example as main does and checks what it prints
// against testdata/output.golden (go test ./examples/eval -update
// rewrites it).
func TestOutput(t *testing.T) {
	golden.CheckOutput(t, "output", func(w io.Writer) error { return run(context.Background(), w, "") })
}

// TestHTML writes the page the README shows: the report of both models,
// without latency (a replay's), and model-b held against model-a.
func TestHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "report.html")
	require.NoError(t, run(context.Background(), io.Discard, page))
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	s := string(data)
	assert.Contains(t, s, "<h2>Against the baseline</h2>")
	assert.Contains(t, s, `<td class="bad">regressed</td>`)
	assert.NotContains(t, s, "Slowest runs")
	assert.Contains(t, s, `data-target="model-b" data-metric="cases" data-value="220"`)
}

// TestOutputStable checks that the report does not depend on how many
// runs go at once, so on the order in which eval.Run's workers finish.
func TestOutputStable(t *testing.T) {
	cases, err := eval.LoadDataset(filepath.Join("testdata", "cases.jsonl"))
	require.NoError(t, err)
	targets, err := replays("testdata")
	require.NoError(t, err)
	var first string
	for _, n := range []int{1, 2, 8} {
		report, err := eval.Run(context.Background(), cases, targets, eval.WithConcurrency(n))
		require.NoError(t, err)
		got := report.MarkdownWith(replayed)
		if first == "" {
			first = got
			continue
		}
		assert.Equal(t, first, got, "concurrency %d", n)
	}
}

// TestReplayComplete checks the dataset's size and that every call of
// every case, re-asks included, is answered from the recordings: no
// replay misses, and each run either ends valid or fails as the model did
// (invalid, refused), never on a provider error.
func TestReplayComplete(t *testing.T) {
	cases, err := eval.LoadDataset(filepath.Join("testdata", "cases.jsonl"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(cases), 200)
	withExpected := 0
	for _, c := range cases {
		if c.Expected != nil {
			withExpected++
		}
	}
	assert.Greater(t, withExpected, len(cases)/2, "most cases have an expected value")

	targets, err := replays("testdata")
	require.NoError(t, err)
	var calls, misses atomic.Int64
	for i := range targets {
		p := targets[i].Provider
		targets[i].Provider = provider.WithCapabilities(provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
			calls.Add(1)
			resp, err := p.Generate(ctx, req)
			if errors.Is(err, record.ErrMiss) {
				misses.Add(1)
			}
			return resp, err
		}), p.Capabilities())
	}
	report, err := eval.Run(context.Background(), cases, targets)
	require.NoError(t, err)
	assert.Zero(t, misses.Load(), "replay misses")
	require.Len(t, report.Results, 2*len(cases))
	sum := 0
	for _, r := range report.Results {
		sum += r.Calls
		assert.NotEqual(t, eval.Class(enforce.OutcomeProviderError), r.Class, "%s on %s: %s", r.Case, r.Target, r.Error)
		assert.NotEqual(t, eval.ClassSetup, r.Class, "%s on %s: %s", r.Case, r.Target, r.Error)
	}
	assert.Equal(t, int64(sum), calls.Load())
	a, b := report.Target("model-a"), report.Target("model-b")
	require.NotNil(t, a)
	require.NotNil(t, b)
	assert.Greater(t, a.ValidFirstRate, b.ValidFirstRate)
}
