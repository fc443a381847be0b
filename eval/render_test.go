package eval_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/eval"
)

// TestHumanDurations: durations are rounded for people, in the Markdown
// and on the page.
func TestHumanDurations(t *testing.T) {
	rep := eval.NewReport([]eval.CaseResult{
		{Case: "a", Target: "m", Valid: true, ValidFirst: true, Calls: 1, Latency: 6238998 * time.Nanosecond},
		{Case: "b", Target: "m", Valid: true, ValidFirst: true, Calls: 1, Latency: 1749 * time.Millisecond},
	})
	md := rep.Markdown()
	assert.Contains(t, md, "| 6.2 ms | 1.7 s |")
	var page strings.Builder
	require.NoError(t, rep.HTML(&page))
	assert.Contains(t, page.String(), ">6.2 ms<")
	assert.Contains(t, page.String(), ">1.7 s<")
	assert.NotContains(t, page.String(), "6.238998ms")
	assert.NotContains(t, page.String(), "6.24ms")
}

// TestRatesWithIntervals: each rate is shown with its 95% interval.
func TestRatesWithIntervals(t *testing.T) {
	var rs []eval.CaseResult
	for i := range 20 {
		rs = append(rs, eval.CaseResult{Case: "c", Target: "m", Valid: i < 18, ValidFirst: i < 15, Calls: 1})
	}
	rep := eval.NewReport(rs)
	assert.Contains(t, rep.Markdown(), "| m | 20 | 75.0% [53.1%, 88.8%] | 90.0% [69.9%, 97.2%] |")
	var page strings.Builder
	require.NoError(t, rep.HTML(&page))
	assert.Contains(t, page.String(), "75.0% (15) <span class=\"ci\">[53.1%, 88.8%]</span>")
}

// TestHTMLReplayed: for a replayed run the page leaves out the latency
// columns and the slowest runs, as the Markdown does.
func TestHTMLReplayed(t *testing.T) {
	rep := sampleReport()
	var page strings.Builder
	require.NoError(t, rep.HTMLWith(&page, &eval.HTMLOptions{OmitLatency: true}))
	s := page.String()
	assert.NotContains(t, s, "Slowest runs")
	assert.NotContains(t, s, "<th>p50</th>")
	assert.NotContains(t, s, "latency_p50_ns")
	assert.NotContains(t, s, "<th>latency</th>")
	page.Reset()
	require.NoError(t, rep.HTML(&page))
	assert.Contains(t, page.String(), "Slowest runs")
	assert.Contains(t, page.String(), "<th>p50</th>")
}

// TestHTMLComparison: with a verdict, the page has a section comparing the
// two runs: both rates and sizes, the interval, and the gate's verdict.
func TestHTMLComparison(t *testing.T) {
	firsts := func(k, n int) *eval.Report {
		var rs []eval.CaseResult
		for i := range n {
			rs = append(rs, eval.CaseResult{Case: "c", Target: "m", Valid: true, ValidFirst: i < k, Calls: 1})
		}
		return eval.NewReport(rs)
	}
	base, cur := firsts(460, 500), firsts(400, 500)
	v, err := eval.Compare(base, cur, nil)
	require.NoError(t, err)
	var page strings.Builder
	require.NoError(t, cur.HTMLWith(&page, &eval.HTMLOptions{Comparison: &v}))
	s := page.String()
	assert.Contains(t, s, "Against the baseline")
	assert.Contains(t, s, `<td class="bad">regressed</td>`)
	assert.Contains(t, s, "92.0% of 500")
	assert.Contains(t, s, "80.0% of 500")
	assert.Contains(t, s, "-16.4 to -7.6")
	page.Reset()
	require.NoError(t, cur.HTML(&page))
	assert.NotContains(t, page.String(), "Against the baseline")
}
