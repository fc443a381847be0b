package main

// Review of issue #42: reproduction through the command line.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
