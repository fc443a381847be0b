package eval

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrPartialReport is matched (errors.Is) by the error [Compare] returns
// when the baseline or the current report is partial ([Report].Partial):
// the runs an interruption left out are not a sample of the dataset (the
// slow and the late are missing), so the two cannot be compared.
var ErrPartialReport = errors.New("eval: partial report")

// ErrInvalidReport is matched (errors.Is) by the error [Compare] returns
// for a report whose counts cannot come from a run: a negative count, more
// valid outputs than cases, more valid on the first call than valid, fewer
// calls than valid outputs, or a target name used twice (a report edited
// by hand, or damaged). Its rates and intervals would mean nothing.
var ErrInvalidReport = errors.New("eval: invalid report")

// CompareOptions tunes [Compare]. A nil *CompareOptions is the zero value,
// and each zero field means the documented default.
type CompareOptions struct {
	// Level is the two-sided confidence level of the intervals of the
	// differences, in (0, 1); 0 means 0.95. A check flags a target only
	// when the whole interval lies on the worse side, so that each check
	// flags an unchanged target with probability at most about
	// (1-Level)/2 (see the package doc, Regression gate, for the figures).
	Level float64
	// CallsMargin is the rise of calls per valid output, as a fraction of
	// the baseline's, that is tolerated: 0 tolerates none (a rise the
	// samples show at Level is flagged), 0.1 tolerates 10%. It must be
	// finite and not negative.
	CallsMargin float64
	// IgnoreCalls leaves calls per valid output unchecked.
	IgnoreCalls bool
}

// A Comparison is the outcome of [Compare].
type Comparison struct {
	// Regressed reports that at least one target regressed.
	Regressed bool `json:"regressed"`
	// Level is the confidence level of the intervals.
	Level float64 `json:"level"`
	// CallsMargin is the tolerated rise of calls per valid output.
	CallsMargin float64 `json:"calls_margin"`
	// Targets are the verdicts of the targets in the current report, in
	// its order, then of the baseline's targets missing from it, in the
	// baseline's order.
	Targets []TargetComparison `json:"targets"`
}

// A TargetComparison compares one target with its baseline.
type TargetComparison struct {
	// Name is the target's name.
	Name string `json:"name"`
	// InBaseline reports whether the baseline has the target with at
	// least one case; without it the target cannot regress, and the
	// differences are zero.
	InBaseline bool `json:"in_baseline"`
	// Missing reports a target of the baseline, with cases there, that the
	// current report lacks: it regressed, since nothing shows it still
	// works.
	Missing bool `json:"missing,omitempty"`
	// Regressed reports a regression; Reasons say which, with the rates,
	// the sample sizes and the interval.
	Regressed bool     `json:"regressed"`
	Reasons   []string `json:"reasons,omitempty"`
	// ValidFirst compares the valid-on-first-call rates: successes are
	// the runs valid on the first call, trials the cases.
	ValidFirst Difference `json:"valid_first"`
	// ValidPerCall compares the share of calls that gave a valid output,
	// the inverse of calls per valid output: successes are valid
	// outputs, trials the calls. Its interval bounds
	// Current - Baseline/(1+CallsMargin). It is zero when calls are not
	// checked.
	ValidPerCall Difference `json:"valid_per_call"`
	// BaselineCallsPerValid and CurrentCallsPerValid are the calls per
	// valid output (0 for a run without a valid output).
	BaselineCallsPerValid float64 `json:"baseline_calls_per_valid"`
	CurrentCallsPerValid  float64 `json:"current_calls_per_valid"`
}

// A Difference compares one proportion of two runs, successes out of
// trials in each.
type Difference struct {
	// Baseline and Current are the proportions; BaselineN and CurrentN
	// the numbers of trials they are taken over.
	Baseline  float64 `json:"baseline"`
	Current   float64 `json:"current"`
	BaselineN int     `json:"baseline_n"`
	CurrentN  int     `json:"current_n"`
	// Low and High bound the difference Current - Baseline at the
	// verdict's Level (Newcombe's hybrid score interval with continuity
	// correction, his method 11).
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Worse reports whether the whole interval is below zero: the current run
// is worse than the baseline beyond what chance explains at the level.
func (d Difference) Worse() bool { return d.High < 0 }

// Compare holds each target of current against the same-named target of
// baseline and flags a target whose valid-on-first-call rate fell, or
// whose calls per valid output rose by more than CallsMargin, by more than
// the two samples' sizes explain (see the package doc, Regression gate).
// A target missing from the baseline, or with no case there, is reported,
// not flagged. A target of the baseline with cases there is flagged when
// the current report lacks it ([TargetComparison].Missing) or ran none of its
// cases: a gate must not pass on what it did not see. A nil report counts
// as one without targets; opts may be nil.
//
// The error, with a zero Comparison, matches [ErrInvalidOption] for a Level
// outside (0, 1) or a negative, infinite or NaN CallsMargin,
// [ErrPartialReport] when either report is partial, and
// [ErrInvalidReport] when either holds counts no run can give.
// Compare is a pure function and does not modify its reports.
func Compare(baseline, current *Report, opts *CompareOptions) (Comparison, error) {
	var o CompareOptions
	if opts != nil {
		o = *opts
	}
	if o.Level == 0 {
		o.Level = 0.95
	}
	if !(o.Level > 0 && o.Level < 1) {
		return Comparison{}, fmt.Errorf("%w: level must be in (0, 1), got %v", ErrInvalidOption, o.Level)
	}
	if !(o.CallsMargin >= 0) || math.IsInf(o.CallsMargin, 0) {
		return Comparison{}, fmt.Errorf("%w: calls margin must be finite and not negative, got %v", ErrInvalidOption, o.CallsMargin)
	}
	for _, r := range []struct {
		which string
		rep   *Report
	}{{"baseline", baseline}, {"current report", current}} {
		if err := checkReport(r.rep); err != nil {
			return Comparison{}, fmt.Errorf("%s: %w", r.which, err)
		}
	}
	if current == nil {
		current = &Report{}
	}
	z := quantile(o.Level)
	v := Comparison{Level: o.Level, CallsMargin: o.CallsMargin}
	for _, cur := range current.Targets {
		tv := TargetComparison{Name: cur.Name, CurrentCallsPerValid: cur.CallsPerValid}
		var base *TargetReport
		if baseline != nil {
			base = baseline.Target(cur.Name)
		}
		if base != nil && base.Cases > 0 {
			tv.InBaseline = true
			tv.BaselineCallsPerValid = base.CallsPerValid
			if cur.Cases == 0 {
				tv.Reasons = append(tv.Reasons, fmt.Sprintf("no cases run (%d in the baseline)", base.Cases))
			} else {
				tv.ValidFirst = difference(base.ValidFirst, base.Cases, cur.ValidFirst, cur.Cases, 1, z)
				if tv.ValidFirst.Worse() {
					tv.Reasons = append(tv.Reasons, "valid on first call fell: "+tv.ValidFirst.describe(o.Level, "cases"))
				}
			}
			if !o.IgnoreCalls && base.Calls > 0 && cur.Calls > 0 {
				tv.ValidPerCall = difference(base.Valid, base.Calls, cur.Valid, cur.Calls, 1/(1+o.CallsMargin), z)
				if tv.ValidPerCall.Worse() {
					tv.Reasons = append(tv.Reasons, callsReason(tv, *base, cur, o))
				}
			}
		}
		tv.Regressed = len(tv.Reasons) > 0
		v.Regressed = v.Regressed || tv.Regressed
		v.Targets = append(v.Targets, tv)
	}
	if baseline != nil {
		for _, base := range baseline.Targets {
			if base.Cases == 0 || current.Target(base.Name) != nil {
				continue
			}
			v.Targets = append(v.Targets, TargetComparison{
				Name: base.Name, InBaseline: true, Missing: true, Regressed: true,
				Reasons:               []string{fmt.Sprintf("not in the current run (%d cases in the baseline)", base.Cases)},
				BaselineCallsPerValid: base.CallsPerValid,
			})
			v.Regressed = true
		}
	}
	return v, nil
}

// checkReport returns an error matching ErrPartialReport or
// ErrInvalidReport for a report Compare cannot judge; nil is fine.
func checkReport(r *Report) error {
	if r == nil {
		return nil
	}
	if r.Partial {
		return fmt.Errorf("%w: %d runs not run", ErrPartialReport, r.NotRun)
	}
	seen := make(map[string]bool, len(r.Targets))
	for _, t := range r.Targets {
		var bad string
		switch {
		case seen[t.Name]:
			bad = "its name is used twice"
		case t.Cases < 0 || t.ValidFirst < 0 || t.Valid < 0 || t.Calls < 0:
			bad = "a count is negative"
		case t.Valid > t.Cases:
			bad = fmt.Sprintf("%d valid of %d cases", t.Valid, t.Cases)
		case t.ValidFirst > t.Valid:
			bad = fmt.Sprintf("%d valid on the first call of %d valid", t.ValidFirst, t.Valid)
		case t.Calls < t.Valid:
			bad = fmt.Sprintf("%d calls for %d valid outputs", t.Calls, t.Valid)
		}
		if bad != "" {
			return fmt.Errorf("%w: target %q: %s", ErrInvalidReport, t.Name, bad)
		}
		seen[t.Name] = true
	}
	return nil
}

// difference compares x2 of n2 (current) with scale times x1 of n1
// (baseline).
func difference(x1, n1, x2, n2 int, scale, z float64) Difference {
	d := Difference{Baseline: ratio(x1, n1), Current: ratio(x2, n2), BaselineN: n1, CurrentN: n2}
	d.Low, d.High = newcombe(x2, n2, x1, n1, scale, z)
	return d
}

// describe says "85.0% of 20 cases against 90.0% of 1000, difference
// -5.0 points (95% interval -20.1 to +3.2)".
func (d Difference) describe(level float64, trials string) string {
	return fmt.Sprintf("%s of %d %s against %s of %d, difference %s points (%s interval %s to %s)",
		pct(d.Current), d.CurrentN, trials, pct(d.Baseline), d.BaselineN,
		points(d.Current-d.Baseline), levelText(level), points(d.Low), points(d.High))
}

func callsReason(tv TargetComparison, base, cur TargetReport, o CompareOptions) string {
	now := "no valid output"
	if cur.Valid > 0 {
		now = fmt.Sprintf("%.2f", cur.CallsPerValid)
	}
	d := tv.ValidPerCall
	against := pct(d.Baseline)
	if o.CallsMargin > 0 {
		against = fmt.Sprintf("%s (the baseline's %s less the %.4g%% margin)", pct(d.Baseline/(1+o.CallsMargin)), pct(d.Baseline), 100*o.CallsMargin)
	}
	return fmt.Sprintf("calls per valid output rose: %s (%d calls, %d valid) against %.2f (%d calls, %d valid); valid outputs per call %s against %s, difference %s points (%s interval %s to %s)",
		now, cur.Calls, cur.Valid, base.CallsPerValid, base.Calls, base.Valid,
		pct(d.Current), against, points(d.Current-d.Baseline/(1+o.CallsMargin)), levelText(o.Level), points(d.Low), points(d.High))
}

// points writes a difference of proportions in percentage points, signed.
func points(f float64) string { return fmt.Sprintf("%+.1f", 100*f) }

// levelText writes a confidence level as "95%".
func levelText(level float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", 100*level), ".0") + "%"
}

// Markdown renders the verdict for a pull-request comment: one line per
// target, saying whether it regressed and why, with both rates, both
// sample sizes and the interval of the difference, or that the baseline
// lacks it.
func (v Comparison) Markdown() string {
	var b strings.Builder
	for _, t := range v.Targets {
		name := mdEscape(t.Name)
		switch {
		case !t.InBaseline:
			fmt.Fprintf(&b, "- %s: not in the baseline\n", name)
		case t.Regressed:
			fmt.Fprintf(&b, "- **%s regressed**: %s\n", name, strings.Join(t.Reasons, "; "))
		case t.ValidFirst.CurrentN == 0:
			fmt.Fprintf(&b, "- %s: no cases run, nothing to compare\n", name)
		default:
			fmt.Fprintf(&b, "- %s: no regression (valid on first call %s)\n", name, t.ValidFirst.describe(v.Level, "cases"))
		}
	}
	return b.String()
}
