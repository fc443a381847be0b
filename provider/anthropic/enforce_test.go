package anthropic_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/anthropic"
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
	conv, err := dialect.Convert(s, dialect.Dialect(anthropic.Dialect))
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

// blocks returns a message's content blocks.
func blocks(m map[string]any) []map[string]any {
	var out []map[string]any
	for _, b := range m["content"].([]any) {
		out = append(out, b.(map[string]any))
	}
	return out
}

func TestEnforceNative(t *testing.T) {
	s := newWireServer(t,
		wireReply{Body: textMessage(`{"title":"Crash on save","severity":"critical"}`, "end_turn")},
		wireReply{Body: textMessage(`{"title":"Crash on save","severity":"high"}`, "end_turn")},
	)
	p := newProvider(t, s)
	sch := mustSchema(t, reviewSchema)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, sch)
	require.NoError(t, err)
	assert.Equal(t, enforce.ModeNative, res.Mode, "ModeAuto picks the native mode")
	assert.Equal(t, map[string]any{"title": "Crash on save", "severity": "high"}, res.Value)
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, enforce.OutcomeInvalid, res.Attempts[0].Outcome)
	assert.Equal(t, 2*85, res.Usage.TotalTokens)
	assert.Equal(t, 2*10, res.Usage.CachedInputTokens)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	for _, r := range reqs {
		format := r.JSON(t)["output_config"].(map[string]any)["format"].(map[string]any)
		assert.Equal(t, "json_schema", format["type"])
		assert.JSONEq(t, converted(t, sch), sentJSON(t, format["schema"]), "the adapter sends what dialect.Convert returns")
	}
	reask := turns(t, reqs[1])
	require.Len(t, reask, 3, "the prompt, the bad reply, the re-ask")
	assert.Equal(t, "assistant", reask[1]["role"])
	assert.Equal(t, "user", reask[2]["role"])
	assert.Contains(t, blocks(reask[2])[0]["text"], "critical", "the re-ask quotes the violation")
}

func TestEnforceTool(t *testing.T) {
	s := newWireServer(t,
		wireReply{Body: toolMessage("toolu_1", "submit_result", `{"title":"","severity":"high"}`)},
		wireReply{Body: toolMessage("toolu_2", "submit_result", `{"title":"Crash on save","severity":"high","note":"in the editor"}`)},
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
	tool := tools[0].(map[string]any)
	assert.Equal(t, "submit_result", tool["name"])
	assert.JSONEq(t, converted(t, sch), sentJSON(t, tool["input_schema"]))
	assert.Equal(t, map[string]any{"type": "tool", "name": "submit_result"}, first["tool_choice"])
	assert.NotContains(t, first, "output_config")

	// The re-ask repeats the call, then answers it with an error result in
	// a user turn: the API refuses a tool_use left unanswered.
	reask := turns(t, reqs[1])
	require.Len(t, reask, 3)
	call := blocks(reask[1])
	require.Len(t, call, 1)
	assert.Equal(t, "tool_use", call[0]["type"])
	assert.Equal(t, "toolu_1", call[0]["id"])
	assert.Equal(t, map[string]any{"title": "", "severity": "high"}, call[0]["input"])
	answer := blocks(reask[2])
	require.Len(t, answer, 1)
	assert.Equal(t, "user", reask[2]["role"])
	assert.Equal(t, "tool_result", answer[0]["type"])
	assert.Equal(t, "toolu_1", answer[0]["tool_use_id"])
	assert.Equal(t, true, answer[0]["is_error"])
	assert.Contains(t, sentJSON(t, answer[0]["content"]), "title")
}

// TestEnforceToolCapabilities: a model without structured outputs gets
// the forced tool from ModeAuto.
func TestEnforceToolCapabilities(t *testing.T) {
	s := newWireServer(t, wireReply{Body: toolMessage("toolu_1", "submit_result", `{"title":"Typo","severity":"low"}`)})
	caps := anthropic.ToolCapabilities()
	p, err := anthropic.New(&anthropic.Options{Model: "claude-old", APIKey: "k", BaseURL: s.URL, Capabilities: &caps})
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, mustSchema(t, reviewSchema))
	require.NoError(t, err)
	assert.Equal(t, enforce.ModeTool, res.Mode)
	tool := s.Requests()[0].JSON(t)["tools"].([]any)[0].(map[string]any)
	assert.NotContains(t, tool, "strict", "not strict without StrictSchema")
}

func TestEnforceTruncated(t *testing.T) {
	for _, mode := range []enforce.Mode{enforce.ModeNative, enforce.ModeTool} {
		t.Run(string(mode), func(t *testing.T) {
			cut := textMessage(`{"title":"Crash on sa`, "max_tokens")
			whole := textMessage(`{"title":"Crash on save","severity":"high"}`, "end_turn")
			if mode == enforce.ModeTool {
				cut = message(`[{"type":"tool_use","id":"toolu_1","name":"submit_result","input":{"title":"Crash on sa"}}]`, "max_tokens")
				whole = toolMessage("toolu_2", "submit_result", `{"title":"Crash on save","severity":"high"}`)
			}
			s := newWireServer(t, wireReply{Body: cut}, wireReply{Body: whole})
			p := newProvider(t, s)
			res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review.", MaxTokens: 64},
				mustSchema(t, reviewSchema), enforce.WithMode(mode), enforce.WithRaiseMaxTokens(1024))
			require.NoError(t, err)
			require.Len(t, res.Attempts, 2)
			assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
			reqs := s.Requests()
			assert.EqualValues(t, 64, reqs[0].JSON(t)["max_tokens"])
			assert.EqualValues(t, 128, reqs[1].JSON(t)["max_tokens"], "the retry raises the limit")
		})
	}
}

func TestEnforceRefusal(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textMessage("I can't help with that.", "refusal")})
	p := newProvider(t, s)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, mustSchema(t, reviewSchema))
	require.ErrorIs(t, err, enforce.ErrRefused)
	assert.ErrorContains(t, err, "I can't help with that.")
	require.NotNil(t, res)
	require.Len(t, res.Attempts, 1, "a refusal is not re-asked")
	assert.Equal(t, enforce.OutcomeRefused, res.Attempts[0].Outcome)
	assert.Len(t, s.Requests(), 1)
}

func TestEnforceRateLimited(t *testing.T) {
	s := newWireServer(t, wireReply{Status: 429, Body: apiError("rate_limit_error", "rate limited"), Header: map[string]string{"retry-after": "1"}})
	p := newProvider(t, s)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, mustSchema(t, reviewSchema))
	require.ErrorIs(t, err, provider.ErrRateLimited)
	require.NotNil(t, res)
	require.Len(t, res.Attempts, 1)
	assert.Equal(t, enforce.OutcomeProviderError, res.Attempts[0].Outcome)
}

func TestEnforceSchemaRejectedFallsBackToPrompt(t *testing.T) {
	for _, mode := range []enforce.Mode{enforce.ModeNative, enforce.ModeTool} {
		t.Run(string(mode), func(t *testing.T) {
			s := newWireServer(t,
				wireReply{Status: 400, Body: apiError("invalid_request_error", "output_config.format.schema: Schema is too complex for compilation")},
				wireReply{Body: textMessage("Here:\n```json\n{\"title\":\"Typo\",\"severity\":\"low\"}\n```", "end_turn")},
			)
			p := newProvider(t, s)
			res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, mustSchema(t, reviewSchema), enforce.WithMode(mode))
			require.NoError(t, err)
			assert.Equal(t, enforce.ModePrompt, res.Mode)
			require.Len(t, res.Attempts, 2)
			assert.Equal(t, enforce.OutcomeSchemaRejected, res.Attempts[0].Outcome)
			assert.Equal(t, map[string]any{"title": "Typo", "severity": "low"}, res.Value)

			reqs := s.Requests()
			require.Len(t, reqs, 2)
			second := reqs[1].JSON(t)
			assert.NotContains(t, second, "output_config")
			assert.NotContains(t, second, "tools")
			prompt := blocks(turns(t, reqs[1])[0])[0]["text"].(string)
			assert.Contains(t, prompt, `"severity"`, "prompt mode puts the schema in the prompt")
		})
	}
}
