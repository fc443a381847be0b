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
// context's error. No cut-short run counts as a failure, and none is in
// the report's figures; one cut short after its first call is listed in
// Report.CutShort with its calls and tokens, so that what was paid for is
// accounted for. A partial report cannot be a baseline or be gated
// ([ErrPartialReport]).
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
// For each it takes Newcombe's hybrid score interval with continuity
// correction (his method 11) of the difference of the two proportions,
// current minus baseline, at the level of [CompareOptions] (95% by
// default), and flags a regression when the whole interval lies below
// zero. The interval combines the continuity-corrected Wilson score
// intervals of the two rates, so that it stays inside [-1, 1] and is never
// empty or zero-width at rates of 0 or 1 (where the Wald interval is: it
// sees no uncertainty in a run without failures). Without the correction
// (method 10) the check is too liberal where evaluations of good models
// sit: with a large baseline and a small current run at a rate of 0.95 or
// 0.99 it flags 5% to 9.4% of unchanged models. With it, as a decision,
// the interval is a one-sided test at no more than (1-level)/2: at most
// 2.5% of false flags per check at the default, at every rate from 0.5 to
// 0.99 and every pair of sizes computed below. A run without failures
// bounds the baseline's failure rate (below 0.5% for 1,000 cases), so
// that one failure in 20 cases against 1,000 of 1,000 is flagged. The
// verdict ([TargetComparison]) carries both rates, both sample sizes and the
// interval.
//
// A target of the baseline that the current report lacks, or ran without
// cases, is flagged: the gate does not pass on what it did not see.
// Reports whose counts no run can give are refused ([ErrInvalidReport]).
//
// Taking calls per valid output as the proportion of calls that gave a
// valid output is exact when every attempt of a run succeeds with the same
// probability: the likelihood of a run's calls is then that of as many
// independent trials. Cases of uneven difficulty make calls of one case
// alike, and the interval of that check somewhat too narrow.
//
// Figures. The probability that the first-call check flags an unchanged
// rate, computed exactly over every pair of outcomes by
// TestCompareFalseFlagExact, by baseline cases (rows) and current cases
// (columns); at rates 0.5 to 0.9 it stays between 0% and 2.35% likewise:
//
//	rate 0.95     10     20     50    200   1000
//	  20       0.45%  0.01%  0.00%  0.00%  0.00%
//	  50       1.24%  0.98%  0.36%  0.02%  0.00%
//	 200       2.03%  1.97%  1.86%  1.44%  0.99%
//	1000       1.22%  1.82%  2.31%  2.33%  2.04%
//
//	rate 0.99     10     20     50    200   1000
//	  20       0.01%  0.00%  0.00%  0.00%  0.00%
//	  50       0.26%  0.06%  0.00%  0.00%  0.00%
//	 200       1.65%  1.17%  0.63%  0.24%  0.00%
//	1000       0.69%  1.69%  2.26%  2.16%  1.30%
//
// From TestCompareSimulation (fixed seeds, 2,000 trials a cell; each run
// draws cases valid on the first call with the given rate, the others
// valid after one re-ask; the default options, both checks): the share of
// trials in which an unchanged rate is flagged,
//
//	rate 0.9      20     50    200   1000     rate 0.6      20     50    200   1000
//	  20        0.1%   0.1%   0.0%   0.0%       20        1.5%   1.6%   1.1%   1.2%
//	  50        1.2%   1.1%   0.7%   0.5%       50        1.2%   2.0%   1.8%   2.2%
//	 200        1.6%   2.2%   1.8%   1.6%      200        1.6%   2.1%   2.2%   2.4%
//	1000        1.8%   2.5%   2.6%   2.4%     1000        1.6%   2.7%   2.0%   1.9%
//
// and the share of trials in which a drop is flagged (its power), with the
// same number of cases in both runs:
//
//	drop              20     50    200    500   1000
//	0.92 to 0.80    6.5%  29.1%  93.0%   100%   100%
//	0.90 to 0.85    1.2%   5.8%  28.6%  62.4%  91.7%
//	0.60 to 0.50    7.7%  12.8%  47.5%  88.0%  99.3%
//
// A gate on 20 cases tells an unchanged model from a 12-point drop only
// one time in fifteen: choose the number of cases for the smallest drop
// that matters (200 for 12 points, 1,000 for 5).
//
// # Limits
//
// A run's latency is the time spent in its provider calls: the wait for
// [WithRateLimit]'s slots is measured apart (RateLimitWait), and a
// rate-limited target that streams is still streamed from. Runs
// replayed from recordings (package provider/record) have the latency of a
// replay, not of the model.
package eval
