package eval

import (
	"fmt"
	"math"
	"strings"
)

// CompareOptions tunes [Compare]. A nil *CompareOptions, or a zero field,
// means the documented default.
type CompareOptions struct {
	// Z is the normal quantile of the Wilson score interval; 0 means 1.96
	// (a two-sided 95% interval).
	Z float64
	// CallsMargin is how far, as a fraction of the baseline, calls per
	// valid output may rise before it is a regression; 0 means 0.10 (10%).
	// A negative value disables the check.
	CallsMargin float64
}

// A Verdict is the outcome of [Compare].
type Verdict struct {
	// Regressed reports that at least one target regressed.
	Regressed bool `json:"regressed"`
	// Targets are the verdicts of the targets in the current report, in
	// its order.
	Targets []TargetVerdict `json:"targets"`
}

// A TargetVerdict compares one target with its baseline.
type TargetVerdict struct {
	// Name is the target's name.
	Name string `json:"name"`
	// InBaseline reports whether the baseline has the target; without it
	// the target cannot regress.
	InBaseline bool `json:"in_baseline"`
	// Regressed reports a regression; Reasons say which.
	Regressed bool     `json:"regressed"`
	Reasons   []string `json:"reasons,omitempty"`
	// BaselineRate and CurrentRate are the valid-on-first-call rates;
	// LowerBound is the lower end of the baseline's Wilson interval.
	BaselineRate float64 `json:"baseline_rate"`
	CurrentRate  float64 `json:"current_rate"`
	LowerBound   float64 `json:"lower_bound"`
	// BaselineCallsPerValid and CurrentCallsPerValid are the calls per
	// valid output.
	BaselineCallsPerValid float64 `json:"baseline_calls_per_valid"`
	CurrentCallsPerValid  float64 `json:"current_calls_per_valid"`
}

// Compare holds each target of current against the same-named target of
// baseline. A target regresses when its valid-on-first-call rate is below
// the lower bound of the baseline rate's Wilson score interval, or when its
// calls per valid output exceed the baseline's by more than the margin (a
// target that went from some valid outputs to none has infinitely many
// calls per valid output). A target missing from the baseline is reported,
// not flagged. A nil report counts as one without targets; opts may be
// nil. Compare is a pure function.
func Compare(baseline, current *Report, opts *CompareOptions) Verdict {
	var o CompareOptions
	if opts != nil {
		o = *opts
	}
	if o.Z == 0 {
		o.Z = 1.96
	}
	if o.CallsMargin == 0 {
		o.CallsMargin = 0.10
	}
	var v Verdict
	if current == nil {
		return v
	}
	for _, cur := range current.Targets {
		tv := TargetVerdict{Name: cur.Name, CurrentRate: cur.ValidFirstRate, CurrentCallsPerValid: cur.CallsPerValid}
		var base *TargetReport
		if baseline != nil {
			base = baseline.Target(cur.Name)
		}
		if base != nil && base.Cases > 0 {
			tv.InBaseline = true
			tv.BaselineRate, tv.BaselineCallsPerValid = base.ValidFirstRate, base.CallsPerValid
			tv.LowerBound, _ = Wilson(base.ValidFirst, base.Cases, o.Z)
			if cur.Cases > 0 && cur.ValidFirstRate < tv.LowerBound {
				tv.Reasons = append(tv.Reasons, fmt.Sprintf("valid on first call %.1f%% is below %.1f%%, the lower bound of the baseline's %.1f%%",
					100*cur.ValidFirstRate, 100*tv.LowerBound, 100*base.ValidFirstRate))
			}
			if o.CallsMargin > 0 && base.Valid > 0 {
				limit := base.CallsPerValid * (1 + o.CallsMargin)
				switch {
				case cur.Valid == 0 && cur.Cases > 0:
					tv.Reasons = append(tv.Reasons, "no valid output, where the baseline had some")
				case cur.Valid > 0 && cur.CallsPerValid > limit:
					tv.Reasons = append(tv.Reasons, fmt.Sprintf("calls per valid output %.2f exceed the baseline's %.2f by more than %.0f%%",
						cur.CallsPerValid, base.CallsPerValid, 100*o.CallsMargin))
				}
			}
		}
		tv.Regressed = len(tv.Reasons) > 0
		v.Regressed = v.Regressed || tv.Regressed
		v.Targets = append(v.Targets, tv)
	}
	return v
}

// Wilson returns the Wilson score interval of successes out of n trials at
// normal quantile z (1.96 for 95%). With n = 0 it is [0, 1].
func Wilson(successes, n int, z float64) (lower, upper float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(successes) / float64(n)
	nf := float64(n)
	z2 := z * z
	center := p + z2/(2*nf)
	spread := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	den := 1 + z2/nf
	return max(0, (center-spread)/den), min(1, (center+spread)/den)
}

// Markdown renders the verdict for a pull-request comment: one line per
// target, saying whether it regressed and why, or that the baseline lacks
// it.
func (v Verdict) Markdown() string {
	var b strings.Builder
	for _, t := range v.Targets {
		name := mdEscape(t.Name)
		switch {
		case !t.InBaseline:
			fmt.Fprintf(&b, "- %s: not in the baseline\n", name)
		case t.Regressed:
			fmt.Fprintf(&b, "- **%s regressed**: %s\n", name, strings.Join(t.Reasons, "; "))
		default:
			fmt.Fprintf(&b, "- %s: no regression (valid on first call %s, baseline %s, lower bound %s)\n",
				name, pct(t.CurrentRate), pct(t.BaselineRate), pct(t.LowerBound))
		}
	}
	return b.String()
}
