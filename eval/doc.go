// Package eval evaluates an output contract across models: it runs a
// dataset of cases against several targets (models behind providers),
// measures how often and at what cost each returns schema-valid JSON, and
// holds a run against a baseline to catch regressions.
//
//	cases, err := eval.LoadDataset("cases.jsonl")
//	report, err := eval.Run(ctx, cases, []eval.Target{{Name: "model-a", Provider: pa}, {Name: "model-b", Provider: pb}})
//	fmt.Print(report.Markdown())
//	if eval.Compare(baseline, report, nil).Regressed { ... }
//
// # Dataset
//
// A dataset is JSONL, one case per line ([ReadDataset]):
//
//	{"id": "a1", "schema": {"type": "object", ...}, "prompt": "Review the diff.", "expected": {...}}
//	{"id": "b1", "blueprint": "agents/reviewer/agent.json", "parameters": {"diff": "..."}}
//
// # Measures
//
// Each case against each target gives a [CaseResult]: valid on the first
// call, valid after k re-asks, calls and tokens, coercions and repairs,
// each attempt's outcome, the failure class (enforce's attempt outcomes),
// violations by keyword and path, latency, and agreement with the expected
// value. [NewReport]
// aggregates them per target ([TargetReport]). [Report.Markdown] renders
// a summary for a pull request, [Report.HTML] one self-contained page with
// charts and every case's attempts.
//
// # Regression gate
//
// [Compare] flags a target whose valid-on-first-call rate falls below the
// lower bound of the baseline's 95% Wilson score interval, or whose calls
// per valid output rise above the baseline's by a margin.
//
// # Limits
//
// Latency is wall time and includes any wait of the rate limit. Runs
// replayed from recordings (package provider/record) have the latency of a
// replay, not of the model.
package eval
