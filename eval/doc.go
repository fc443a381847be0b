// Package eval evaluates an output contract across models: it runs a
// dataset of cases against several targets (models behind providers),
// measures how often and at what cost each returns schema-valid JSON, and
// holds a run against a baseline to catch regressions.
//
//	cases, err := eval.LoadDataset("cases.jsonl")
//	report, err := eval.Run(ctx, cases, []eval.Target{{Name: "model-a", Provider: pa}, {Name: "model-b", Provider: pb}})
//	fmt.Print(report.Markdown())
//	verdict, err := eval.Compare(baseline, report, nil)
//	if verdict.Regressed { ... }
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
// each attempt's outcome, the failure class ([Class]: the last attempt's
// outcome, or [ClassSetup] for a run that could not start), violations by
// keyword and path, latency (the model's calls only) and the wait for the
// rate limit, and agreement with the expected value. [NewReport]
// aggregates them per target ([TargetReport]). [Report.Markdown] renders
// a summary for a pull request, [Report.HTML] one self-contained page with
// charts and every case's attempts, [Report.HTMLWith] the same without
// latency for a replay and with the comparison against a baseline. Each
// rate is shown with its 95% Wilson score interval.
//
// # Interruption
//
// When [Run]'s context ends, the runs under way are cut short and no more
// start; Run returns the report of the runs that finished, with
// Report.Partial set and Report.NotRun counting the others, beside the
// context's error. Nothing paid for is thrown away, and no cut-short run
// counts as a failure.
//
// # Regression gate
//
// [Compare] holds a target against its baseline with two checks, each a
// two-sample comparison that counts both runs' sizes:
//
//   - the valid-on-first-call rate: runs valid on the first call out of
//     cases, in each run;
//   - calls per valid output, through its inverse, valid outputs per
//     call: valid outputs out of calls, in each run, the baseline's
//     divided by 1+CallsMargin (0 by default: no rise is tolerated).
//
// For each it takes Newcombe's hybrid score interval (his method 10) of
// the difference of the two proportions, current minus baseline, at the
// level of [CompareOptions] (95% by default), and flags a regression when
// the whole interval lies below zero. The interval combines the Wilson
// score intervals of the two rates, so that it stays inside [-1, 1], is
// never empty or zero-width at rates of 0 or 1 (where the Wald interval
// is, and flags the first failure of a run that had none), and keeps close
// to its stated coverage down to a few dozen cases; a one-sided
// two-proportion z test would do as well on large samples but is too
// liberal on small ones near 0 or 1, where evaluations of good models sit.
// As a decision, the interval is a one-sided test at (1-level)/2: 2.5% of
// false flags per check at the default. The verdict ([TargetVerdict])
// carries both rates, both sample sizes and the interval.
//
// Taking calls per valid output as the proportion of calls that gave a
// valid output is exact when every attempt of a run succeeds with the same
// probability: the likelihood of a run's calls is then that of as many
// independent trials. Cases of uneven difficulty make calls of one case
// alike, and the interval of that check somewhat too narrow.
//
// Figures, from TestCompareSimulation (fixed seeds, 2,000 trials a cell;
// each run draws cases valid on the first call with the given rate, the
// others valid after one re-ask; the default options, both checks): the
// share of trials in which an unchanged rate is flagged, by baseline cases
// (rows) and current cases (columns):
//
//	rate 0.9      20     50    200   1000     rate 0.6      20     50    200   1000
//	  20        0.7%   0.5%   0.1%   0.0%       20        2.3%   2.9%   2.2%   2.0%
//	  50        3.2%   2.1%   1.7%   1.1%       50        2.5%   3.5%   2.5%   3.1%
//	 200        2.9%   3.4%   2.5%   2.1%      200        2.6%   2.8%   2.5%   2.6%
//	1000        3.7%   3.2%   3.0%   2.6%     1000        2.5%   3.5%   2.5%   2.1%
//
// and the share of trials in which a drop is flagged (its power), with the
// same number of cases in both runs:
//
//	drop              20     50    200    500   1000
//	0.92 to 0.80   14.0%  38.7%  94.5%   100%   100%
//	0.90 to 0.85    3.6%   9.6%  32.5%  65.0%  92.3%
//	0.60 to 0.50    8.7%  18.2%  52.0%  89.0%  99.4%
//
// A gate on 20 cases tells an unchanged model from a 12-point drop only
// one time in seven: choose the number of cases for the smallest drop that
// matters (200 for 12 points, 1,000 for 5).
//
// # Limits
//
// A run's latency is the time spent in its provider calls: the wait for
// [WithRateLimit]'s slots is measured apart (RateLimitWait), and a
// rate-limited target that streams is still streamed from. Runs
// replayed from recordings (package provider/record) have the latency of a
// replay, not of the model.
package eval
