package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/record"
)

const evalDataset = `{"id": "sum", "schema": {"type": "object", "properties": {"total": {"type": "integer"}}, "required": ["total"]}, "prompt": "Add 2 and 3.", "expected": {"total": 5}}
`

// evalCases returns a dataset of n cases that ask the same question as
// evalDataset's: a sample large enough for the regression gate to judge.
func evalCases(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id": "sum-%d", "schema": {"type": "object", "properties": {"total": {"type": "integer"}}, "required": ["total"]}, "prompt": "Add 2 and 3.", "expected": {"total": 5}}`+"\n", i)
	}
	return b.String()
}

// recordTarget records, under dir/name, the replies of a model that
// answers each case of the dataset with replies, as eval would ask it.
func recordTarget(t *testing.T, dir, dataset, name string, replies ...providertest.Reply) {
	t.Helper()
	cases, err := eval.LoadDataset(dataset)
	require.NoError(t, err)
	var script []providertest.Reply
	for range cases {
		script = append(script, replies...)
	}
	p, err := record.New(providertest.New(script...), filepath.Join(dir, name), record.Record, &record.Options{Model: name})
	require.NoError(t, err)
	_, err = eval.Run(context.Background(), cases, []eval.Target{{Name: name, Provider: p}}, eval.WithConcurrency(1))
	require.NoError(t, err)
}

func TestEval(t *testing.T) {
	dir := t.TempDir()
	dataset := filepath.Join(dir, "cases.jsonl")
	require.NoError(t, os.WriteFile(dataset, []byte(evalCases(40)), 0o644))
	good, bad := filepath.Join(dir, "good"), filepath.Join(dir, "bad")
	recordTarget(t, good, dataset, "model-a", providertest.Text(`{"total": 5}`))
	recordTarget(t, good, dataset, "model-b", providertest.Text(`{"total": 6}`))
	recordTarget(t, bad, dataset, "model-a", providertest.Text(`{"total": "5"}`), providertest.Text(`{"total": 5}`))
	recordTarget(t, bad, dataset, "model-b", providertest.Text(`{"total": 6}`))

	base := filepath.Join(dir, "base.json")
	out, errs, code := agentio(t, "", "eval", "-dataset", dataset, "-recordings", good, "-out", base)
	require.Equal(t, 0, code, errs)
	assert.Empty(t, out)
	assert.Contains(t, errs, "model-a: 40 cases, valid on first call 100.0%")
	var rep eval.Report
	data, err := os.ReadFile(base)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep))
	require.Len(t, rep.Targets, 2)
	assert.Equal(t, "model-a", rep.Targets[0].Name)
	assert.Equal(t, 40, rep.Targets[0].Agreed)
	assert.Equal(t, 0, rep.Targets[1].Agreed, "model-b adds wrong")

	out, errs, code = agentio(t, "", "eval", "-dataset", dataset, "-recordings", good, "-baseline", base)
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, `"valid_first_rate": 1`, "the JSON report on stdout")
	assert.NotContains(t, errs, "regression")

	page := filepath.Join(dir, "report.html")
	out, errs, code = agentio(t, "", "eval", "-dataset", dataset, "-recordings", bad, "-baseline", base, "-markdown", "-html", page)
	assert.Equal(t, 1, code, errs)
	assert.Contains(t, out, "| model-a | 40 | 0.0% [0.0%, 8.8%] | 100.0% [91.2%, 100.0%] | 2.00 |")
	assert.Contains(t, out, "`type $.total` 40")
	assert.NotContains(t, out, "p50", "a replay's latency is not shown")
	assert.Contains(t, out, "- **model-a regressed**: valid on first call fell: 0.0% of 40 cases against 100.0% of 40, difference -100.0 points (95% interval")
	assert.Contains(t, out, "- model-b: no regression")
	assert.Contains(t, errs, "model-a: regression: valid on first call fell: 0.0% of 40 cases against 100.0% of 40")
	assert.NotContains(t, errs, "model-b: regression")
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(html), "<!DOCTYPE html>"))
	assert.Contains(t, string(html), `data-target="model-a" data-metric="valid_rate" data-value="1"`)
	assert.Contains(t, string(html), `data-target="model-a" data-metric="violations" data-key="type $.total" data-value="40"`)
	assert.Contains(t, string(html), "<li>attempt 1: invalid; <code>type $.total</code></li>\n<li>attempt 2: valid</li>")
	assert.Contains(t, string(html), "<h2>Against the baseline</h2>", "the page compares with the baseline")
	assert.Contains(t, string(html), `<td class="bad">regressed</td>`)
	assert.NotContains(t, string(html), "Slowest runs", "a replay's latency is not shown")
}

func TestEvalErrors(t *testing.T) {
	dir := t.TempDir()
	dataset := filepath.Join(dir, "cases.jsonl")
	require.NoError(t, os.WriteFile(dataset, []byte(evalDataset), 0o644))
	badDataset := filepath.Join(dir, "bad.jsonl")
	require.NoError(t, os.WriteFile(badDataset, []byte(evalDataset+`{"id": "x"}`+"\n"), 0o644))
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	missing := filepath.Join(dir, "missing")
	require.NoError(t, os.MkdirAll(filepath.Join(missing, "model-a"), 0o755))

	tests := []struct {
		name string
		args []string
		code int
		errs string
	}{
		{"no dataset", []string{"-recordings", empty}, 2, "eval needs -dataset FILE and -recordings DIR"},
		{"bad dataset", []string{"-dataset", badDataset, "-recordings", empty}, 2, "line 2: schema"},
		{"no targets", []string{"-dataset", dataset, "-recordings", empty}, 2, "no recording directories"},
		{"bad baseline", []string{"-dataset", dataset, "-recordings", missing, "-baseline", dataset}, 2, "not an eval report"},
		// A replay without a recording is a failed run, not an I/O error.
		{"missing recording", []string{"-dataset", dataset, "-recordings", missing}, 0, "model-a: 1 cases, valid on first call 0.0%, valid 0.0%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := agentio(t, "", append([]string{"eval"}, tt.args...)...)
			assert.Equal(t, tt.code, code, errs)
			assert.Contains(t, errs, tt.errs)
		})
	}
}

func TestProgressBar(t *testing.T) {
	tests := []struct {
		p    eval.Progress
		want string
	}{
		{eval.Progress{Done: 0, Total: 10}, "[" + strings.Repeat("·", 30) + "] 0/10 runs, 0 valid"},
		{eval.Progress{Done: 5, Total: 10, Valid: 4}, "[" + strings.Repeat("#", 15) + strings.Repeat("·", 15) + "] 5/10 runs, 4 valid"},
		{eval.Progress{Done: 10, Total: 10, Valid: 10}, "[" + strings.Repeat("#", 30) + "] 10/10 runs, 10 valid"},
		{eval.Progress{Done: 1, Total: 3}, "[" + strings.Repeat("#", 10) + strings.Repeat("·", 20) + "] 1/3 runs, 0 valid"},
		{eval.Progress{}, "[" + strings.Repeat("·", 30) + "] 0/0 runs, 0 valid"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, progressBar(tt.p))
	}
}

// TestEvalLive runs a model live beside the recorded targets: its calls
// are recorded under its name, and a second eval replays them without
// calling it (its script is then empty: a call would fail the case).
func TestEvalLive(t *testing.T) {
	dir := t.TempDir()
	dataset := filepath.Join(dir, "cases.jsonl")
	require.NoError(t, os.WriteFile(dataset, []byte(evalDataset), 0o644))
	recs := filepath.Join(dir, "recordings")
	recordTarget(t, recs, dataset, "model-a", providertest.Text(`{"total": 5}`))
	script := filepath.Join(dir, "script.json")
	require.NoError(t, os.WriteFile(script, []byte(`["{\"total\": \"5\"}", "{\"total\": 5}"]`), 0o644))

	out, errs, code := agentio(t, "", "eval", "-dataset", dataset, "-recordings", recs,
		"-provider", "script", "-script", script, "-model", "local", "-markdown")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, errs, "model-a: 1 cases, valid on first call 100.0%")
	assert.Contains(t, errs, "local: 1 cases, valid on first call 0.0%, valid 100.0%, 2.00 calls per valid output")
	assert.Contains(t, out, "p50", "a model was called: latency is shown")
	_, err := os.Stat(filepath.Join(recs, "local", "capabilities.json"))
	require.NoError(t, err, "the live target's calls were recorded under its name")

	require.NoError(t, os.WriteFile(script, []byte(`[]`), 0o644))
	_, errs, code = agentio(t, "", "eval", "-dataset", dataset, "-recordings", recs,
		"-provider", "script", "-script", script, "-model", "local")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, errs, "local: 1 cases, valid on first call 0.0%, valid 100.0%, 2.00 calls per valid output", "replayed, not called")

	// A live model alone, with nothing recorded.
	require.NoError(t, os.WriteFile(script, []byte(`["{\"total\": 5}"]`), 0o644))
	_, errs, code = agentio(t, "", "eval", "-dataset", dataset, "-provider", "script", "-script", script)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, errs, "script: 1 cases, valid on first call 100.0%")
}

// TestEvalInterrupted interrupts agentio eval (SIGINT) while a model
// called live is answering its third case: the report of the two cases
// that finished is written, to -out, -html and as Markdown, marked
// partial, and the command says so.
func TestEvalInterrupted(t *testing.T) {
	dir := t.TempDir()
	dataset := filepath.Join(dir, "cases.jsonl")
	require.NoError(t, os.WriteFile(dataset, []byte(evalCases(5)), 0o644))
	reply := `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{\"total\": 5}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`
	third, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so that the server sees the client go
		if calls.Add(1) == 3 {
			close(third)
			select { // the interrupted client goes away
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, reply)
	}))
	defer srv.Close()
	defer close(release)

	out, page := filepath.Join(dir, "report.json"), filepath.Join(dir, "report.html")
	cmd := exec.Command(binary, "eval", "-dataset", dataset, "-provider", "openai", "-model", "m",
		"-concurrency", "1", "-out", out, "-html", page, "-markdown")
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL="+srv.URL+"/v1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	select {
	case <-third:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("no third call; stderr: %s", stderr.String())
	}
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	err := cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "stderr: %s", stderr.String())
	assert.Equal(t, 130, ee.ExitCode(), stderr.String())
	assert.Contains(t, stderr.String(), "interrupted: the report is partial, 3 of 5 runs not run")

	data, err := os.ReadFile(out)
	require.NoError(t, err, "the JSON report is written")
	var rep eval.Report
	require.NoError(t, json.Unmarshal(data, &rep))
	assert.True(t, rep.Partial)
	assert.Equal(t, 3, rep.NotRun)
	require.Len(t, rep.Results, 2)
	assert.True(t, rep.Results[0].Valid)
	html, err := os.ReadFile(page)
	require.NoError(t, err, "the HTML page is written")
	assert.Contains(t, string(html), "Partial report")
	assert.Contains(t, stdout.String(), "Partial report")
}

// TestEvalGateMissingTarget: the baseline has model-a and model-b; the run
// compared with it has only model-a (model-b's recordings are missing).
// The gate fails (exit 1) and names model-b.
func TestEvalGateMissingTarget(t *testing.T) {
	dir := t.TempDir()
	dataset := filepath.Join(dir, "cases.jsonl")
	require.NoError(t, os.WriteFile(dataset, []byte(evalCases(40)), 0o644))
	both, onlyA := filepath.Join(dir, "both"), filepath.Join(dir, "only-a")
	recordTarget(t, both, dataset, "model-a", providertest.Text(`{"total": 5}`))
	recordTarget(t, both, dataset, "model-b", providertest.Text(`{"total": 5}`))
	recordTarget(t, onlyA, dataset, "model-a", providertest.Text(`{"total": 5}`))
	base := filepath.Join(dir, "base.json")
	_, errs, code := agentio(t, "", "eval", "-dataset", dataset, "-recordings", both, "-out", base)
	require.Equal(t, 0, code, errs)
	out, errs, code := agentio(t, "", "eval", "-dataset", dataset, "-recordings", onlyA, "-baseline", base, "-markdown")
	assert.Equal(t, 1, code, errs)
	assert.Contains(t, errs, "model-b: regression: not in the current run (40 cases in the baseline)")
	assert.Contains(t, out, "- **model-b regressed**: not in the current run (40 cases in the baseline)")
}

// TestEvalPartialBaseline: a partial report (an interrupted run's, marked
// "partial") given as -baseline is refused before anything runs, with a
// message that says so.
func TestEvalPartialBaseline(t *testing.T) {
	dir := t.TempDir()
	dataset := filepath.Join(dir, "cases.jsonl")
	require.NoError(t, os.WriteFile(dataset, []byte(evalCases(40)), 0o644))
	recs := filepath.Join(dir, "recs")
	recordTarget(t, recs, dataset, "model-a", providertest.Text(`{"total": 5}`))
	base := filepath.Join(dir, "base.json")
	_, errs, code := agentio(t, "", "eval", "-dataset", dataset, "-recordings", recs, "-out", base)
	require.Equal(t, 0, code, errs)
	data, err := os.ReadFile(base)
	require.NoError(t, err)
	var whole eval.Report
	require.NoError(t, json.Unmarshal(data, &whole))
	partial := eval.NewReport(whole.Results[:3]) // 3 runs finished, 37 not
	partial.Partial, partial.NotRun = true, 37
	data, err = json.Marshal(partial)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(base, data, 0o644))
	out, errs, code := agentio(t, "", "eval", "-dataset", dataset, "-recordings", recs, "-baseline", base, "-markdown")
	assert.NotZero(t, code)
	assert.NotEqual(t, 1, code, "a refused baseline is no regression")
	assert.Contains(t, errs, "base.json: eval: partial report: 37 of 40 runs not run")
	assert.Empty(t, out)
}
