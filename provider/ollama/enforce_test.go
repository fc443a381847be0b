package ollama_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/ollama"
	"github.com/agentio/agentio/schema"
	"github.com/agentio/agentio/schema/dialect"
)

// reviewSchema has an optional property (note), a keyword the dialect may
// rewrite (minLength) and an enum.
const reviewSchema = `{
	"type": "object",
	"properties": {
		"title": {"type": "string", "minLength": 1},
		"severity": {"enum": ["high", "medium", "low"]},
		"note": {"type": "string"}
	},
	"required": ["title", "severity"]
}`

func mustSchema(t *testing.T, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

// converted is the schema the adapter must send for s: what
// dialect.Convert returns for the Provider's dialect, which it knows.
func converted(t *testing.T, s *schema.Schema) string {
	t.Helper()
	conv, err := dialect.Convert(s, dialect.Dialect(ollama.Dialect))
	require.NoError(t, err, "the adapter's dialect is one package dialect knows")
	return string(conv.Schema)
}

// sentJSON re-encodes a decoded part of a request body.
func sentJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// turns returns a request's messages.
func turns(t *testing.T, r wireRequest) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, m := range r.JSON(t)["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

func TestEnforceNative(t *testing.T) {
	s := newWireServer(t,
		wireReply{Body: textChat(`{"title":"Crash on save","severity":"critical"}`, "stop")},
		wireReply{Body: textChat(`{"title":"Crash on save","severity":"high"}`, "stop")},
	)
	p := newProvider(t, s)
	sch := mustSchema(t, reviewSchema)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, sch)
	require.NoError(t, err)
	assert.Equal(t, enforce.ModeNative, res.Mode, "ModeAuto picks the native mode")
	assert.Equal(t, map[string]any{"title": "Crash on save", "severity": "high"}, res.Value)
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, enforce.OutcomeInvalid, res.Attempts[0].Outcome)
	assert.Equal(t, 2*55, res.Usage.TotalTokens)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	for _, r := range reqs {
		assert.JSONEq(t, converted(t, sch), sentJSON(t, r.JSON(t)["format"]), "the adapter sends what dialect.Convert returns")
		assert.Equal(t, false, r.JSON(t)["stream"])
	}
	reask := turns(t, reqs[1])
	require.Len(t, reask, 3, "the prompt, the bad reply, the re-ask")
	assert.Equal(t, "assistant", reask[1]["role"])
	assert.Equal(t, "user", reask[2]["role"])
	assert.Contains(t, reask[2]["content"], "critical", "the re-ask quotes the violation")
}

// TestEnforceTool: Ollama cannot be forced to call the tool; the tool is
// offered, the call's arguments are the output, and the re-ask answers
// the call with a tool message.
func TestEnforceTool(t *testing.T) {
	s := newWireServer(t,
		wireReply{Body: toolChat("", "submit_result", `{"title":"","severity":"high"}`)},
		wireReply{Body: toolChat("", "submit_result", `{"title":"Crash on save","severity":"high","note":"in the editor"}`)},
	)
	p := newProvider(t, s)
	sch := mustSchema(t, reviewSchema)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, sch, enforce.WithMode(enforce.ModeTool))
	require.NoError(t, err)
	assert.Equal(t, enforce.ModeTool, res.Mode)
	assert.Equal(t, map[string]any{"title": "Crash on save", "severity": "high", "note": "in the editor"}, res.Value)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	first := reqs[0].JSON(t)
	tools := first["tools"].([]any)
	require.Len(t, tools, 1)
	fn := tools[0].(map[string]any)["function"].(map[string]any)
	assert.Equal(t, "submit_result", fn["name"])
	assert.JSONEq(t, converted(t, sch), sentJSON(t, fn["parameters"]))
	assert.NotContains(t, first, "tool_choice", "Ollama has none")
	assert.NotContains(t, first, "format")

	reask := turns(t, reqs[1])
	require.Len(t, reask, 4, "the tool instructions, the prompt, the call, its answer")
	assert.Equal(t, "system", reask[0]["role"])
	reask = reask[1:]
	calls := reask[1]["tool_calls"].([]any)
	require.Len(t, calls, 1)
	assert.Equal(t, "call_0", calls[0].(map[string]any)["id"])
	assert.Equal(t, "tool", reask[2]["role"])
	assert.Equal(t, "submit_result", reask[2]["tool_name"])
	assert.Equal(t, "call_0", reask[2]["tool_call_id"])
	assert.Contains(t, reask[2]["content"], "error: ")
	assert.Contains(t, reask[2]["content"], "title")
}

func TestEnforceTruncated(t *testing.T) {
	s := newWireServer(t,
		wireReply{Body: textChat(`{"title":"Crash on sa`, "length")},
		wireReply{Body: textChat(`{"title":"Crash on save","severity":"high"}`, "stop")},
	)
	p := newProvider(t, s)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review.", MaxTokens: 64},
		mustSchema(t, reviewSchema), enforce.WithRaiseMaxTokens(1024))
	require.NoError(t, err)
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
	reqs := s.Requests()
	assert.Equal(t, map[string]any{"num_predict": float64(64)}, reqs[0].JSON(t)["options"])
	assert.Equal(t, map[string]any{"num_predict": float64(128)}, reqs[1].JSON(t)["options"], "the retry raises the limit")
}

// TestEnforceTruncatedReask: without a raised limit, a truncated reply is
// re-asked for a shorter answer, not for a JSON fix.
func TestEnforceTruncatedReask(t *testing.T) {
	s := newWireServer(t,
		wireReply{Body: textChat(`{"title":"Crash on sa`, "length")},
		wireReply{Body: textChat(`{"title":"Crash","severity":"high"}`, "stop")},
	)
	p := newProvider(t, s)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, mustSchema(t, reviewSchema))
	require.NoError(t, err)
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
	reask := turns(t, s.Requests()[1])
	assert.Contains(t, reask[len(reask)-1]["content"], "cut off")
}

func TestEnforceRateLimited(t *testing.T) {
	s := newWireServer(t, wireReply{Status: 429, Body: `{"error":"too many requests"}`})
	p := newProvider(t, s)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, mustSchema(t, reviewSchema))
	require.ErrorIs(t, err, provider.ErrRateLimited)
	require.NotNil(t, res)
	require.Len(t, res.Attempts, 1)
	assert.Equal(t, enforce.OutcomeProviderError, res.Attempts[0].Outcome)
}

// TestEnforceRefusal: Ollama has no refusal signal; a model that declines
// in words gives no JSON, and the loop re-asks until it gives up.
func TestEnforceRefusal(t *testing.T) {
	no := wireReply{Body: textChat("I can't help with that.", "stop")}
	s := newWireServer(t, no, no)
	p := newProvider(t, s)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, mustSchema(t, reviewSchema), enforce.WithMaxRetries(1))
	var ve *enforce.ValidationError
	require.ErrorAs(t, err, &ve)
	require.NotNil(t, res)
	assert.Len(t, ve.Attempts, 2)
	assert.Equal(t, enforce.OutcomeNoJSON, ve.Attempts[0].Outcome)
}

func TestEnforceSchemaRejectedFallsBackToPrompt(t *testing.T) {
	s := newWireServer(t,
		wireReply{Status: 400, Body: `{"error":"invalid format: expected \"json\" or a valid JSON schema"}`},
		wireReply{Body: textChat("Here:\n```json\n{\"title\":\"Typo\",\"severity\":\"low\"}\n```", "stop")},
	)
	p := newProvider(t, s)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, mustSchema(t, reviewSchema))
	require.NoError(t, err)
	assert.Equal(t, enforce.ModePrompt, res.Mode)
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, enforce.OutcomeSchemaRejected, res.Attempts[0].Outcome)
	assert.Equal(t, map[string]any{"title": "Typo", "severity": "low"}, res.Value)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	assert.Contains(t, reqs[0].JSON(t), "format")
	assert.NotContains(t, reqs[1].JSON(t), "format")
	assert.Contains(t, turns(t, reqs[1])[0]["content"], `"severity"`, "prompt mode puts the schema in the prompt")
}
