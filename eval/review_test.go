package eval_test

// Review of issue #42 (eval): reproductions. Each TestReview* test fails on
// the code as it is when it demonstrates a defect; TestReviewSound* tests
// record what was checked and found sound (they pass).

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// refWilson is the Wilson score interval computed independently: the two
// roots of (1+z²/n)p² - (2x/n + z²/n)p + (x/n)² = 0.
func refWilson(x, n int, z float64) (float64, float64) {
	ph, nf := float64(x)/float64(n), float64(n)
	a := 1 + z*z/nf
	b := -(2*ph + z*z/nf)
	c := ph * ph
	disc := math.Max(0, b*b-4*a*c)
	return (-b - math.Sqrt(disc)) / (2 * a), (-b + math.Sqrt(disc)) / (2 * a)
}

// refNewcombe is Newcombe's method 10 for p1 - p2.
func refNewcombe(x1, n1, x2, n2 int, z float64) (float64, float64) {
	p1, p2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	l1, u1 := refWilson(x1, n1, z)
	l2, u2 := refWilson(x2, n2, z)
	d := p1 - p2
	return d - math.Sqrt((p1-l1)*(p1-l1)+(u2-p2)*(u2-p2)), d + math.Sqrt((u1-p1)*(u1-p1)+(p2-l2)*(p2-l2))
}

// firstOnly is a report of one target "m" with x of n valid on the first
// call (and every case valid, one call each when valid first, two else).
func firstOnly(x, n int) *eval.Report {
	calls := n + (n - x)
	return &eval.Report{Targets: []eval.TargetReport{{
		Name: "m", Cases: n, ValidFirst: x, Valid: n, Calls: calls,
	}}}
}

// TestReviewSoundNewcombe: Compare's interval of the first-call rates
// against Newcombe's (1998) published method-10 values and against an
// independent computation over a grid with 0/n, n/n and tiny samples.
func TestReviewSoundNewcombe(t *testing.T) {
	// Newcombe 1998, Stat Med 17:873-890, method 10 (current - baseline),
	// as reproduced widely; seven of the paper's examples.
	published := []struct {
		x1, n1, x2, n2 int
		lo, hi         float64
	}{
		{56, 70, 48, 80, 0.0524, 0.3339},
		{9, 10, 3, 10, 0.1705, 0.8090},
		{5, 56, 0, 29, -0.0381, 0.1926},
		{0, 10, 0, 20, -0.1611, 0.2775},
		{0, 10, 0, 10, -0.2775, 0.2775},
		{10, 10, 0, 20, 0.6791, 1.0000},
		{10, 10, 0, 10, 0.6075, 1.0000},
	}
	opts := &eval.CompareOptions{IgnoreCalls: true}
	for _, c := range published {
		v, err := eval.Compare(firstOnly(c.x2, c.n2), firstOnly(c.x1, c.n1), opts)
		if err != nil {
			t.Fatal(err)
		}
		d := v.Targets[0].ValidFirst
		rl, rh := refNewcombe(c.x1, c.n1, c.x2, c.n2, 1.959963984540054)
		t.Logf("%d/%d - %d/%d: Compare [%.4f, %.4f], reference [%.4f, %.4f], published [%.4f, %.4f]",
			c.x1, c.n1, c.x2, c.n2, d.Low, d.High, rl, rh, c.lo, c.hi)
		if math.Abs(rl-c.lo) > 6e-5 || math.Abs(rh-c.hi) > 6e-5 {
			t.Logf("  (reference differs from the published value)")
		}
		if math.Abs(d.Low-rl) > 1e-9 || math.Abs(d.High-rh) > 1e-9 {
			t.Errorf("%d/%d - %d/%d: Compare [%v, %v] != reference [%v, %v]", c.x1, c.n1, c.x2, c.n2, d.Low, d.High, rl, rh)
		}
	}
	// A grid, edge cases included, at 90% and 99% as well.
	for _, level := range []float64{0.9, 0.95, 0.99} {
		z := math.Sqrt2 * math.Erfinv(level)
		for _, n1 := range []int{1, 2, 3, 7, 20, 1000} {
			for _, n2 := range []int{1, 2, 5, 20, 333} {
				for _, x1 := range []int{0, 1, n1 / 2, n1 - 1, n1} {
					for _, x2 := range []int{0, 1, n2 / 2, n2 - 1, n2} {
						if x1 < 0 || x2 < 0 {
							continue
						}
						v, err := eval.Compare(firstOnly(x2, n2), firstOnly(x1, n1), &eval.CompareOptions{Level: level, IgnoreCalls: true})
						if err != nil {
							t.Fatal(err)
						}
						d := v.Targets[0].ValidFirst
						rl, rh := refNewcombe(x1, n1, x2, n2, z)
						if math.Abs(d.Low-rl) > 1e-9 || math.Abs(d.High-rh) > 1e-9 || d.Low < -1-1e-12 || d.High > 1+1e-12 || d.Low > d.High {
							t.Errorf("level %v %d/%d - %d/%d: [%v, %v], reference [%v, %v]", level, x1, n1, x2, n2, d.Low, d.High, rl, rh)
						}
						if d.Worse() != (rh < 0) {
							t.Errorf("decision differs at %d/%d - %d/%d", x1, n1, x2, n2)
						}
					}
				}
			}
		}
	}
}

// binom returns the binomial probabilities of 0..n successes.
func binom(n int, p float64) []float64 {
	out := make([]float64, n+1)
	for k := range out {
		lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
		out[k] = math.Exp(lg(n) - lg(k) - lg(n-k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
	}
	return out
}

// TestReviewFalseFlagRateNearOne computes exactly (by enumeration, not
// simulation) the probability that the first-call check alone flags an
// unchanged rate, and logs it beside the stated (1-level)/2 = 2.5% per
// check. The package doc says the interval "keeps close to its stated
// coverage down to a few dozen cases" near rates of 0 or 1 "where
// evaluations of good models sit"; with a large baseline and a small
// current run at 0.95 or 0.99 it flags 5-9% of unchanged models.
func TestReviewFalseFlagRateNearOne(t *testing.T) {
	opts := &eval.CompareOptions{IgnoreCalls: true}
	worst := 0.0
	var rows strings.Builder
	for _, p := range []float64{0.5, 0.8, 0.9, 0.95, 0.99} {
		for _, nb := range []int{20, 50, 200, 1000} {
			for _, nc := range []int{10, 20, 50, 200} {
				pb, pc := binom(nb, p), binom(nc, p)
				size := 0.0
				for xb := range pb {
					if pb[xb] < 1e-12 {
						continue
					}
					for xc := range pc {
						v, _ := eval.Compare(firstOnly(xb, nb), firstOnly(xc, nc), opts)
						if v.Regressed {
							size += pb[xb] * pc[xc]
						}
					}
				}
				worst = max(worst, size)
				fmt.Fprintf(&rows, "p=%.2f baseline %4d current %4d: P(flag | unchanged) = %.4f\n", p, nb, nc, size)
			}
		}
	}
	t.Log("\n" + rows.String())
	t.Logf("worst exact false-flag rate of one check: %.4f (stated 0.025)", worst)
	if worst > 0.05 {
		t.Errorf("a single check flags an unchanged rate with probability %.4f, twice the stated 2.5%%", worst)
	}
}

// TestReviewCompareMissingTarget: a target of the baseline that the current
// report lacks (its runs were dropped, renamed, or never finished) is not
// mentioned in the verdict, and the gate passes.
func TestReviewCompareMissingTarget(t *testing.T) {
	base := &eval.Report{Targets: []eval.TargetReport{
		{Name: "a", Cases: 200, ValidFirst: 190, Valid: 200, Calls: 210},
		{Name: "b", Cases: 200, ValidFirst: 190, Valid: 200, Calls: 210},
	}}
	cur := &eval.Report{Targets: []eval.TargetReport{
		{Name: "a", Cases: 200, ValidFirst: 190, Valid: 200, Calls: 210},
	}}
	v, err := eval.Compare(base, cur, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("verdict: regressed=%v, %d targets; Markdown:\n%s", v.Regressed, len(v.Targets), v.Markdown())
	if !v.Regressed && !strings.Contains(v.Markdown(), "b") {
		t.Errorf("baseline target \"b\" is missing from the current run, yet the gate passes and the verdict does not name it")
	}
}

// TestReviewCompareEmptyCurrent: a current report with no runs at all (an
// interrupted run that finished nothing: Partial, every run NotRun) passes
// the gate with an empty verdict.
func TestReviewCompareEmptyCurrent(t *testing.T) {
	base := firstOnly(190, 200)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		return nil, ctx.Err()
	})
	cur, err := eval.Run(ctx, []eval.Case{inline("a", ""), inline("b", "")}, []eval.Target{{Name: "m", Provider: p}})
	t.Logf("Run: err=%v partial=%v notRun=%d targets=%d", err, cur.Partial, cur.NotRun, len(cur.Targets))
	v, err := eval.Compare(base, cur, nil)
	t.Logf("Compare: err=%v regressed=%v targets=%d markdown=%q", err, v.Regressed, len(v.Targets), v.Markdown())
	if err == nil && !v.Regressed {
		t.Errorf("Compare passes a partial current report with nothing run against a baseline of 200 cases")
	}
}

// TestReviewCompareNaN: a baseline read from JSON whose counts are
// inconsistent (more valid first-call runs than cases, as a hand-edited or
// corrupted report may hold) gives a NaN interval; Worse() is false for
// NaN, so a collapse of the current run passes, with no error.
func TestReviewCompareNaN(t *testing.T) {
	base := &eval.Report{Targets: []eval.TargetReport{{Name: "m", Cases: 20, ValidFirst: 30, Valid: 30, Calls: 20}}}
	cur := &eval.Report{Targets: []eval.TargetReport{{Name: "m", Cases: 200, ValidFirst: 0, Valid: 200, Calls: 400}}}
	v, err := eval.Compare(base, cur, nil)
	d, c := v.Targets[0].ValidFirst, v.Targets[0].ValidPerCall
	t.Logf("err=%v regressed=%v first-call interval [%v, %v] per-call interval [%v, %v] reasons=%q", err, v.Regressed, d.Low, d.High, c.Low, c.High, v.Targets[0].Reasons)
	if err == nil && !v.Regressed {
		t.Errorf("an inconsistent baseline (30 valid of 20 cases) is accepted and a current run with 0 of 200 valid on the first call (was 30 of 20) passes the gate")
	}
}

// TestReviewHumanDurationRounding: durations that round up to the next
// unit are written in the smaller one: "1000 µs" rather than "1.0 ms",
// "60 s" rather than "1.0 min", against the doc's "the largest unit that
// keeps one before the point" and two or three significant figures.
func TestReviewHumanDurationRounding(t *testing.T) {
	for _, d := range []time.Duration{999600 * time.Nanosecond, 59700 * time.Millisecond, 999700 * time.Microsecond} {
		r := eval.NewReport([]eval.CaseResult{{Case: "a", Target: "m", Valid: true, ValidFirst: true, Calls: 1, Latency: d}})
		md := r.Markdown()
		row := md[strings.LastIndex(md, "| m |"):]
		t.Logf("%v -> %s", d, strings.TrimSpace(row))
		for _, bad := range []string{"| 1000 µs |", "| 60 s |", "| 1000 ms |"} {
			if strings.Contains(row, bad) {
				t.Errorf("%v is written %q", d, strings.Trim(bad, "| "))
			}
		}
	}
}

// TestReviewCutShortRunLosesPaidCalls: the package doc says of an
// interrupted Run "Nothing paid for is thrown away". A run whose first
// call was made and paid for (an invalid reply, 500 tokens), and which the
// end of the context cut before its re-ask, is dropped whole: the report
// counts neither its call nor its tokens.
func TestReviewCutShortRunLosesPaidCalls(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		cancel() // Ctrl-C while the model answers
		return &provider.Response{Text: `{"n": "not a number"}`, StopReason: provider.StopEnd,
			Usage: provider.Usage{InputTokens: 250, OutputTokens: 250}}, nil
	})
	rep, err := eval.Run(ctx, []eval.Case{inline("a", "")}, []eval.Target{{Name: "m", Provider: p}})
	calls, tokens := 0, 0
	for _, tr := range rep.Targets {
		calls += tr.Calls
		tokens += tr.Tokens
	}
	t.Logf("err=%v partial=%v notRun=%d results=%d calls=%d tokens=%d", err, rep.Partial, rep.NotRun, len(rep.Results), calls, tokens)
	if tokens != 500 {
		t.Errorf("one call of 500 tokens was paid for; the partial report counts %d calls and %d tokens", calls, tokens)
	}
}

// TestReviewPartialWithNothingMissing: when the context ends as the last
// run returns a valid output, every run finished, yet Run reports the
// report as Partial with NotRun 0 beside the error, and agentio eval then
// exits 130 "partial, 0 of N runs not run" without gating.
func TestReviewPartialWithNothingMissing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		calls++
		if calls == 2 {
			cancel() // Ctrl-C as the last answer arrives
		}
		return &provider.Response{Text: `{"n": 1}`, StopReason: provider.StopEnd}, nil
	})
	rep, err := eval.Run(ctx, []eval.Case{inline("a", ""), inline("b", "")}, []eval.Target{{Name: "m", Provider: p}}, eval.WithConcurrency(1))
	t.Logf("err=%v partial=%v notRun=%d results=%d", err, rep.Partial, rep.NotRun, len(rep.Results))
	if rep.Partial && rep.NotRun == 0 {
		t.Errorf("every run finished, yet the report is marked partial (NotRun 0) and comes with %v", err)
	}
}

// TestReviewSoundCancelNoLeak: Run cancelled mid-way, with concurrency,
// a rate limit and a streaming provider, leaves no goroutine behind and
// returns promptly; the partial report counts each run once.
func TestReviewSoundCancelNoLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	var cases []eval.Case
	for i := range 40 {
		cases = append(cases, inline(fmt.Sprint("c", i), ""))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int32
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		if n.Add(1) > 10 {
			cancel()
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return &provider.Response{Text: `{"n": 1}`, StopReason: provider.StopEnd}, nil
	})
	begin := time.Now()
	rep, err := eval.Run(ctx, cases, []eval.Target{{Name: "a", Provider: p}, {Name: "b", Provider: p}},
		eval.WithConcurrency(8), eval.WithRateLimit(1000))
	took := time.Since(begin)
	time.Sleep(50 * time.Millisecond)
	after := runtime.NumGoroutine()
	seen := map[string]bool{}
	for _, r := range rep.Results {
		k := r.Case + "/" + r.Target
		if seen[k] {
			t.Errorf("%s counted twice", k)
		}
		seen[k] = true
	}
	t.Logf("err=%v took=%v results=%d notRun=%d goroutines %d -> %d", err, took, len(rep.Results), rep.NotRun, before, after)
	if len(rep.Results)+rep.NotRun != 80 || after > before || took > 2*time.Second {
		t.Errorf("results %d + not run %d != 80, or goroutines %d -> %d, or took %v", len(rep.Results), rep.NotRun, before, after, took)
	}
}

// TestReviewFirstFailureFlagged: the package doc says the Newcombe
// interval, unlike the Wald interval, does not flag "the first failure of
// a run that had none". Against a baseline of 1000 of 1000 valid on the
// first call, a current run of 20 cases with one failure (19 of 20) is
// flagged by Compare, while the Wald interval of the difference is not
// wholly below zero.
func TestReviewFirstFailureFlagged(t *testing.T) {
	v, err := eval.Compare(firstOnly(1000, 1000), firstOnly(19, 20), &eval.CompareOptions{IgnoreCalls: true})
	if err != nil {
		t.Fatal(err)
	}
	d := v.Targets[0].ValidFirst
	p1, p2 := 19.0/20, 1.0
	se := math.Sqrt(p1*(1-p1)/20 + p2*(1-p2)/1000)
	t.Logf("Compare: regressed=%v, Newcombe [%.4f, %.4f]; Wald [%.4f, %.4f]", v.Regressed, d.Low, d.High, p1-p2-1.96*se, p1-p2+1.96*se)
	if v.Regressed {
		t.Errorf("one failure in 20 cases against a baseline without failures is flagged: %s", v.Targets[0].Reasons[0])
	}
}

// TestReviewSoundStreamLatencyUnderRateLimit: with a streaming target
// under a rate limit, the calls are streamed and each run's latency leaves
// out the wait for its slot, reported apart.
func TestReviewSoundStreamLatencyUnderRateLimit(t *testing.T) {
	var cases []eval.Case
	var replies []providertest.Reply
	for i := range 10 {
		cases = append(cases, inline(fmt.Sprint("c", i), ""))
		replies = append(replies, providertest.Text(`{"n": 1}`))
	}
	p := providertest.New(replies...)
	rep, err := eval.Run(context.Background(), cases, []eval.Target{{Name: "m", Provider: p}},
		eval.WithRateLimit(50), eval.WithConcurrency(10),
		eval.WithEnforceOptions(enforce.WithPartials(func(enforce.Partial) {})))
	if err != nil {
		t.Fatal(err)
	}
	var wait, worst time.Duration
	for _, r := range rep.Results {
		wait += r.RateLimitWait
		worst = max(worst, r.Latency)
	}
	t.Logf("streamed %d, worst latency %v, waits %v in all", len(p.Streamed()), worst, wait)
	if len(p.Streamed()) != 10 || worst >= 20*time.Millisecond || wait < 450*time.Millisecond {
		t.Errorf("streamed %d of 10, worst latency %v, waits %v", len(p.Streamed()), worst, wait)
	}
}

// TestReviewSoundCallsMargin: the calls check's interval is the MOVER
// (Newcombe) interval of current - baseline/(1+margin) over valid outputs
// per call, computed independently; a margin of 0 is no margin (the
// interval of the plain difference), and a current run that needs 10%
// more calls per valid output is flagged at margin 0 and not at 0.2 when
// the samples are large.
func TestReviewSoundCallsMargin(t *testing.T) {
	z := 1.959963984540054
	rep := func(valid, calls int) *eval.Report {
		return &eval.Report{Targets: []eval.TargetReport{{Name: "m", Cases: valid, ValidFirst: valid, Valid: valid, Calls: calls}}}
	}
	for _, c := range []struct {
		vb, cb, vc, cc int
		margin         float64
	}{
		{1000, 1100, 1000, 1210, 0}, {1000, 1100, 1000, 1210, 0.2}, {20, 20, 20, 25, 0}, {5, 9, 3, 9, 0.5}, {50, 50, 0, 10, 0.1},
	} {
		v, err := eval.Compare(rep(c.vb, c.cb), rep(c.vc, c.cc), &eval.CompareOptions{CallsMargin: c.margin})
		if err != nil {
			t.Fatal(err)
		}
		d := v.Targets[0].ValidPerCall
		s := 1 / (1 + c.margin)
		p1, p2 := float64(c.vc)/float64(c.cc), float64(c.vb)/float64(c.cb)
		l1, u1 := refWilson(c.vc, c.cc, z)
		l2, u2 := refWilson(c.vb, c.cb, z)
		lo := p1 - s*p2 - math.Sqrt((p1-l1)*(p1-l1)+s*s*(u2-p2)*(u2-p2))
		hi := p1 - s*p2 + math.Sqrt((u1-p1)*(u1-p1)+s*s*(p2-l2)*(p2-l2))
		t.Logf("%d/%d calls vs %d/%d, margin %v: [%.4f, %.4f] ref [%.4f, %.4f] worse=%v", c.vc, c.cc, c.vb, c.cb, c.margin, d.Low, d.High, lo, hi, d.Worse())
		if math.Abs(d.Low-lo) > 1e-9 || math.Abs(d.High-hi) > 1e-9 {
			t.Errorf("calls interval differs from the reference")
		}
	}
}

// TestReviewQuoteCheckIgnoresCancel: a case with a quote_in_input
// invariant, a 200 KB input and a model reply whose quote repeats a part
// found only inside words (see crosscheck's
// TestReviewQuoteRepeatedPartsQuadratic): the check of that one reply
// takes seconds, and Run, cancelled 100 ms in, returns only when it ends:
// the grounding check does not see the context.
func TestReviewQuoteCheckIgnoresCancel(t *testing.T) {
	var b strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&b, "station%d ", i%97)
	}
	b.WriteString(strings.Repeat("tion| ", 1000))
	quote := "tion" + strings.Repeat(" ... tion", 999)
	reply, _ := json.Marshal(map[string]any{"q": quote})
	c := eval.Case{ID: "big", Schema: []byte(`{"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}`),
		Prompt: b.String(), Invariants: []crosscheck.Invariant{{Kind: crosscheck.QuoteInInput, Values: "$.q"}}}
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: string(reply), StopReason: provider.StopEnd}, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	begin := time.Now()
	rep, err := eval.Run(ctx, []eval.Case{c}, []eval.Target{{Name: "m", Provider: p}})
	took := time.Since(begin)
	t.Logf("err=%v took=%v results=%d notRun=%d", err, took, len(rep.Results), rep.NotRun)
	if took > time.Second {
		t.Errorf("Run cancelled after 100 ms returned after %v", took)
	}
}
