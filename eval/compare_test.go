package eval_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider"
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
func compare(t *testing.T, baseline, current *eval.Report, opts *eval.CompareOptions) eval.Comparison {
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
// Newcombe's (1998) own worked examples, Table II, method 11 (score
// intervals with continuity correction): 56/70 against 48/80 gives
// [0.0428, 0.3422], 9/10 against 3/10 gives [0.1013, 0.8387].
func TestNewcombeInterval(t *testing.T) {
	tests := []struct {
		x1, n1, x2, n2 int
		low, high      float64
	}{
		{56, 70, 48, 80, 0.0428, 0.3422},
		{9, 10, 3, 10, 0.1013, 0.8387},
		{5, 56, 0, 29, -0.0667, 0.2037},
		{0, 10, 0, 20, -0.2005, 0.3445},
		{0, 10, 0, 10, -0.3445, 0.3445},
		{10, 10, 0, 20, 0.6014, 1},
		{10, 10, 0, 10, 0.5128, 1},
	}
	for _, tt := range tests {
		d := compare(t, firstOnly(tt.x2, tt.n2), firstOnly(tt.x1, tt.n1), &eval.CompareOptions{IgnoreCalls: true}).Targets[0].ValidFirst
		assert.InDelta(t, tt.low, d.Low, 6e-5, "%d/%d - %d/%d", tt.x1, tt.n1, tt.x2, tt.n2)
		assert.InDelta(t, tt.high, d.High, 6e-5, "%d/%d - %d/%d", tt.x1, tt.n1, tt.x2, tt.n2)
	}
}

// firstOnly is a report of one target "m" with x of n valid on the first
// call, every case valid: one call each when valid first, two else.
func firstOnly(x, n int) *eval.Report {
	return &eval.Report{Targets: []eval.TargetReport{{Name: "m", Cases: n, ValidFirst: x, Valid: n, Calls: 2*n - x}}}
}

// refWilsonCC computes the continuity-corrected Wilson interval apart from
// the closed form Compare uses: by bisection, the proportions p whose
// score test with continuity correction, |x/n - p| - 1/(2n) <= z
// sqrt(p(1-p)/n), accepts x of n.
func refWilsonCC(x, n int, z float64) (lo, hi float64) {
	ph, nf := float64(x)/float64(n), float64(n)
	accepted := func(p float64) bool { return math.Abs(ph-p)-1/(2*nf) <= z*math.Sqrt(p*(1-p)/nf) }
	lo, hi = 0, 1
	if x > 0 {
		a, b := 0.0, ph // a rejected, b accepted
		for range 100 {
			if m := (a + b) / 2; accepted(m) {
				b = m
			} else {
				a = m
			}
		}
		lo = b
	}
	if x < n {
		a, b := ph, 1.0 // a accepted, b rejected
		for range 100 {
			if m := (a + b) / 2; accepted(m) {
				a = m
			} else {
				b = m
			}
		}
		hi = a
	}
	return lo, hi
}

// refNewcombe is Newcombe's method 11 for p1 - scale*p2 from refWilsonCC.
func refNewcombe(x1, n1, x2, n2 int, scale, z float64) (float64, float64) {
	p1, p2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	l1, u1 := refWilsonCC(x1, n1, z)
	l2, u2 := refWilsonCC(x2, n2, z)
	d := p1 - scale*p2
	return d - math.Sqrt((p1-l1)*(p1-l1)+scale*scale*(u2-p2)*(u2-p2)), d + math.Sqrt((u1-p1)*(u1-p1)+scale*scale*(p2-l2)*(p2-l2))
}

// TestNewcombeIntervalGrid holds the first-call interval to the
// reference over a grid with 0 of n, n of n and samples of one, at three
// levels, and checks that it lies in [-1, 1] and decides as the
// reference does.
func TestNewcombeIntervalGrid(t *testing.T) {
	for _, level := range []float64{0.9, 0.95, 0.99} {
		z := math.Sqrt2 * math.Erfinv(level)
		for _, n1 := range []int{1, 2, 3, 7, 20, 1000} {
			for _, n2 := range []int{1, 2, 5, 20, 333} {
				for _, x1 := range []int{0, 1, n1 / 2, n1 - 1, n1} {
					for _, x2 := range []int{0, 1, n2 / 2, n2 - 1, n2} {
						d := compare(t, firstOnly(x1, n1), firstOnly(x2, n2), &eval.CompareOptions{Level: level, IgnoreCalls: true}).Targets[0].ValidFirst
						lo, hi := refNewcombe(x2, n2, x1, n1, 1, z)
						assert.InDelta(t, lo, d.Low, 1e-9, "level %v: %d/%d - %d/%d", level, x2, n2, x1, n1)
						assert.InDelta(t, hi, d.High, 1e-9, "level %v: %d/%d - %d/%d", level, x2, n2, x1, n1)
						assert.True(t, d.Low >= -1 && d.High <= 1 && d.Low <= d.High, "[%v, %v]", d.Low, d.High)
						assert.Equal(t, hi < 0, d.Worse())
					}
				}
			}
		}
	}
}

// TestCompareCallsMarginInterval holds the calls check's interval to the
// reference interval of current - baseline/(1+margin) over valid outputs
// per call: a current run that needs 10% more calls per valid output is
// flagged at margin 0 and not at 0.2 when the samples are large.
func TestCompareCallsMarginInterval(t *testing.T) {
	z := math.Sqrt2 * math.Erfinv(0.95)
	rep := func(valid, calls int) *eval.Report {
		return &eval.Report{Targets: []eval.TargetReport{{Name: "m", Cases: valid, ValidFirst: valid, Valid: valid, Calls: calls}}}
	}
	tests := []struct {
		name           string
		vb, cb, vc, cc int
		margin         float64
		worse          bool
	}{
		{"10% more calls, no margin", 1000, 1100, 1000, 1210, 0, true},
		{"10% more calls, 20% margin", 1000, 1100, 1000, 1210, 0.2, false},
		{"small samples", 20, 20, 20, 25, 0, false},
		{"tiny samples, wide margin", 5, 9, 3, 9, 0.5, false},
		{"nothing valid", 50, 50, 0, 10, 0.1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := compare(t, rep(tt.vb, tt.cb), rep(tt.vc, tt.cc), &eval.CompareOptions{CallsMargin: tt.margin}).Targets[0].ValidPerCall
			lo, hi := refNewcombe(tt.vc, tt.cc, tt.vb, tt.cb, 1/(1+tt.margin), z)
			assert.InDelta(t, lo, d.Low, 1e-9)
			assert.InDelta(t, hi, d.High, 1e-9)
			assert.Equal(t, tt.worse, d.Worse(), "[%v, %v]", d.Low, d.High)
		})
	}
}

// TestCompareFirstFailure states the gate's rule for a baseline without
// failures: 1,000 of 1,000 valid on the first call bounds the baseline's
// failure rate below 0.5%, so one failure in 20 cases (5%) is flagged,
// while 20 of 20 is not.
func TestCompareFirstFailure(t *testing.T) {
	opts := &eval.CompareOptions{IgnoreCalls: true}
	v := compare(t, firstOnly(1000, 1000), firstOnly(19, 20), opts)
	assert.True(t, v.Regressed, "%+v", v.Targets[0].ValidFirst)
	assert.False(t, compare(t, firstOnly(1000, 1000), firstOnly(20, 20), opts).Regressed)
	d := compare(t, firstOnly(1000, 1000), firstOnly(20, 20), opts).Targets[0].ValidFirst
	assert.Less(t, d.Low, 0.0, "a run without failures is never measured without uncertainty")
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
	assert.False(t, v.Regressed, "a target new to the current run cannot regress")
	require.Len(t, v.Targets, 1)
	assert.False(t, v.Targets[0].InBaseline)
}

// TestCompareTargetMissingFromCurrent: a target of the baseline that the
// current run lacks (its runs dropped, renamed or never made), or ran
// without cases, fails the gate and is named in the verdict.
func TestCompareTargetMissingFromCurrent(t *testing.T) {
	two := &eval.Report{Targets: []eval.TargetReport{
		{Name: "a", Cases: 200, ValidFirst: 190, Valid: 200, Calls: 210},
		{Name: "b", Cases: 200, ValidFirst: 190, Valid: 200, Calls: 210},
	}}
	tests := []struct {
		name    string
		current *eval.Report
		reason  string
	}{
		{"b not run", &eval.Report{Targets: two.Targets[:1]}, "not in the current run (200 cases in the baseline)"},
		{"no report", nil, "not in the current run (200 cases in the baseline)"},
		{"no targets", &eval.Report{}, "not in the current run (200 cases in the baseline)"},
		{"b without cases", &eval.Report{Targets: []eval.TargetReport{two.Targets[0], {Name: "b"}}}, "no cases run (200 in the baseline)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := compare(t, two, tt.current, nil)
			assert.True(t, v.Regressed)
			var b *eval.TargetComparison
			for i := range v.Targets {
				if v.Targets[i].Name == "b" {
					b = &v.Targets[i]
				}
			}
			require.NotNil(t, b, "the verdict names b")
			assert.True(t, b.Regressed)
			assert.Equal(t, []string{tt.reason}, b.Reasons)
			assert.Contains(t, v.Markdown(), "- **b regressed**: "+tt.reason+"\n")
		})
	}
	v := compare(t, two, &eval.Report{Targets: two.Targets[:1]}, nil)
	require.Len(t, v.Targets, 2)
	assert.False(t, v.Targets[0].Regressed)
	assert.True(t, v.Targets[1].Missing)
	assert.Empty(t, compare(t, &eval.Report{Targets: []eval.TargetReport{{Name: "x"}}}, nil, nil).Targets,
		"a baseline target without cases has nothing to lose")
}

// TestComparePartialReport: a partial report, baseline or current, is
// refused with ErrPartialReport, including the report of a run
// interrupted before anything ran.
func TestComparePartialReport(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) { return nil, ctx.Err() })
	nothing, err := eval.Run(ctx, []eval.Case{inline("a", ""), inline("b", "")}, []eval.Target{{Name: "m", Provider: p}})
	require.ErrorIs(t, err, context.Canceled)
	require.True(t, nothing.Partial)
	half := sample(1, 100, 0.9)
	half.Partial, half.NotRun = true, 100
	whole := sample(2, 200, 0.9)
	tests := []struct {
		name              string
		baseline, current *eval.Report
		which             string
	}{
		{"current ran nothing", whole, nothing, "current report"},
		{"current half run", whole, half, "current report"},
		{"baseline half run", half, whole, "baseline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := eval.Compare(tt.baseline, tt.current, nil)
			require.ErrorIs(t, err, eval.ErrPartialReport)
			assert.ErrorContains(t, err, tt.which)
			assert.Zero(t, v)
		})
	}
}

// TestCompareInvalidReport: counts no run can give make Compare fail with
// ErrInvalidReport rather than compare NaN intervals (which no check
// flags) or nonsense.
func TestCompareInvalidReport(t *testing.T) {
	good := eval.TargetReport{Name: "m", Cases: 200, ValidFirst: 180, Valid: 200, Calls: 220}
	tests := []struct {
		name string
		bad  eval.TargetReport
		msg  string
	}{
		{"more valid first than cases", eval.TargetReport{Name: "m", Cases: 20, ValidFirst: 30, Valid: 30, Calls: 30}, "30 valid of 20 cases"},
		{"more valid first than valid", eval.TargetReport{Name: "m", Cases: 20, ValidFirst: 15, Valid: 10, Calls: 30}, "15 valid on the first call of 10 valid"},
		{"fewer calls than valid", eval.TargetReport{Name: "m", Cases: 20, ValidFirst: 10, Valid: 20, Calls: 5}, "5 calls for 20 valid outputs"},
		{"negative", eval.TargetReport{Name: "m", Cases: -1}, "a count is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := &eval.Report{Targets: []eval.TargetReport{tt.bad}}
			ok := &eval.Report{Targets: []eval.TargetReport{good}}
			for _, pair := range [][2]*eval.Report{{bad, ok}, {ok, bad}} {
				v, err := eval.Compare(pair[0], pair[1], nil)
				require.ErrorIs(t, err, eval.ErrInvalidReport)
				assert.ErrorContains(t, err, tt.msg)
				assert.Zero(t, v)
			}
		})
	}
	twice := &eval.Report{Targets: []eval.TargetReport{good, good}}
	_, err := eval.Compare(twice, &eval.Report{Targets: []eval.TargetReport{good}}, nil)
	assert.ErrorIs(t, err, eval.ErrInvalidReport, "a name used twice")
	assert.ErrorContains(t, err, "used twice")
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
	assert.Equal(t, "- m: no regression (valid on first call 93.0% of 500 cases against 92.8% of 500, difference +0.2 points (95% interval -3.2 to +3.6))\n", md)
}
