package eval_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/eval"
)

// sampleReport is a report of three targets over eight cases, with every
// kind of result the page shows; one case ID is markup.
func sampleReport() *eval.Report {
	yes, no := true, false
	ms := time.Millisecond
	var rs []eval.CaseResult
	add := func(r eval.CaseResult) { rs = append(rs, r) }
	for i, id := range []string{"invoice-total", "ticket-triage", "review-diff", "contract-quote", "<script>alert(1)</script>", "address-parse", "sentiment", "meeting-notes"} {
		add(eval.CaseResult{Case: id, Target: "model-a", Valid: true, ValidFirst: true, Calls: 1, Tokens: 420 + 10*i,
			Agrees: &yes, Latency: time.Duration(800+40*i) * ms})
		switch i % 3 {
		case 0:
			add(eval.CaseResult{Case: id, Target: "model-b", Valid: true, Reasks: 1, Calls: 2, Tokens: 900 + 7*i, Agrees: &no,
				Latency:    time.Duration(1900+90*i) * ms,
				Violations: []eval.AttemptViolation{{Attempt: 1, Keyword: "enum", Path: fmt.Sprintf("$.issues[%d].severity", i)}}})
		case 1:
			add(eval.CaseResult{Case: id, Target: "model-b", Class: eval.Class(enforce.OutcomeInvalid), Reasks: 2, Calls: 3, Tokens: 1500,
				Latency: time.Duration(3100+50*i) * ms, Error: `enforce: output invalid after 3 attempts: "<b>"`,
				Violations: []eval.AttemptViolation{
					{Attempt: 1, Keyword: "required", Path: "$.summary"},
					{Attempt: 2, Keyword: "type", Path: "$.total"},
					{Attempt: 3, Keyword: "required", Path: "$.summary"},
				}})
		default:
			add(eval.CaseResult{Case: id, Target: "model-b", Valid: true, ValidFirst: true, Calls: 1, Tokens: 450, Coercions: 1,
				Agrees: &yes, Latency: time.Duration(1200+30*i) * ms})
		}
		local := eval.CaseResult{Case: id, Target: "local \"q4\"", Calls: 1, Tokens: 300, Latency: time.Duration(400+20*i) * ms}
		switch i % 4 {
		case 0:
			local.Valid, local.ValidFirst, local.Repairs, local.Agrees = true, true, 2, &yes
		case 1:
			local.Class, local.Error, local.Calls, local.Reasks = eval.Class(enforce.OutcomeNoJSON), "extract: no JSON value found in text", 3, 2
		case 2:
			local.Class, local.Error = eval.Class(enforce.OutcomeTruncated), "enforce: reply cut at the token limit"
		default:
			local.Valid, local.Calls, local.Reasks = true, 2, 1
			local.Violations = []eval.AttemptViolation{{Attempt: 1, Keyword: "minItems", Path: "$.attendees"}}
		}
		add(local)
	}
	return eval.NewReport(rs)
}

// metricRE matches an element's data attributes, in the order the page
// writes them.
var metricRE = regexp.MustCompile(`data-target="([^"]*)"(?: data-key="([^"]*)")? data-metric="([^"]*)"(?: data-key="([^"]*)")? data-value="([^"]*)"`)

// pageMetrics reads the figures of a page: "target metric key" to every
// value shown under that name.
func pageMetrics(t *testing.T, page string) map[string][]float64 {
	t.Helper()
	m := map[string][]float64{}
	for _, g := range metricRE.FindAllStringSubmatch(page, -1) {
		v, err := strconv.ParseFloat(g[5], 64)
		require.NoError(t, err, g[0])
		key := html.UnescapeString(g[1]) + " " + g[3] + " " + html.UnescapeString(g[2]+g[4])
		m[key] = append(m[key], v)
	}
	return m
}

// reportMetrics gives the figures the page must show, read from the
// report's JSON form: the same names as pageMetrics.
func reportMetrics(t *testing.T, r *eval.Report) map[string]float64 {
	t.Helper()
	data, err := json.Marshal(r)
	require.NoError(t, err)
	var j struct {
		Targets []map[string]any `json:"targets"`
		Results []map[string]any `json:"results"`
	}
	require.NoError(t, json.Unmarshal(data, &j))
	want := map[string]float64{}
	for _, tr := range j.Targets {
		name := tr["name"].(string)
		for _, f := range []string{"cases", "valid_first_rate", "valid_rate", "calls", "calls_per_valid", "tokens_per_valid",
			"coercions", "repairs", "latency_p50_ns", "latency_p95_ns", "agreement_rate"} {
			want[name+" "+f+" "] = tr[f].(float64)
		}
		for _, f := range []string{"failures", "violations"} {
			for k, n := range tr[f].(map[string]any) {
				want[name+" "+f+" "+k] = n.(float64)
			}
		}
	}
	return want
}

func TestHTMLShowsTheReportsFigures(t *testing.T) {
	rep := sampleReport()
	var b bytes.Buffer
	require.NoError(t, rep.HTML(&b))
	page := b.String()
	got := pageMetrics(t, page)
	for k, v := range reportMetrics(t, rep) {
		require.NotEmpty(t, got[k], "the page lacks %q", k)
		for _, g := range got[k] {
			assert.Equal(t, v, g, k)
		}
	}
	// The ten slowest runs, slowest first.
	var slow []string
	for _, g := range metricRE.FindAllStringSubmatch(page, -1) {
		if g[3] == "latency_ns" {
			slow = append(slow, g[5])
		}
	}
	require.Len(t, slow, 10)
	for i, r := range rep.Results {
		if r.Latency >= 3*time.Second {
			assert.Contains(t, slow, strconv.FormatInt(int64(r.Latency), 10), "result %d", i)
		}
	}
	assert.Equal(t, strconv.FormatInt(int64(3450*time.Millisecond), 10), slow[0])
	assert.Equal(t, 8, strings.Count(page, "<details>"), "a <details> per case")
}

func TestHTMLSelfContainedAndEscaped(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, sampleReport().HTML(&b))
	page := b.String()
	assert.True(t, strings.HasPrefix(page, "<!DOCTYPE html>\n"))
	for _, s := range []string{"<script", "<link", "@import", "url(", "http://", "https://", "<img", "<iframe", " src="} {
		assert.NotContains(t, page, s)
	}
	assert.Contains(t, page, "&lt;script&gt;alert(1)&lt;/script&gt;")
	assert.Contains(t, page, `local &#34;q4&#34;`)
	assert.Contains(t, page, `&#34;&lt;b&gt;&#34;`, "error text escaped")
	assert.NotContains(t, page, "<b>")

	// Markup in a target name, a violation's path, a class and an error,
	// in text, attributes and SVG alike.
	evil := `"><script>alert(2)</script>`
	b.Reset()
	require.NoError(t, eval.NewReport([]eval.CaseResult{{Case: evil, Target: evil, Class: eval.Class(evil), Calls: 1, Error: evil,
		Violations: []eval.AttemptViolation{{Attempt: 1, Keyword: evil, Path: "$." + evil}}}}).HTML(&b))
	assert.NotContains(t, b.String(), "<script")
	assert.NotContains(t, b.String(), `"><script`)
	assert.Contains(t, pageMetrics(t, b.String()), evil+" violations "+evil+" $."+evil)

	// Nothing the page prints is marked safe.
	src, err := os.ReadFile("html.go")
	require.NoError(t, err)
	for _, safe := range []string{"template.HTML", "template.JS", "template.CSS", "template.URL", "template.Srcset"} {
		assert.NotContains(t, string(src), safe)
	}
}

func TestHTMLEmptyReport(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, eval.NewReport(nil).HTML(&b))
	assert.Contains(t, b.String(), "</html>")
	assert.NotContains(t, b.String(), "data-metric")
}

func TestHTMLAttempts(t *testing.T) {
	rep := eval.NewReport([]eval.CaseResult{
		{Case: "recorded", Target: "m", Valid: true, Reasks: 2, Calls: 3,
			Outcomes:   []enforce.Outcome{enforce.OutcomeNoJSON, enforce.OutcomeInvalid, enforce.OutcomeValid},
			Violations: []eval.AttemptViolation{{Attempt: 2, Keyword: "enum", Path: "$.severity"}}},
		// Without outcomes (a hand-built or older result) the earlier
		// attempts are shown as re-asked.
		{Case: "older", Target: "m", Class: eval.Class(enforce.OutcomeTruncated), Reasks: 1, Calls: 2},
	})
	var b bytes.Buffer
	require.NoError(t, rep.HTML(&b))
	assert.Contains(t, b.String(), "<li>attempt 1: no_json</li>\n<li>attempt 2: invalid; <code>enum $.severity</code></li>\n<li>attempt 3: valid</li>")
	assert.Contains(t, b.String(), "<li>attempt 1: re-asked</li>\n<li>attempt 2: truncated</li>")
	assert.Contains(t, b.String(), "<summary><code>recorded</code>: m <span class=\"ok\">valid after 2 re-asks</span>;</summary>")
}
