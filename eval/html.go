package eval

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/internal/clip"
)

//go:embed report.html.tmpl
var reportHTML string

// reportTemplate renders [Report.HTML]. Every value it prints is data
// escaped by html/template: nothing from a report is marked safe.
var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"float": float,
	"int":   integer,
	"ns":    ns,
	"pct":   pct,
	"label": label,
	"human": slowestLatency,
}).Parse(reportHTML))

// Chart geometry, in SVG user units.
const (
	chartWidth = 920 // the whole chart
	labelWidth = 220 // the labels left of the bars
	barMax     = 400 // a bar of the largest value
	barHeight  = 18
	barGap     = 6
)

// htmlTop is how many entries the failure histograms show per target;
// htmlSlowest how many cases the table of slowest cases lists.
const (
	htmlTop     = 15
	htmlSlowest = 10
)

// HTML writes the report as one self-contained HTML page: yield per target
// (valid on the first call and valid eventually, each with its 95%
// interval), calls per valid output, failure histograms by class and by
// violation (keyword and path), the slowest runs, and each case's result
// per target with its attempts in a <details> element. Charts are inline
// SVG; the page loads nothing and runs no script. Each number shown sits
// in an element with data-metric (and data-target, data-key) attributes
// whose data-value is the report's exact figure, so tools can read the
// page back; durations are shown rounded for people ("6.2 ms").
//
// All text from the report (target names, case IDs, errors) is escaped.
// The error is that of writing to w, or of rendering; HTML does not modify
// the report and may be called concurrently on the same report. It is
// HTMLWith(w, nil).
func (r *Report) HTML(w io.Writer) error { return r.HTMLWith(w, nil) }

// HTMLOptions tune [Report.HTMLWith]. A nil *HTMLOptions is the zero
// value: every section, no comparison.
type HTMLOptions struct {
	// OmitLatency leaves out the latency columns and the slowest runs: for
	// a run replayed from recordings, whose latency is that of reading
	// files.
	OmitLatency bool
	// Comparison, when not nil, adds a section comparing the report with its
	// baseline: [Compare]'s verdict, per target both rates with their
	// sample sizes, the interval of the difference and the outcome.
	Comparison *Comparison
}

// HTMLWith writes the page of [Report.HTML] as opts say. The verdict is
// read, not modified.
func (r *Report) HTMLWith(w io.Writer, opts *HTMLOptions) error {
	var o HTMLOptions
	if opts != nil {
		o = *opts
	}
	return reportTemplate.Execute(w, newHTMLView(r, o))
}

type htmlView struct {
	Partial string // "3 of 5 runs not run" for a partial report, else ""
	Latency bool   // show latency columns and the slowest runs
	Waited  bool   // some target waited for a rate limit
	Compare *htmlCompare
	Targets []htmlTarget
	Yield   htmlChart // valid first and valid eventually, two bars per target
	Cost    htmlChart // calls per valid output
	Slowest []CaseResult
	Cases   []htmlCase
}

type htmlTarget struct {
	TargetReport
	LatencyP50, LatencyP95 string
	RateLimitWait          string
	FirstCI, ValidCI       string // 95% intervals of the two rates
	FailureChart           htmlChart
	ViolationChart         htmlChart
}

// An htmlChart is a horizontal bar chart, laid out here so that the
// template only prints numbers.
type htmlChart struct {
	Width, Height int
	BarX          int // where bars start, right of the labels
	Bars          []htmlBar
}

type htmlBar struct {
	Label       string // the row's label; "" continues the previous row
	Target, Key string // the data-target and data-key of the value
	Metric      string // the data-metric of the value
	Value       float64
	Text        string // the value as shown
	Class       string // CSS class of the bar
	Y, Width    int
	Height      int
	TextX       int
}

type htmlCase struct {
	ID      string
	Results []htmlResult
}

type htmlResult struct {
	CaseResult
	Latency  string
	Attempts []htmlAttempt
}

type htmlAttempt struct {
	Number     int
	Outcome    string
	Violations []AttemptViolation
}

// htmlCompare is the section comparing the report with its baseline.
type htmlCompare struct {
	Level       string // "95%"
	CallsMargin string // "" for none, else "10%"
	Regressed   bool
	Rows        []htmlCompareRow
}

type htmlCompareRow struct {
	Name       string
	InBaseline bool
	Regressed  bool
	Reasons    []string
	First      htmlDifference
	Calls      htmlDifference
	Checked    bool // calls were compared
}

type htmlDifference struct {
	Baseline, Current string // "92.0% of 500"
	Difference        string // "-12.0"
	Interval          string // "-16.4 to -7.6"
	Worse             bool
}

func newHTMLDifference(d Difference, trials string) htmlDifference {
	return htmlDifference{
		Baseline:   fmt.Sprintf("%s of %d", pct(d.Baseline), d.BaselineN),
		Current:    fmt.Sprintf("%s of %d %s", pct(d.Current), d.CurrentN, trials),
		Difference: points(d.Current - d.Baseline),
		Interval:   points(d.Low) + " to " + points(d.High),
		Worse:      d.Worse(),
	}
}

func newHTMLCompare(v *Comparison) *htmlCompare {
	c := &htmlCompare{Level: levelText(v.Level), Regressed: v.Regressed}
	if v.CallsMargin > 0 {
		c.CallsMargin = fmt.Sprintf("%.4g%%", 100*v.CallsMargin)
	}
	for _, t := range v.Targets {
		row := htmlCompareRow{Name: t.Name, InBaseline: t.InBaseline, Regressed: t.Regressed, Reasons: t.Reasons,
			First: newHTMLDifference(t.ValidFirst, "cases"), Checked: t.ValidPerCall.CurrentN > 0}
		if row.Checked {
			row.Calls = newHTMLDifference(t.ValidPerCall, "calls")
			// The interval bounds Current - Baseline/(1+margin).
			row.Calls.Difference = points(t.ValidPerCall.Current - t.ValidPerCall.Baseline/(1+v.CallsMargin))
		}
		c.Rows = append(c.Rows, row)
	}
	return c
}

func newHTMLView(r *Report, o HTMLOptions) htmlView {
	v := htmlView{Latency: !o.OmitLatency}
	if o.Comparison != nil {
		v.Compare = newHTMLCompare(o.Comparison)
	}
	if r.Partial {
		v.Partial = r.notRunText()
	}
	var yield, cost []htmlBar
	maxCost := 0.0
	for _, t := range r.Targets {
		maxCost = max(maxCost, t.CallsPerValid)
	}
	for _, t := range r.Targets {
		yield = append(yield,
			htmlBar{Label: t.Name, Target: t.Name, Metric: "valid_first_rate", Value: t.ValidFirstRate, Class: "first",
				Text: fmt.Sprintf("%s valid on first call (%d/%d)", pct(t.ValidFirstRate), t.ValidFirst, t.Cases)},
			htmlBar{Target: t.Name, Metric: "valid_rate", Value: t.ValidRate, Class: "eventually",
				Text: fmt.Sprintf("%s valid eventually (%d/%d)", pct(t.ValidRate), t.Valid, t.Cases)})
		cost = append(cost, htmlBar{Label: t.Name, Target: t.Name, Metric: "calls_per_valid", Value: t.CallsPerValid, Class: "cost",
			Text: fmt.Sprintf("%.2f calls per valid output", t.CallsPerValid)})
		ht := htmlTarget{TargetReport: t, LatencyP50: human(t.LatencyP50), LatencyP95: human(t.LatencyP95),
			RateLimitWait: human(t.RateLimitWait), FirstCI: ci95(t.ValidFirst, t.Cases), ValidCI: ci95(t.Valid, t.Cases)}
		v.Waited = v.Waited || t.RateLimitWait > 0
		ht.FailureChart = histogram(t.Name, "failures", t.Failures)
		ht.ViolationChart = histogram(t.Name, "violations", t.Violations)
		v.Targets = append(v.Targets, ht)
	}
	v.Yield = layout(yield, 1)
	v.Cost = layout(cost, maxCost)

	v.Slowest = slices.Clone(r.Results)
	slices.SortStableFunc(v.Slowest, func(a, b CaseResult) int { return cmp.Compare(b.Latency, a.Latency) })
	v.Slowest = v.Slowest[:min(len(v.Slowest), htmlSlowest)]

	index := map[string]int{}
	for _, c := range r.Results {
		i, ok := index[c.Case]
		if !ok {
			i = len(v.Cases)
			index[c.Case] = i
			v.Cases = append(v.Cases, htmlCase{ID: c.Case})
		}
		v.Cases[i].Results = append(v.Cases[i].Results, htmlResult{CaseResult: c, Latency: human(c.Latency), Attempts: attempts(c)})
	}
	return v
}

// attempts lays out a run's attempts, each with its outcome and
// violations. A result without Outcomes (built by hand, or read from an
// older report) shows its earlier attempts as re-asked and the last with
// the run's outcome.
func attempts(c CaseResult) []htmlAttempt {
	n := max(c.Calls, len(c.Outcomes))
	for _, v := range c.Violations {
		n = max(n, v.Attempt)
	}
	as := make([]htmlAttempt, n)
	for i := range as {
		as[i] = htmlAttempt{Number: i + 1, Outcome: "re-asked"}
		if i < len(c.Outcomes) {
			as[i].Outcome = string(c.Outcomes[i])
		}
	}
	if n > 0 && len(c.Outcomes) < n {
		last := string(c.Class)
		if c.Valid {
			last = string(enforce.OutcomeValid)
		}
		as[n-1].Outcome = last
	}
	for _, v := range c.Violations {
		if v.Attempt >= 1 && v.Attempt <= n {
			as[v.Attempt-1].Violations = append(as[v.Attempt-1].Violations, v)
		}
	}
	return as
}

// histogram charts the htmlTop largest counts of m.
func histogram[K ~string](target, metric string, m map[K]int) htmlChart {
	es := largest(m, htmlTop)
	bars := make([]htmlBar, len(es))
	largest := 0.0
	for i, e := range es {
		bars[i] = htmlBar{Label: e.key, Target: target, Metric: metric, Key: e.key, Value: float64(e.n), Text: strconv.Itoa(e.n), Class: "failure"}
		largest = max(largest, float64(e.n))
	}
	return layout(bars, largest)
}

// layout places bars one under another, scaled so that largest fills
// barMax.
func layout(bars []htmlBar, largest float64) htmlChart {
	for i := range bars {
		b := &bars[i]
		b.Y, b.Height = barGap+i*(barHeight+barGap), barHeight
		if largest > 0 {
			b.Width = int(b.Value / largest * barMax)
		}
		b.TextX = labelWidth + b.Width + 6
	}
	return htmlChart{Width: chartWidth, Height: barGap + len(bars)*(barHeight+barGap), BarX: labelWidth, Bars: bars}
}

// float, int and ns format a figure exactly, for a data-value attribute:
// the number the report's JSON form has.
func float(f float64) string    { return strconv.FormatFloat(f, 'g', -1, 64) }
func integer(n int) string      { return strconv.Itoa(n) }
func ns(d time.Duration) string { return strconv.FormatInt(int64(d), 10) }

// slowestLatency is the rounded latency of a run in the slowest runs.
func slowestLatency(d time.Duration) string { return human(d) }

// label cuts a chart label to what fits left of the bars; the full label
// is the SVG title.
func label(s string) string { return clip.Ellipsis(s, 34) }
