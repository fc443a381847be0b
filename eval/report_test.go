package eval_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider/providertest"
)

func TestNewReportLatencyAndFolding(t *testing.T) {
	var rs []eval.CaseResult
	for i := 1; i <= 20; i++ {
		rs = append(rs, eval.CaseResult{Case: "c", Target: "m", Valid: true, ValidFirst: true, Calls: 1, Tokens: 10,
			Latency: time.Duration(i) * time.Millisecond})
	}
	// A run that never called is left out of the latencies.
	rs = append(rs, eval.CaseResult{Case: "s", Target: "m", Class: eval.ClassSetup, Latency: time.Hour})
	rs = append(rs, eval.CaseResult{Case: "v", Target: "m", Class: eval.Class(enforce.OutcomeInvalid), Calls: 3, Tokens: 30, Latency: 21 * time.Millisecond,
		Violations: []eval.AttemptViolation{
			{Attempt: 1, Keyword: "enum", Path: "$.issues[0].severity"},
			{Attempt: 2, Keyword: "enum", Path: "$.issues[12].severity"},
			{Attempt: 3, Keyword: "required", Path: "$.summary"},
		}})
	rep := eval.NewReport(rs)
	require.Len(t, rep.Targets, 1)
	m := rep.Targets[0]
	assert.Equal(t, 22, m.Cases)
	assert.Equal(t, 11*time.Millisecond, m.LatencyP50)
	assert.Equal(t, 20*time.Millisecond, m.LatencyP95)
	assert.Equal(t, map[string]int{"enum $.issues[*].severity": 2, "required $.summary": 1}, m.Violations)
	assert.Equal(t, map[eval.Class]int{eval.ClassSetup: 1, eval.Class(enforce.OutcomeInvalid): 1}, m.Failures)
	assert.InDelta(t, 23.0/20, m.CallsPerValid, 1e-9, "failed runs' calls count too")
	assert.InDelta(t, 230.0/20, m.TokensPerValid, 1e-9)
	assert.Zero(t, m.AgreementRate, "no expected values")

	assert.Empty(t, eval.NewReport(nil).Targets)
	assert.Nil(t, rep.Target("other"))
}

func TestReportJSONRoundTrip(t *testing.T) {
	yes := true
	rep := eval.NewReport([]eval.CaseResult{
		{Case: "a", Target: "m", Valid: true, ValidFirst: true, Calls: 1, Agrees: &yes, Latency: time.Millisecond},
		{Case: "b", Target: "m", Class: eval.Class(enforce.OutcomeTruncated), Calls: 3, Error: "cut"},
	})
	data, err := json.Marshal(rep)
	require.NoError(t, err)
	for _, name := range []string{`"valid_first_rate"`, `"valid_rate"`, `"calls_per_valid"`, `"tokens_per_valid"`,
		`"failures":{"truncated":1}`, `"latency_p95_ns"`, `"agreement_rate":1`, `"valid_after":[1]`, `"class":"truncated"`} {
		assert.Contains(t, string(data), name)
	}
	var back eval.Report
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Equal(t, *rep, back)
}

func TestMarkdown(t *testing.T) {
	no := false
	rep := eval.NewReport([]eval.CaseResult{
		{Case: "a", Target: "gpt|mini", Valid: true, ValidFirst: true, Calls: 1, Tokens: 100, Agrees: &no, Latency: 1500 * time.Millisecond},
		{Case: "b", Target: "gpt|mini", Class: eval.Class(enforce.OutcomeRefused), Calls: 1},
		{Case: "a", Target: "local", Class: eval.Class(enforce.OutcomeInvalid), Calls: 3,
			Violations: []eval.AttemptViolation{{Attempt: 1, Keyword: "type", Path: "$.n"}}},
	})
	md := rep.Markdown()
	assert.Contains(t, md, "| target | cases | valid first call | valid eventually | calls/valid | tokens/valid | p50 | p95 | agreement |\n")
	assert.Contains(t, md, "| gpt\\|mini | 2 | 50.0% [9.5%, 90.5%] | 50.0% [9.5%, 90.5%] | 2.00 | 100 | 0 | 1.5 s | 0.0% (0/1) |\n")
	assert.Contains(t, md, "| local | 1 | 0.0% [0.0%, 79.3%] | 0.0% [0.0%, 79.3%] | 0.00 | 0 | 0 | 0 | n/a |\n")
	assert.Contains(t, md, "**gpt\\|mini**\n\nFailures: refused 1\n")
	assert.Contains(t, md, "**local**\n\nFailures: invalid 1\n\nViolations (keyword, path, attempts):\n- `type $.n` 1\n")

	// Without latency: the same rows but the p50 and p95 cells, and the
	// same lists.
	quiet := rep.MarkdownWith(&eval.MarkdownOptions{OmitLatency: true})
	assert.Contains(t, quiet, "| target | cases | valid first call | valid eventually | calls/valid | tokens/valid | agreement |\n|---|---:|---:|---:|---:|---:|---:|\n")
	assert.Contains(t, quiet, "| gpt\\|mini | 2 | 50.0% [9.5%, 90.5%] | 50.0% [9.5%, 90.5%] | 2.00 | 100 | 0.0% (0/1) |\n")
	assert.Contains(t, quiet, "| local | 1 | 0.0% [0.0%, 79.3%] | 0.0% [0.0%, 79.3%] | 0.00 | 0 | n/a |\n")
	assert.NotContains(t, quiet, "p50")
	assert.Equal(t, md[strings.Index(md, "\n**"):], quiet[strings.Index(quiet, "\n**"):])
}

func TestRunGroundedInvariant(t *testing.T) {
	c := eval.Case{
		ID:         "quote",
		Schema:     []byte(`{"type": "object", "properties": {"evidence": {"type": "string"}}, "required": ["evidence"]}`),
		Parameters: map[string]any{"contract": "The tenant pays on the first day.", "prompt": "Quote the payment term."},
		Invariants: []crosscheck.Invariant{{Kind: "quote_in_input", Values: "$.evidence", Parameter: "contract"}},
	}
	p := providertest.New(
		providertest.Text(`{"evidence": "The landlord pays."}`),
		providertest.Text(`{"evidence": "The tenant pays on the first day."}`),
	)
	rep, err := eval.Run(context.Background(), []eval.Case{c}, []eval.Target{{Name: "m", Provider: p}})
	require.NoError(t, err)
	r := rep.Results[0]
	assert.True(t, r.Valid, r.Error)
	assert.False(t, r.ValidFirst, "the invented quote was re-asked")
	require.Len(t, r.Violations, 1)
	assert.Equal(t, "$.evidence", r.Violations[0].Path)
	assert.Contains(t, p.Requests()[0].Messages[0].Content, "<inputs>", "parameters rendered before the prompt")
}

// TestHumanDuration: durations are written with two or three significant
// figures in the largest unit that keeps one before the point once
// rounded, so that one rounding up to the next unit is written in it.
func TestHumanDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{850 * time.Microsecond, "850 µs"},
		{999600 * time.Nanosecond, "1.0 ms"},
		{999 * time.Nanosecond, "999 ns"},
		{999700 * time.Microsecond, "1.0 s"},
		{9960 * time.Microsecond, "10 ms"},
		{6200 * time.Microsecond, "6.2 ms"},
		{42 * time.Second, "42 s"},
		{59700 * time.Millisecond, "1.0 min"},
		{210 * time.Second, "3.5 min"},
	}
	for _, tt := range tests {
		r := eval.NewReport([]eval.CaseResult{{Case: "a", Target: "m", Valid: true, ValidFirst: true, Calls: 1, Latency: tt.d}})
		md := r.Markdown()
		row := md[strings.LastIndex(md, "| m |"):]
		assert.Contains(t, row, "| "+tt.want+" |", "%v", tt.d)
	}
}
