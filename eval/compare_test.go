package eval_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/eval"
)

// sample returns the report of n synthetic runs of target "m", each valid
// on the first call with probability rate (else valid after one re-ask),
// drawn from seed.
func sample(seed uint64, n int, rate float64) *eval.Report {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	results := make([]eval.CaseResult, n)
	for i := range results {
		r := eval.CaseResult{Case: "c", Target: "m", Valid: true, ValidFirst: true, Calls: 1}
		if rng.Float64() >= rate {
			r.ValidFirst, r.Reasks, r.Calls = false, 1, 2
		}
		results[i] = r
	}
	return eval.NewReport(results)
}

// compare is Compare with options that must be good.
func compare(t *testing.T, baseline, current *eval.Report, opts *eval.CompareOptions) eval.Verdict {
	t.Helper()
	v, err := eval.Compare(baseline, current, opts)
	require.NoError(t, err)
	return v
}

// firstOf returns the report of n runs of target "m", the first k valid
// on the first call, the others after one re-ask.
func firstOf(k, n int) *eval.Report {
	results := make([]eval.CaseResult, n)
	for i := range results {
		results[i] = eval.CaseResult{Case: "c", Target: "m", Valid: true, ValidFirst: i < k, Calls: 1}
		if i >= k {
			results[i].Reasks, results[i].Calls = 1, 2
		}
	}
	return eval.NewReport(results)
}

func TestCompareRegressionGate(t *testing.T) {
	baseline := sample(1, 500, 0.92)
	require.InDelta(t, 0.92, baseline.Targets[0].ValidFirstRate, 0.02, "the baseline is near its planted rate")
	tests := []struct {
		name      string
		current   *eval.Report
		regressed bool
	}{
		{"planted drop to 80%", sample(2, 500, 0.80), true},
		{"same rate, another seed", sample(3, 500, 0.92), false},
		{"same rate, a third seed", sample(4, 500, 0.92), false},
		{"improvement", sample(5, 500, 0.97), false},
		{"a drop to 85% on 20 cases is within chance", firstOf(17, 20), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Calls per valid output follow the rate here: check the rate
			// alone first, then both.
			v := compare(t, baseline, tt.current, &eval.CompareOptions{IgnoreCalls: true})
			assert.Equal(t, tt.regressed, v.Regressed, "%+v", v)
			require.Len(t, v.Targets, 1)
			tv := v.Targets[0]
			assert.True(t, tv.InBaseline)
			d := tv.ValidFirst
			assert.Equal(t, baseline.Targets[0].ValidFirstRate, d.Baseline)
			assert.Equal(t, tt.current.Targets[0].ValidFirstRate, d.Current)
			assert.Equal(t, 500, d.BaselineN)
			assert.Equal(t, tt.current.Targets[0].Cases, d.CurrentN)
			assert.Less(t, d.Low, d.Current-d.Baseline)
			assert.Greater(t, d.High, d.Current-d.Baseline)
			assert.Equal(t, tt.regressed, d.High < 0)
			assert.Equal(t, tt.regressed, compare(t, baseline, tt.current, nil).Regressed)
		})
	}
}

// TestNewcombeInterval checks the interval of the difference against
// Newcombe's (1998) own worked examples, Table II, method 10: 56/70 against
// 48/80 gives [0.0524, 0.3339], 9/10 against 3/10 gives [0.1705, 0.8090].
func TestNewcombeInterval(t *testing.T) {
	tests := []struct {
		x1, n1, x2, n2 int
		low, high      float64
	}{
		{56, 70, 48, 80, 0.0524, 0.3339},
		{9, 10, 3, 10, 0.1705, 0.8090},
		{6, 7, 2, 7, 0.0582, 0.8062},
		{5, 56, 0, 29, -0.0381, 0.1926},
	}
	for _, tt := range tests {
		cur := &eval.Report{Targets: []eval.TargetReport{{Name: "m", Cases: tt.n1, ValidFirst: tt.x1}}}
		base := &eval.Report{Targets: []eval.TargetReport{{Name: "m", Cases: tt.n2, ValidFirst: tt.x2}}}
		d := compare(t, base, cur, nil).Targets[0].ValidFirst
		assert.InDelta(t, tt.low, d.Low, 5e-4, "%d/%d - %d/%d", tt.x1, tt.n1, tt.x2, tt.n2)
		assert.InDelta(t, tt.high, d.High, 5e-4, "%d/%d - %d/%d", tt.x1, tt.n1, tt.x2, tt.n2)
	}
}

func TestCompareCalls(t *testing.T) {
	// report makes a report of runs that took calls[i] calls to a valid
	// output, 0 for a failed run (three calls). Runs of many calls stand
	// for a model that needs more re-asks while its first calls are as
	// good as the baseline's.
	report := func(calls ...int) *eval.Report {
		var rs []eval.CaseResult
		for _, c := range calls {
			r := eval.CaseResult{Case: "c", Target: "m", Valid: c > 0, ValidFirst: c == 1, Calls: c, Reasks: max(c-1, 0)}
			if c == 0 { // failed after three calls
				r.Calls, r.Reasks, r.Class = 3, 2, eval.Class(enforce.OutcomeInvalid)
			}
			rs = append(rs, r)
		}
		return eval.NewReport(rs)
	}
	// repeat returns n copies of calls.
	repeat := func(n int, calls ...int) []int {
		var out []int
		for range n {
			out = append(out, calls...)
		}
		return out
	}
	// Valid: 100 of 100, 120 calls, 1.2 calls per valid output.
	base := report(repeat(10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3)...)
	tests := []struct {
		name      string
		current   *eval.Report
		opts      eval.CompareOptions
		regressed bool
	}{
		{"same", report(repeat(10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3)...), eval.CompareOptions{}, false},
		{"more calls for the same valid outputs", report(repeat(10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5)...), eval.CompareOptions{}, true},
		{"a rise within chance", report(1, 1, 1, 1, 1, 1, 1, 1, 1, 5), eval.CompareOptions{}, false},
		{"within a wide margin", report(repeat(10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5)...), eval.CompareOptions{CallsMargin: 1}, false},
		{"check ignored", report(repeat(10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5)...), eval.CompareOptions{IgnoreCalls: true}, false},
		{"nothing valid", report(repeat(10, 0)...), eval.CompareOptions{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := compare(t, base, tt.current, &tt.opts)
			assert.Equal(t, tt.regressed, v.Regressed, "%+v", v)
			require.Len(t, v.Targets, 1)
			calls := v.Targets[0].ValidPerCall
			if tt.opts.IgnoreCalls {
				assert.Zero(t, calls)
				return
			}
			assert.Equal(t, tt.regressed, calls.Worse())
			assert.Equal(t, 120, calls.BaselineN)
			assert.Equal(t, tt.current.Targets[0].Calls, calls.CurrentN)
		})
	}
}

// TestCompareZeroMargin checks that a margin of zero tolerates no rise:
// with calls per valid output 1.2 against 1.0 on 1,000 cases each, zero
// flags and 25% does not.
func TestCompareZeroMargin(t *testing.T) {
	agg := func(cases, calls int) *eval.Report {
		return &eval.Report{Targets: []eval.TargetReport{{Name: "m", Cases: cases, ValidFirst: cases, Valid: cases, Calls: calls,
			ValidFirstRate: 1, CallsPerValid: float64(calls) / float64(cases)}}}
	}
	assert.True(t, compare(t, agg(1000, 1000), agg(1000, 1200), &eval.CompareOptions{}).Regressed)
	assert.False(t, compare(t, agg(1000, 1000), agg(1000, 1200), &eval.CompareOptions{CallsMargin: 0.25}).Regressed)
}

func TestCompareInvalidOptions(t *testing.T) {
	for _, o := range []eval.CompareOptions{
		{Level: 1}, {Level: -0.5}, {Level: 1.5}, {Level: math.NaN()},
		{CallsMargin: -0.1}, {CallsMargin: math.Inf(1)}, {CallsMargin: math.NaN()},
	} {
		v, err := eval.Compare(sample(1, 10, 0.5), sample(2, 10, 0.5), &o)
		assert.ErrorIs(t, err, eval.ErrInvalidOption, "%+v", o)
		assert.Zero(t, v)
	}
}

func TestCompareMissingTargets(t *testing.T) {
	cur := sample(1, 50, 0.5)
	v := compare(t, nil, cur, nil)
	assert.False(t, v.Regressed)
	require.Len(t, v.Targets, 1)
	assert.False(t, v.Targets[0].InBaseline)
	assert.Empty(t, compare(t, cur, nil, nil).Targets)
}

func TestWilson(t *testing.T) {
	tests := []struct {
		k, n         int
		lower, upper float64
	}{
		{460, 500, 0.8929, 0.9407},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{0, 0, 0, 1},
	}
	for _, tt := range tests {
		lo, hi := eval.Wilson(tt.k, tt.n, 1.96)
		assert.InDelta(t, tt.lower, lo, 5e-4, "%d/%d", tt.k, tt.n)
		assert.InDelta(t, tt.upper, hi, 5e-4, "%d/%d", tt.k, tt.n)
	}
}

func TestVerdictMarkdown(t *testing.T) {
	base := sample(1, 500, 0.92)
	results := sample(2, 500, 0.80).Results
	results = append(results, eval.CaseResult{Case: "c", Target: "new", Valid: true, ValidFirst: true, Calls: 1})
	md := compare(t, base, eval.NewReport(results), nil).Markdown()
	assert.Contains(t, md, "- **m regressed**: valid on first call fell: ")
	assert.Contains(t, md, "- new: not in the baseline\n")
	md = compare(t, base, sample(3, 500, 0.92), nil).Markdown()
	assert.Equal(t, "- m: no regression (valid on first call 93.0% of 500 cases against 92.8% of 500, difference +0.2 points (95% interval -3.0 to +3.4))\n", md)
}
