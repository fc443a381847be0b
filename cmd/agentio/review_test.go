package main

// Review of issue #42: reproduction through the command line.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider/providertest"
)

// TestReviewEvalGateMissingTarget: the baseline has model-a and model-b;
// the run compared with it has only model-a (model-b's recordings are
// missing). agentio eval -baseline exits 0 and never names model-b.
func TestReviewEvalGateMissingTarget(t *testing.T) {
	dir := t.TempDir()
	dataset := filepath.Join(dir, "cases.jsonl")
	if err := os.WriteFile(dataset, []byte(evalCases(40)), 0o644); err != nil {
		t.Fatal(err)
	}
	both, onlyA := filepath.Join(dir, "both"), filepath.Join(dir, "only-a")
	recordTarget(t, both, dataset, "model-a", providertest.Text(`{"total": 5}`))
	recordTarget(t, both, dataset, "model-b", providertest.Text(`{"total": 5}`))
	recordTarget(t, onlyA, dataset, "model-a", providertest.Text(`{"total": 5}`))
	base := filepath.Join(dir, "base.json")
	if _, errs, code := agentio(t, "", "eval", "-dataset", dataset, "-recordings", both, "-out", base); code != 0 {
		t.Fatal(errs)
	}
	out, errs, code := agentio(t, "", "eval", "-dataset", dataset, "-recordings", onlyA, "-baseline", base, "-markdown")
	t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	if code == 0 && !strings.Contains(out+errs, "model-b") {
		t.Errorf("model-b of the baseline is missing from the run: the gate passes (exit 0) and says nothing of it")
	}
}

// TestReviewEvalPartialBaseline: agentio eval writes a partial report on
// SIGINT (marked "partial": true). Given later as -baseline, it is taken
// as a whole one: the gate runs against the runs that finished and
// nothing says the baseline was partial.
func TestReviewEvalPartialBaseline(t *testing.T) {
	dir := t.TempDir()
	dataset := filepath.Join(dir, "cases.jsonl")
	if err := os.WriteFile(dataset, []byte(evalCases(40)), 0o644); err != nil {
		t.Fatal(err)
	}
	recs := filepath.Join(dir, "recs")
	recordTarget(t, recs, dataset, "model-a", providertest.Text(`{"total": 5}`))
	base := filepath.Join(dir, "base.json")
	if _, errs, code := agentio(t, "", "eval", "-dataset", dataset, "-recordings", recs, "-out", base); code != 0 {
		t.Fatal(errs)
	}
	// Make it the report an interrupted run writes: 3 runs finished, 37 not.
	var rep map[string]any
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	results := rep["results"].([]any)[:3]
	var rs []eval.CaseResult
	b, _ := json.Marshal(results)
	if err := json.Unmarshal(b, &rs); err != nil {
		t.Fatal(err)
	}
	partial := eval.NewReport(rs)
	partial.Partial, partial.NotRun = true, 37
	data, _ = json.Marshal(partial)
	if err := os.WriteFile(base, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := agentio(t, "", "eval", "-dataset", dataset, "-recordings", recs, "-baseline", base, "-markdown")
	t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	if !strings.Contains(strings.ToLower(out+errs), "partial") {
		t.Errorf("a partial baseline (3 of 40 runs) is used for the gate without a word")
	}
}
