package eval_test

import (
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Calls per valid output follow the rate here: check the rate
			// alone first, then both.
			v := eval.Compare(baseline, tt.current, &eval.CompareOptions{CallsMargin: -1})
			assert.Equal(t, tt.regressed, v.Regressed, "%+v", v)
			require.Len(t, v.Targets, 1)
			tv := v.Targets[0]
			assert.True(t, tv.InBaseline)
			assert.Less(t, tv.LowerBound, tv.BaselineRate)
			assert.Equal(t, tt.regressed, tv.CurrentRate < tv.LowerBound)
			assert.Equal(t, tt.regressed, eval.Compare(baseline, tt.current, nil).Regressed)
		})
	}
}

func TestCompareCalls(t *testing.T) {
	// report makes a report of runs that took calls[i] calls to a valid
	// output, 0 for a failed run (three calls).
	report := func(calls ...int) *eval.Report {
		var rs []eval.CaseResult
		for _, c := range calls {
			r := eval.CaseResult{Case: "c", Target: "m", Valid: c > 0, ValidFirst: c == 1, Calls: c, Reasks: max(c-1, 0)}
			if c == 0 { // failed after three calls
				r.Calls, r.Reasks, r.Class = 3, 2, enforce.OutcomeInvalid
			}
			rs = append(rs, r)
		}
		return eval.NewReport(rs)
	}
	// Valid: 10 of 10, 12 calls, 1.2 calls per valid output.
	base := report(1, 1, 1, 1, 1, 1, 1, 1, 1, 3)
	tests := []struct {
		name      string
		current   *eval.Report
		margin    float64
		regressed bool
	}{
		{"same", report(1, 1, 1, 1, 1, 1, 1, 1, 1, 3), 0, false},
		{"more calls for the same valid outputs", report(1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 0, 0), 0, true},
		{"within a wide margin", report(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 0), 1, false},
		{"check disabled", report(1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 0, 0), -1, false},
		{"nothing valid", report(0, 0, 0), -1, true}, // by the rate
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := eval.Compare(base, tt.current, &eval.CompareOptions{CallsMargin: tt.margin, Z: 3})
			assert.Equal(t, tt.regressed, v.Regressed, "%+v", v)
		})
	}
}

func TestCompareMissingTargets(t *testing.T) {
	cur := sample(1, 50, 0.5)
	v := eval.Compare(nil, cur, nil)
	assert.False(t, v.Regressed)
	require.Len(t, v.Targets, 1)
	assert.False(t, v.Targets[0].InBaseline)
	assert.Empty(t, eval.Compare(cur, nil, nil).Targets)
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
	md := eval.Compare(base, eval.NewReport(results), nil).Markdown()
	assert.Contains(t, md, "- **m regressed**: valid on first call ")
	assert.Contains(t, md, "- new: not in the baseline\n")
	md = eval.Compare(base, sample(3, 500, 0.92), nil).Markdown()
	assert.Equal(t, "- m: no regression (valid on first call 93.0%, baseline 92.8%, lower bound 90.2%)\n", md)
}
