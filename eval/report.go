package eval

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Report is the outcome of an evaluation: every [CaseResult] and the
// aggregates per target. Its JSON form has stable field names, so a report
// saved by one run is the baseline of the next ([Compare]). A Report is a
// plain value, owned by the caller; it is not modified by its methods.
type Report struct {
	// Targets are the aggregates, one per target, in the order targets
	// first appear in Results.
	Targets []TargetReport `json:"targets"`
	// Results are the runs, one per case and target; of a partial report,
	// those that finished.
	Results []CaseResult `json:"results"`
	// Partial reports a run that was interrupted ([Run]'s context ended):
	// NotRun runs (a case against a target) were not run or were cut
	// short, and are in no figure of the report.
	Partial bool `json:"partial,omitempty"`
	NotRun  int  `json:"not_run,omitempty"`
	// CutShort are the runs of a partial report that the interruption cut
	// short after at least one call, in case order then target order:
	// their calls and tokens were paid for, and are kept here, in no
	// figure of the report. Error holds what their last call returned, if
	// it failed.
	CutShort []CaseResult `json:"cut_short,omitempty"`
}

// A TargetReport aggregates one target's results. Rates are fractions in
// [0, 1]; a rate or a per-valid figure with nothing to divide by is 0.
type TargetReport struct {
	// Name is the target's name.
	Name string `json:"name"`
	// Cases is the number of cases run.
	Cases int `json:"cases"`
	// ValidFirst counts valid outputs on the first call.
	ValidFirst int `json:"valid_first"`
	// ValidFirstRate is ValidFirst / Cases.
	ValidFirstRate float64 `json:"valid_first_rate"`
	// Valid counts valid outputs at any attempt.
	Valid int `json:"valid"`
	// ValidRate is Valid / Cases: the valid-eventually rate.
	ValidRate float64 `json:"valid_rate"`
	// ValidAfter[k] counts the outputs valid after exactly k re-asks.
	ValidAfter []int `json:"valid_after"`
	// Calls and Tokens are the totals over every run, failed ones
	// included.
	Calls  int `json:"calls"`
	Tokens int `json:"tokens"`
	// CallsPerValid and TokensPerValid are Calls and Tokens divided by
	// Valid: what one valid output costs.
	CallsPerValid  float64 `json:"calls_per_valid"`
	TokensPerValid float64 `json:"tokens_per_valid"`
	// Coercions and Repairs count the lenient coercions and repair fixes
	// used.
	Coercions int `json:"coercions"`
	Repairs   int `json:"repairs"`
	// Failures counts failed runs by class.
	Failures map[Class]int `json:"failures"`
	// Violations counts violations of failed attempts by "keyword path",
	// array indices folded to [*] ("enum $.issues[*].severity").
	Violations map[string]int `json:"violations"`
	// LatencyP50 and LatencyP95 are percentiles of the runs' latencies
	// (nearest rank), over runs that made a call: the time in the
	// provider's calls, without waits for the rate limit.
	LatencyP50 time.Duration `json:"latency_p50_ns"`
	LatencyP95 time.Duration `json:"latency_p95_ns"`
	// RateLimitWait is the time the runs waited for the rate limit, in
	// all.
	RateLimitWait time.Duration `json:"rate_limit_wait_ns,omitempty"`
	// Expected counts the valid outputs of cases with an expected value,
	// Agreed those equal to it; AgreementRate is Agreed / Expected.
	Expected      int     `json:"expected"`
	Agreed        int     `json:"agreed"`
	AgreementRate float64 `json:"agreement_rate"`
}

// NewReport aggregates results per target. It keeps results (the slice,
// not a copy) as the report's Results. A nil or empty slice gives a report
// without targets.
func NewReport(results []CaseResult) *Report {
	r := &Report{Results: results}
	index := map[string]int{}
	lat := map[string][]time.Duration{}
	for _, c := range results {
		i, ok := index[c.Target]
		if !ok {
			i = len(r.Targets)
			index[c.Target] = i
			r.Targets = append(r.Targets, TargetReport{
				Name:       c.Target,
				Failures:   map[Class]int{},
				Violations: map[string]int{},
			})
		}
		t := &r.Targets[i]
		t.Cases++
		t.Calls += c.Calls
		t.Tokens += c.Tokens
		t.Coercions += c.Coercions
		t.Repairs += c.Repairs
		t.RateLimitWait += c.RateLimitWait
		if c.Calls > 0 {
			lat[c.Target] = append(lat[c.Target], c.Latency)
		}
		for _, v := range c.Violations {
			t.Violations[v.Keyword+" "+foldIndices(v.Path)]++
		}
		if !c.Valid {
			t.Failures[c.Class]++
			continue
		}
		t.Valid++
		if c.ValidFirst {
			t.ValidFirst++
		}
		for len(t.ValidAfter) <= c.Reasks {
			t.ValidAfter = append(t.ValidAfter, 0)
		}
		t.ValidAfter[c.Reasks]++
		if c.Agrees != nil {
			t.Expected++
			if *c.Agrees {
				t.Agreed++
			}
		}
	}
	for i := range r.Targets {
		t := &r.Targets[i]
		t.ValidFirstRate = ratio(t.ValidFirst, t.Cases)
		t.ValidRate = ratio(t.Valid, t.Cases)
		t.CallsPerValid = ratio(t.Calls, t.Valid)
		t.TokensPerValid = ratio(t.Tokens, t.Valid)
		t.AgreementRate = ratio(t.Agreed, t.Expected)
		l := lat[t.Name]
		slices.Sort(l)
		t.LatencyP50, t.LatencyP95 = percentile(l, 50), percentile(l, 95)
	}
	return r
}

// ratio is a/b, 0 when b is 0.
func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// percentile returns the nearest-rank p-th percentile of sorted, 0 when
// it is empty.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[max(rank, 1)-1]
}

var arrayIndex = regexp.MustCompile(`\[[0-9]+\]`)

// foldIndices replaces array indices in a path by [*], so that the same
// mistake in different items counts as one.
func foldIndices(path string) string { return arrayIndex.ReplaceAllString(path, "[*]") }

// Target returns the aggregates of the named target, or nil.
func (r *Report) Target(name string) *TargetReport {
	for i := range r.Targets {
		if r.Targets[i].Name == name {
			return &r.Targets[i]
		}
	}
	return nil
}

// notRunText says "3 of 5 runs not run".
func (r *Report) notRunText() string {
	text := fmt.Sprintf("%d of %d runs not run", r.NotRun, r.NotRun+len(r.Results))
	if len(r.CutShort) > 0 {
		calls, tokens := 0, 0
		for _, c := range r.CutShort {
			calls += c.Calls
			tokens += c.Tokens
		}
		text += fmt.Sprintf(" (%d cut short after %d %s, %d tokens, counted in no figure)",
			len(r.CutShort), calls, plural(calls, "call"), tokens)
	}
	return text
}

// plural writes "1 call", "2 calls".
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// markdownTop is how many failure entries Markdown lists per target.
const markdownTop = 5

// MarkdownOptions tune [Report.MarkdownWith]. A nil *MarkdownOptions is
// the zero value: every column.
type MarkdownOptions struct {
	// OmitLatency leaves out the latency columns (p50, p95): for a run
	// replayed from recordings, whose latency is that of reading files and
	// changes from run to run.
	OmitLatency bool
}

// Markdown renders a summary fit for a pull-request comment: a table with
// a row per target, then per target its most frequent failure classes and
// violations. It is MarkdownWith(nil).
func (r *Report) Markdown() string { return r.MarkdownWith(nil) }

// MarkdownWith renders the summary of [Report.Markdown] as opts say. Each
// rate comes with its 95% Wilson score interval ("75.0% [53.1%, 88.8%]"),
// durations rounded for people ("6.2 ms").
func (r *Report) MarkdownWith(opts *MarkdownOptions) string {
	latency := opts == nil || !opts.OmitLatency
	var b strings.Builder
	if r.Partial {
		fmt.Fprintf(&b, "**Partial report**: interrupted, %s; the figures are those of the runs that finished.\n\n", r.notRunText())
	}
	if latency {
		b.WriteString("| target | cases | valid first call | valid eventually | calls/valid | tokens/valid | p50 | p95 | agreement |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	} else {
		b.WriteString("| target | cases | valid first call | valid eventually | calls/valid | tokens/valid | agreement |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")
	}
	for _, t := range r.Targets {
		agree := "n/a"
		if t.Expected > 0 {
			agree = fmt.Sprintf("%s (%d/%d)", pct(t.AgreementRate), t.Agreed, t.Expected)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %.2f | %.0f | ",
			mdEscape(t.Name), t.Cases, rateCI(t.ValidFirst, t.Cases), rateCI(t.Valid, t.Cases), t.CallsPerValid, t.TokensPerValid)
		if latency {
			fmt.Fprintf(&b, "%s | %s | ", human(t.LatencyP50), human(t.LatencyP95))
		}
		b.WriteString(agree + " |\n")
	}
	for _, t := range r.Targets {
		if len(t.Failures) == 0 && len(t.Violations) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n**%s**\n", mdEscape(t.Name))
		if len(t.Failures) > 0 {
			b.WriteString("\nFailures: ")
			for i, e := range top(t.Failures) {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s %d", e.key, e.n)
			}
			b.WriteString("\n")
		}
		if len(t.Violations) > 0 {
			b.WriteString("\nViolations (keyword, path, attempts):\n")
			for _, e := range top(t.Violations) {
				fmt.Fprintf(&b, "- `%s` %d\n", strings.ReplaceAll(e.key, "`", "'"), e.n)
			}
		}
	}
	return b.String()
}

type entry struct {
	key string
	n   int
}

// top returns the markdownTop largest entries of m, by count then key.
func top[K ~string](m map[K]int) []entry { return largest(m, markdownTop) }

// largest returns the n largest entries of m, by count then key.
func largest[K ~string](m map[K]int, n int) []entry {
	var es []entry
	for k, n := range m {
		es = append(es, entry{string(k), n})
	}
	slices.SortFunc(es, func(a, b entry) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.key, b.key)
	})
	return es[:min(len(es), n)]
}

func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// ci95 writes the 95% Wilson score interval of k of n: "[53.1%, 88.8%]".
func ci95(k, n int) string {
	lo, hi := Wilson(k, n, 1.96)
	return "[" + pct(lo) + ", " + pct(hi) + "]"
}

// rateCI writes the rate k/n with its 95% interval.
func rateCI(k, n int) string { return pct(ratio(k, n)) + " " + ci95(k, n) }

// human writes a duration rounded for people: two or three significant
// figures in the largest unit that keeps one before the point once
// rounded ("850 µs", "6.2 ms", "1.7 s", "42 s", "3.5 min"; 999.7 ms is
// "1.0 s", not "1000 ms").
func human(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	units := []struct {
		name string
		size time.Duration
		next float64 // how many make the next unit
	}{
		{"ns", time.Nanosecond, 1000}, {"µs", time.Microsecond, 1000}, {"ms", time.Millisecond, 1000},
		{"s", time.Second, 60}, {"min", time.Minute, math.Inf(1)},
	}
	i := 0
	for i < len(units)-1 && d >= units[i+1].size {
		i++
	}
	for {
		v := float64(d) / float64(units[i].size)
		text := strconv.FormatFloat(v, 'f', 1, 64)
		if v >= 9.95 {
			text = strconv.FormatFloat(v, 'f', 0, 64)
		}
		if r, _ := strconv.ParseFloat(text, 64); r >= units[i].next {
			i++
			continue
		}
		return text + " " + units[i].name
	}
}

// mdEscape keeps a name from breaking a table row.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "*", `\*`, "_", `\_`).Replace(s)
}
