package gemini_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

const reviewSchema = `{
	"type": "object",
	"properties": {
		"title": {"type": "string", "minLength": 1},
		"severity": {"enum": ["high", "medium", "low"]},
		"note": {"type": "string"}
	},
	"required": ["title", "severity"]
}`

func mustSchema(t *testing.T) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	return s
}

// reply returns a reply in the given mode: text in native mode, a
// submit_result call in tool mode.
func reply(mode enforce.Mode, value string) wireReply {
	if mode == enforce.ModeTool {
		return wireReply{Body: callReply(enforce.ToolName, value)}
	}
	return wireReply{Body: textReply(value, "STOP")}
}

func TestEnforceModes(t *testing.T) {
	for _, mode := range []enforce.Mode{enforce.ModeNative, enforce.ModeTool} {
		t.Run(string(mode), func(t *testing.T) {
			s := newWireServer(t,
				reply(mode, `{"title": "Nil deref", "severity": "critical"}`),
				reply(mode, `{"title": "Nil deref", "severity": "high"}`),
			)
			res, err := enforce.Run(context.Background(), newProvider(t, s), enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithMode(mode))
			require.NoError(t, err)
			assert.JSONEq(t, `{"title": "Nil deref", "severity": "high"}`, string(res.JSON))
			require.Len(t, res.Attempts, 2)
			assert.Equal(t, mode, res.Mode)

			first, second := s.Requests()[0].JSON(t), s.Requests()[1].JSON(t)
			switch mode {
			case enforce.ModeNative:
				gen := first["generationConfig"].(map[string]any)
				sent := gen["responseJsonSchema"].(map[string]any)
				assert.Equal(t, []any{"title", "severity", "note"}, sent["propertyOrdering"], "the gemini dialect orders the properties")
			case enforce.ModeTool:
				assert.Equal(t, map[string]any{"functionCallingConfig": map[string]any{"mode": "ANY", "allowedFunctionNames": []any{"submit_result"}}}, first["toolConfig"])
			}
			contents := second["contents"].([]any)
			last := contents[len(contents)-1].(map[string]any)
			assert.Equal(t, "user", last["role"])
			assert.Contains(t, mustJSON(t, last), "critical", "the re-ask names the wrong value")
		})
	}
}

func TestEnforceAutoPicksNative(t *testing.T) {
	s := newWireServer(t, reply(enforce.ModeNative, `{"title": "x", "severity": "low"}`))
	res, err := enforce.Run(context.Background(), newProvider(t, s), enforce.Request{Prompt: "Review."}, mustSchema(t))
	require.NoError(t, err)
	assert.Equal(t, enforce.ModeNative, res.Mode)
}

func TestEnforceTruncatedRefusedAndRateLimited(t *testing.T) {
	for _, mode := range []enforce.Mode{enforce.ModeNative, enforce.ModeTool} {
		t.Run(string(mode), func(t *testing.T) {
			s := newWireServer(t,
				wireReply{Body: textReply(`{"title": "Nil de`, "MAX_TOKENS")},
				reply(mode, `{"title": "Nil deref", "severity": "high"}`),
			)
			res, err := enforce.Run(context.Background(), newProvider(t, s), enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithMode(mode))
			require.NoError(t, err)
			assert.Equal(t, provider.StopLength, res.Attempts[0].Response.StopReason)
			if mode == enforce.ModeNative {
				assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
			} // in tool mode the loop counts a reply without a call as no_tool_call, cut off or not
			require.Len(t, s.Requests(), 2)

			s = newWireServer(t, wireReply{Body: candidate(`[]`, "SAFETY")})
			res, err = enforce.Run(context.Background(), newProvider(t, s), enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithMode(mode))
			require.ErrorIs(t, err, enforce.ErrRefused)
			assert.Len(t, res.Attempts, 1, "a refusal is not re-asked")

			s = newWireServer(t, wireReply{Body: `{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":3,"totalTokenCount":3}}`})
			_, err = enforce.Run(context.Background(), newProvider(t, s), enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithMode(mode))
			require.ErrorIs(t, err, enforce.ErrRefused)

			s = newWireServer(t, apiError(429, "RESOURCE_EXHAUSTED", "Quota exceeded"))
			res, err = enforce.Run(context.Background(), newProvider(t, s), enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithMode(mode))
			require.ErrorIs(t, err, provider.ErrRateLimited)
			assert.Equal(t, enforce.OutcomeProviderError, res.Attempts[0].Outcome)
		})
	}
}

func TestEnforceSchemaRejectedFallsBack(t *testing.T) {
	rejections := map[string]string{
		"named":        "* GenerateContentRequest.generation_config.response_json_schema: schema is too deeply nested",
		"bare message": "Request contains an invalid argument.",
	}
	for _, mode := range []enforce.Mode{enforce.ModeNative, enforce.ModeTool} {
		for name, message := range rejections {
			t.Run(string(mode)+"/"+name, func(t *testing.T) {
				s := newWireServer(t,
					apiError(400, "INVALID_ARGUMENT", message),
					wireReply{Body: textReply(`{"title": "x", "severity": "low"}`, "STOP")},
				)
				res, err := enforce.Run(context.Background(), newProvider(t, s), enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithMode(mode))
				require.NoError(t, err)
				assert.Equal(t, enforce.ModePrompt, res.Mode)
				assert.Equal(t, enforce.OutcomeSchemaRejected, res.Attempts[0].Outcome)
				retry := s.Requests()[1].JSON(t)
				assert.NotContains(t, retry, "toolConfig")
				assert.NotContains(t, retry, "tools")
				if gen, ok := retry["generationConfig"].(map[string]any); ok {
					assert.NotContains(t, gen, "responseJsonSchema")
				}
				assert.True(t, strings.Contains(mustJSON(t, retry["contents"]), "title"), "the schema is in the prompt")
			})
		}
	}
}

// TestEnforceBareInvalidArgumentWithoutSchema: the API's bare invalid
// argument error to a request without a schema is not a schema rejection.
func TestEnforceBareInvalidArgumentWithoutSchema(t *testing.T) {
	s := newWireServer(t, apiError(400, "INVALID_ARGUMENT", "Request contains an invalid argument."))
	res, err := enforce.Run(context.Background(), newProvider(t, s), enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithMode(enforce.ModePrompt))
	require.ErrorIs(t, err, provider.ErrInvalidRequest)
	assert.NotErrorIs(t, err, provider.ErrSchemaRejected)
	require.Len(t, res.Attempts, 1)
}

// TestThoughtSignatureRoundTrip: a thinking model signs its function
// calls, and the API refuses the call sent back without its signature; the
// re-ask in tool mode carries it, the call's own id and no id of ours.
func TestThoughtSignatureRoundTrip(t *testing.T) {
	tests := []struct {
		name, call string
		wantID     any
	}{
		{name: "call without id", call: `{"functionCall":{"name":"submit_result","args":{"title":"x","severity":"critical"}},"thoughtSignature":"c2lnbmF0dXJlLTE="}`},
		{name: "call with id", call: `{"functionCall":{"id":"call-7","name":"submit_result","args":{"title":"x","severity":"critical"}},"thoughtSignature":"c2lnbmF0dXJlLTE="}`, wantID: "call-7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newWireServer(t,
				wireReply{Body: candidate(`[`+tc.call+`]`, "STOP")},
				reply(enforce.ModeTool, `{"title": "x", "severity": "high"}`),
			)
			res, err := enforce.Run(context.Background(), newProvider(t, s), enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithMode(enforce.ModeTool))
			require.NoError(t, err)
			assert.JSONEq(t, `{"title": "x", "severity": "high"}`, string(res.JSON))

			contents := s.Requests()[1].JSON(t)["contents"].([]any)
			require.Len(t, contents, 3)
			part := contents[1].(map[string]any)["parts"].([]any)[0].(map[string]any)
			assert.Equal(t, "c2lnbmF0dXJlLTE=", part["thoughtSignature"], "the signature goes back as it came")
			assert.Equal(t, tc.wantID, part["functionCall"].(map[string]any)["id"])
			result := contents[2].(map[string]any)["parts"].([]any)[0].(map[string]any)["functionResponse"].(map[string]any)
			assert.Equal(t, tc.wantID, result["id"])
			assert.Equal(t, "submit_result", result["name"])
		})
	}
}
