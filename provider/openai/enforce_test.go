package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/openai"
	"github.com/agentio/agentio/schema"
)

// reviewSchema has an optional property (note), a keyword strict mode
// lacks (minLength) and an enum: what the dialect conversion rewrites.
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

// messages returns the request's messages (Chat Completions) or input
// items (Responses).
func messages(t *testing.T, r wireRequest) []any {
	t.Helper()
	body := r.JSON(t)
	if m, ok := body["messages"].([]any); ok {
		return m
	}
	items, _ := body["input"].([]any)
	return items
}

// replyText is a reply with text content in api's wire format, finished
// normally.
func replyText(api openai.API, text string) string {
	if api == openai.APIResponses {
		return responsesReply("completed", "", responsesText(text))
	}
	return textReply(text, "stop")
}

// outputFormat returns the output format a request sent: Chat
// Completions' response_format.json_schema (with "type" beside it) or the
// Responses API's text.format, where name, strict and schema sit at the
// top. nil when the request has none.
func outputFormat(t *testing.T, api openai.API, r wireRequest) map[string]any {
	t.Helper()
	body := r.JSON(t)
	if api == openai.APIResponses {
		text, _ := body["text"].(map[string]any)
		format, _ := text["format"].(map[string]any)
		return format
	}
	format, _ := body["response_format"].(map[string]any)
	if format == nil {
		return nil
	}
	js, _ := format["json_schema"].(map[string]any)
	require.NotNil(t, js, "response_format: %v", format)
	js["type"] = format["type"]
	return js
}

func TestEnforceNative(t *testing.T) {
	usage := map[openai.API]int{openai.APIChatCompletions: 70, openai.APIResponses: 52}
	for _, api := range []openai.API{openai.APIChatCompletions, openai.APIResponses} {
		t.Run(string(api)+"/", func(t *testing.T) {
			s := newWireServer(t,
				wireReply{Body: replyText(api, `{"title":"Crash on save","severity":"critical","note":null}`)},
				wireReply{Body: replyText(api, `{"title":"Crash on save","severity":"high","note":null}`)},
			)
			p := newOfficial(t, s, api)
			res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, mustSchema(t, reviewSchema))
			require.NoError(t, err)
			assert.Equal(t, enforce.ModeNative, res.Mode)
			assert.Equal(t, map[string]any{"title": "Crash on save", "severity": "high"}, res.Value, "the null of the optional note is removed")
			require.Len(t, res.Attempts, 2)
			assert.Equal(t, 2*usage[api], res.Usage.TotalTokens)

			reqs := s.Requests()
			require.Len(t, reqs, 2)
			format := outputFormat(t, api, reqs[0])
			require.NotNil(t, format)
			assert.Equal(t, "json_schema", format["type"])
			assert.Equal(t, true, format["strict"])
			sent, err := json.Marshal(format["schema"])
			require.NoError(t, err)
			assert.JSONEq(t, `{"type":"object","properties":{
				"title":{"type":"string","description":"(minLength: 1)"},
				"severity":{"enum":["high","medium","low"]},
				"note":{"type":["string","null"]}},
				"required":["title","severity","note"],"additionalProperties":false}`, string(sent))

			reask := messages(t, reqs[1])
			require.Len(t, reask, 3, "the prompt, the bad reply, the re-ask")
			assert.Equal(t, "assistant", reask[1].(map[string]any)["role"])
			last := reask[2].(map[string]any)
			assert.Equal(t, "user", last["role"])
			assert.Contains(t, last["content"], "critical", "the re-ask quotes the violation")
			assert.NotNil(t, outputFormat(t, api, reqs[1]), "the re-ask keeps the native format")
		})
	}
}

func TestEnforceTool(t *testing.T) {
	for _, api := range []openai.API{openai.APIChatCompletions, openai.APIResponses} {
		t.Run(string(api)+"/", func(t *testing.T) {
			call := func(id, args string) string {
				if api == openai.APIResponses {
					a, _ := json.Marshal(args)
					return responsesReply("completed", "", `[{"type":"function_call","id":"fc_`+id+`","call_id":"`+id+
						`","name":"submit_result","arguments":`+string(a)+`,"status":"completed"}]`)
				}
				return toolReply(id, "submit_result", args, "stop")
			}
			s := newWireServer(t,
				wireReply{Body: call("call_1", `{"title":"","severity":"high","note":null}`)},
				wireReply{Body: call("call_2", `{"title":"Crash on save","severity":"high","note":"in the editor"}`)},
			)
			p := newOfficial(t, s, api)
			res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."},
				mustSchema(t, reviewSchema), enforce.WithMode(enforce.ModeTool))
			require.NoError(t, err)
			assert.Equal(t, enforce.ModeTool, res.Mode)
			assert.Equal(t, map[string]any{"title": "Crash on save", "severity": "high", "note": "in the editor"}, res.Value)

			reqs := s.Requests()
			require.Len(t, reqs, 2)
			first := reqs[0].JSON(t)
			tools := first["tools"].([]any)
			require.Len(t, tools, 1)
			tool := tools[0].(map[string]any)
			if fn, ok := tool["function"].(map[string]any); ok {
				tool = fn
			}
			assert.Equal(t, "submit_result", tool["name"])
			assert.Equal(t, true, tool["strict"])
			choice := first["tool_choice"].(map[string]any)
			assert.Equal(t, "function", choice["type"])

			// The re-ask repeats the forced call, then answers it with a
			// tool message: OpenAI refuses an answer to a call it cannot
			// see, and a call left unanswered.
			reask := messages(t, reqs[1])
			called, answered := -1, -1
			for i, m := range reask {
				m := m.(map[string]any)
				if m["type"] == "function_call" && m["call_id"] == "call_1" {
					called = i
				}
				if calls, ok := m["tool_calls"].([]any); ok && m["role"] == "assistant" && len(calls) == 1 && calls[0].(map[string]any)["id"] == "call_1" {
					called = i
				}
				if m["role"] == "tool" && m["tool_call_id"] == "call_1" || m["type"] == "function_call_output" && m["call_id"] == "call_1" {
					answered = i
					text, _ := m["content"].(string)
					if text == "" {
						text, _ = m["output"].(string)
					}
					assert.True(t, strings.HasPrefix(text, "error: "), "the failed call is reported as an error: %q", text)
					assert.Contains(t, text, "title")
				}
			}
			require.GreaterOrEqual(t, answered, 0, "the submit_result call is answered: %v", reask)
			assert.GreaterOrEqual(t, called, 0, "the call is repeated: %v", reask)
			assert.Less(t, called, answered, "the call comes before its answer: %v", reask)
		})
	}
}

func TestEnforcePromptAndSystem(t *testing.T) {
	tests := []struct {
		name   string
		mode   enforce.Mode
		inUser bool
	}{
		{name: "prompt", mode: enforce.ModePrompt, inUser: true},
		{name: "system", mode: enforce.ModeSystem},
	}
	for _, api := range []openai.API{openai.APIChatCompletions, openai.APIResponses} {
		for _, tt := range tests {
			t.Run(string(api)+"/"+tt.name, func(t *testing.T) {
				s := newWireServer(t, wireReply{Body: replyText(api, "Here it is:\n```json\n{\"title\":\"Typo\",\"severity\":\"low\"}\n```")})
				p := newOfficial(t, s, api)
				res, err := enforce.Run(context.Background(), p, enforce.Request{System: "You review code.", Prompt: "Review the diff."},
					mustSchema(t, reviewSchema), enforce.WithMode(tt.mode))
				require.NoError(t, err)
				assert.Equal(t, tt.mode, res.Mode)
				assert.Equal(t, map[string]any{"title": "Typo", "severity": "low"}, res.Value)

				req := s.Requests()[0]
				body := req.JSON(t)
				assert.Nil(t, outputFormat(t, api, req))
				assert.NotContains(t, body, "tools")
				msgs := messages(t, req)
				system, _ := body["instructions"].(string) // Responses
				if api == openai.APIChatCompletions {
					require.Equal(t, "system", msgs[0].(map[string]any)["role"])
					system = msgs[0].(map[string]any)["content"].(string)
					msgs = msgs[1:]
				}
				require.Len(t, msgs, 1)
				user := msgs[0].(map[string]any)["content"].(string)
				if tt.inUser {
					assert.Contains(t, user, `"severity"`)
					assert.Equal(t, "You review code.", system)
				} else {
					assert.Contains(t, system, `"severity"`)
					assert.Equal(t, "Review the diff.", user)
				}
			})
		}
	}
}

func TestEnforceSchemaRejectedFallsBackToPrompt(t *testing.T) {
	s := newWireServer(t,
		wireReply{Status: 400, Body: apiError("Invalid schema for response_format 'result': In context=('properties', 'severity'), 'enum' is not permitted.",
			"invalid_request_error", "response_format", "invalid_json_schema")},
		wireReply{Body: textReply(`{"title":"Typo","severity":"low"}`, "stop")},
	)
	p := newOfficial(t, s, openai.APIChatCompletions)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, mustSchema(t, reviewSchema))
	require.NoError(t, err)
	assert.Equal(t, enforce.ModePrompt, res.Mode)
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, enforce.OutcomeSchemaRejected, res.Attempts[0].Outcome)
	assert.Equal(t, map[string]any{"title": "Typo", "severity": "low"}, res.Value)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	assert.Contains(t, reqs[0].JSON(t), "response_format")
	assert.NotContains(t, reqs[1].JSON(t), "response_format")
}

func TestEnforceWrappedRoot(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textReply(`{"value":["a","b"]}`, "stop")})
	p := newOfficial(t, s, openai.APIChatCompletions)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "List two letters."},
		mustSchema(t, `{"type":"array","items":{"type":"string"},"minItems":2}`))
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "b"}, res.Value)
	js := s.Requests()[0].JSON(t)["response_format"].(map[string]any)["json_schema"].(map[string]any)
	assert.Equal(t, true, js["strict"])
	assert.Equal(t, []any{"value"}, js["schema"].(map[string]any)["required"])
}

// TestEnforceCompatibleServer: with a compatible server the schema goes
// out as written, not strict, and tool mode asks for "required".
func TestEnforceCompatibleServer(t *testing.T) {
	s := newWireServer(t,
		wireReply{Body: textReply(`{"title":"Typo","severity":"low"}`, "stop")},
		wireReply{Body: toolReply("call_1", "submit_result", `{"title":"Typo","severity":"low"}`, "tool_calls")},
	)
	p, err := openai.New(&openai.Options{Model: "qwen3", BaseURL: s.URL + "/v1"})
	require.NoError(t, err)
	sch := mustSchema(t, reviewSchema)

	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, sch)
	require.NoError(t, err)
	assert.Equal(t, enforce.ModeNative, res.Mode)
	js := s.Requests()[0].JSON(t)["response_format"].(map[string]any)["json_schema"].(map[string]any)
	assert.NotContains(t, js, "strict")
	sent, err := json.Marshal(js["schema"])
	require.NoError(t, err)
	assert.JSONEq(t, reviewSchema, string(sent), "the schema is sent as written")

	res, err = enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, sch, enforce.WithMode(enforce.ModeTool))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"title": "Typo", "severity": "low"}, res.Value)
	assert.Equal(t, "required", s.Requests()[1].JSON(t)["tool_choice"])
}
