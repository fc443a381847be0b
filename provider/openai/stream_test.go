package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openai"
	"github.com/agentio/agentio/provider/providertest"
)

// sse is a server-sent-events body of the given data lines, ended by
// [DONE] as OpenAI ends its streams.
func sse(events ...string) wireReply {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return wireReply{Body: b.String(), Header: map[string]string{"Content-Type": "text/event-stream"}}
}

// chatChunk is one Chat Completions stream chunk with the given delta and
// finish reason ("" for none).
func chatChunk(delta, finish string) string {
	f := `null`
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test-2026",` +
		`"choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}`
}

func textDelta(s string) string {
	b, _ := json.Marshal(s)
	return `{"content":` + string(b) + `}`
}

// usageChunk is the last chunk a stream with include_usage sends.
const usageChunk = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test-2026","choices":[],` +
	`"usage":{"prompt_tokens":50,"completion_tokens":20,"total_tokens":70}}`

// streamAll reads the whole reply p streams for req.
func streamAll(p *openai.Provider, req *provider.Request) ([]provider.Chunk, error) {
	return providertest.Chunks(p.Stream(context.Background(), req))
}

func TestStreamChat(t *testing.T) {
	s := newWireServer(t, sse(
		chatChunk(`{"role":"assistant","content":""}`, ""),
		chatChunk(textDelta(`{"title": "Nil`), ""),
		chatChunk(textDelta(` deref", "severity": "high"}`), ""),
		chatChunk(`{}`, "stop"),
		usageChunk,
	))
	p := newOfficial(t, s, openai.APIChatCompletions)
	chunks, err := streamAll(p, &provider.Request{Messages: []provider.Message{provider.UserMessage("Review.")}})
	require.NoError(t, err)
	require.Len(t, chunks, 3)
	assert.Equal(t, `{"title": "Nil`, chunks[0].Text)
	final := chunks[2].Response
	require.NotNil(t, final)
	assert.Equal(t, `{"title": "Nil deref", "severity": "high"}`, final.Text)
	assert.Equal(t, provider.StopEnd, final.StopReason)
	assert.Equal(t, 70, final.Usage.TotalTokens)

	body := s.Requests()[0].JSON(t)
	assert.Equal(t, true, body["stream"])
	assert.Equal(t, map[string]any{"include_usage": true}, body["stream_options"])
}

func TestStreamChatToolCalls(t *testing.T) {
	s := newWireServer(t, sse(
		chatChunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_9","type":"function","function":{"name":"submit_result","arguments":""}}]}`, ""),
		chatChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"title\": "}}]}`, ""),
		chatChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"x\"}"}}]}`, ""),
		chatChunk(`{}`, "tool_calls"),
		usageChunk,
	))
	p := newOfficial(t, s, openai.APIChatCompletions)
	chunks, err := streamAll(p, &provider.Request{Messages: []provider.Message{provider.UserMessage("Review.")}})
	require.NoError(t, err)
	require.Len(t, chunks, 4)
	assert.Equal(t, provider.ToolCallDelta{Index: 0, ID: "call_9", Name: "submit_result"}, *chunks[0].ToolCall)
	assert.Equal(t, `{"title": `, chunks[1].ToolCall.Arguments)
	final := chunks[3].Response
	require.Len(t, final.ToolCalls, 1)
	assert.JSONEq(t, `{"title": "x"}`, string(final.ToolCalls[0].Arguments))
	assert.Equal(t, provider.StopToolUse, final.StopReason)
}

func TestStreamChatTruncatedAndCutOff(t *testing.T) {
	s := newWireServer(t,
		sse(chatChunk(textDelta(`{"title": "lo`), ""), chatChunk(`{}`, "length")),
		sse(chatChunk(textDelta(`{"title": "lo`), "")), // no finish reason: cut off
	)
	p := newOfficial(t, s, openai.APIChatCompletions)
	req := &provider.Request{Messages: []provider.Message{provider.UserMessage("Review.")}}
	chunks, err := streamAll(p, req)
	require.NoError(t, err)
	assert.Equal(t, provider.StopLength, chunks[len(chunks)-1].Response.StopReason)

	resp, err := provider.Collect(p.Stream(context.Background(), req))
	require.NoError(t, err)
	assert.Equal(t, provider.StopLength, resp.StopReason, "a stream without its end is read as cut off")
	assert.Equal(t, `{"title": "lo`, resp.Text)
}

func TestStreamChatErrors(t *testing.T) {
	s := newWireServer(t,
		wireReply{Status: http.StatusTooManyRequests, Body: apiError("Rate limit reached", "requests", "", "rate_limit_exceeded")},
		wireReply{Status: http.StatusBadRequest, Body: apiError("Invalid schema for response_format 'output'", "invalid_request_error", "response_format", "")},
	)
	p := newOfficial(t, s, openai.APIChatCompletions)
	req := &provider.Request{Messages: []provider.Message{provider.UserMessage("Review.")}}
	_, err := streamAll(p, req)
	require.ErrorIs(t, err, provider.ErrRateLimited)
	_, err = streamAll(p, req)
	require.ErrorIs(t, err, provider.ErrSchemaRejected)
	_, err = streamAll(p, nil)
	require.ErrorIs(t, err, provider.ErrInvalidRequest)
}

func TestStreamResponses(t *testing.T) {
	final := responsesReply("completed", "", `[{"type":"function_call","id":"fc_1","call_id":"call_7","name":"submit_result","arguments":"{\"title\": \"x\"}","status":"completed"}]`)
	s := newWireServer(t, sse(
		`{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress","output":[]}}`,
		`{"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Calling."}`,
		`{"type":"response.output_item.added","sequence_number":2,"output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_7","name":"submit_result","arguments":"","status":"in_progress"}}`,
		`{"type":"response.function_call_arguments.delta","sequence_number":3,"item_id":"fc_1","output_index":1,"delta":"{\"title\": "}`,
		`{"type":"response.function_call_arguments.delta","sequence_number":4,"item_id":"fc_1","output_index":1,"delta":"\"x\"}"}`,
		`{"type":"response.completed","sequence_number":5,"response":`+final+`}`,
	))
	p := newOfficial(t, s, openai.APIResponses)
	chunks, err := streamAll(p, &provider.Request{Messages: []provider.Message{provider.UserMessage("Review.")}})
	require.NoError(t, err)
	require.Len(t, chunks, 5)
	assert.Equal(t, "Calling.", chunks[0].Text)
	assert.Equal(t, provider.ToolCallDelta{Index: 0, ID: "call_7", Name: "submit_result"}, *chunks[1].ToolCall)
	assert.Equal(t, `"x"}`, chunks[3].ToolCall.Arguments)
	resp := chunks[4].Response
	require.Len(t, resp.ToolCalls, 1)
	assert.Equal(t, 52, resp.Usage.TotalTokens)
	assert.Equal(t, true, s.Requests()[0].JSON(t)["stream"])
}

func TestStreamResponsesErrorEvent(t *testing.T) {
	s := newWireServer(t, sse(`{"type":"error","sequence_number":0,"code":"server_error","message":"The server had an error"}`))
	p := newOfficial(t, s, openai.APIResponses)
	_, err := streamAll(p, &provider.Request{Messages: []provider.Message{provider.UserMessage("Review.")}})
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "server_error", pe.Code)
}

// TestStreamThroughEnforce runs enforce.Run with WithPartials against the wire server in
// prompt mode: a wrong enum value is caught while the reply streams, the
// stream is closed, and the re-ask gets the valid answer.
func TestStreamThroughEnforce(t *testing.T) {
	s := newWireServer(t,
		sse(
			chatChunk(textDelta(`{"title": "Nil deref", "severity": "critical", `), ""),
			chatChunk(textDelta(`"note": "a long note the model would be paid to write"}`), ""),
			chatChunk(`{}`, "stop"),
			usageChunk,
		),
		sse(
			chatChunk(textDelta(`{"title": "Nil deref", `), ""),
			chatChunk(textDelta(`"severity": "high"}`), ""),
			chatChunk(`{}`, "stop"),
			usageChunk,
		),
	)
	p := newOfficial(t, s, openai.APIChatCompletions)
	// In native mode OpenAI's strict decoding keeps the model to the
	// schema; prompt mode is where a wrong value can stream in.
	sch := mustSchema(t, reviewSchema)
	var partials int
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, sch, enforce.WithMode(enforce.ModePrompt), enforce.WithPartials(func(enforce.Partial) { partials++ }))
	require.NoError(t, err)
	assert.JSONEq(t, `{"title": "Nil deref", "severity": "high"}`, string(res.JSON))
	require.Len(t, res.Attempts, 2)
	assert.True(t, res.Attempts[0].StoppedEarly)
	assert.Equal(t, "$.severity", res.Attempts[0].Violations[0].Path)
	assert.Positive(t, partials)
	assert.Len(t, s.Requests(), 2)
	assert.Contains(t, string(s.Requests()[1].Body), "is not one of")
}
