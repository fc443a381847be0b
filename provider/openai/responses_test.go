package openai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openai"
)

// responsesReply is a Responses API body with the given output items.
func responsesReply(status, incomplete, output string) string {
	details := `null`
	if incomplete != "" {
		details = `{"reason":"` + incomplete + `"}`
	}
	return `{"id":"resp_1","object":"response","created_at":1700000000,"status":"` + status + `","model":"gpt-test-2026",` +
		`"incomplete_details":` + details + `,"output":` + output + `,` +
		`"usage":{"input_tokens":40,"input_tokens_details":{"cached_tokens":8},"output_tokens":12,` +
		`"output_tokens_details":{"reasoning_tokens":4},"total_tokens":52}}`
}

func responsesText(text string) string {
	b, _ := json.Marshal(text)
	return `[{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":` + string(b) + `,"annotations":[]}]}]`
}

func TestResponsesRequestMapping(t *testing.T) {
	schema := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}},"required":["zeta","alpha"],"additionalProperties":false}`
	tests := []struct {
		name string
		req  provider.Request
		want string
	}{
		{
			name: "system, conversation and token limit",
			req: provider.Request{
				System: "Be brief.",
				Messages: []provider.Message{
					provider.UserMessage("Weather?"),
					{Role: provider.RoleAssistant, Content: "Checking.", ToolCalls: []provider.ToolCall{{ID: "call_1", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}}},
					{Role: provider.RoleTool, ToolCallID: "call_1", Content: `{"temp":3}`},
					provider.UserMessage("And?"),
				},
				MaxTokens: 200,
			},
			want: `{"model":"gpt-test","store":false,"instructions":"Be brief.","max_output_tokens":200,"input":[
				{"role":"user","content":"Weather?"},
				{"role":"assistant","content":"Checking."},
				{"type":"function_call","call_id":"call_1","name":"weather","arguments":"{\"city\":\"Oslo\"}"},
				{"type":"function_call_output","call_id":"call_1","output":"{\"temp\":3}"},
				{"role":"user","content":"And?"}]}`,
		},
		{
			name: "json schema output",
			req: provider.Request{
				Messages: []provider.Message{provider.UserMessage("Fill it.")},
				Output:   &provider.OutputSpec{Name: "result", Description: "The result.", Schema: json.RawMessage(schema), Strict: true},
			},
			want: `{"model":"gpt-test","store":false,"input":[{"role":"user","content":"Fill it."}],
				"text":{"format":{"type":"json_schema","name":"result","description":"The result.","strict":true,"schema":` + schema + `}}}`,
		},
		{
			name: "json object output",
			req: provider.Request{
				Messages: []provider.Message{provider.UserMessage("JSON.")},
				Output:   &provider.OutputSpec{Format: provider.FormatJSONObject},
			},
			want: `{"model":"gpt-test","store":false,"input":[{"role":"user","content":"JSON."}],"text":{"format":{"type":"json_object"}}}`,
		},
		{
			name: "forced named tool",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Submit.")},
				Tools:      []provider.Tool{{Name: "submit_result", Description: "Submit.", InputSchema: json.RawMessage(schema), Strict: true}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"},
			},
			want: `{"model":"gpt-test","store":false,"input":[{"role":"user","content":"Submit."}],
				"tools":[{"type":"function","name":"submit_result","description":"Submit.","strict":true,"parameters":` + schema + `}],
				"tool_choice":{"type":"function","name":"submit_result"},"parallel_tool_calls":false}`,
		},
		{
			name: "required tool choice",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Call.")},
				Tools:      []provider.Tool{{Name: "ping"}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceRequired},
			},
			want: `{"model":"gpt-test","store":false,"input":[{"role":"user","content":"Call."}],
				"tools":[{"type":"function","name":"ping","strict":false,"parameters":{"type":"object","properties":{}}}],"tool_choice":"required"}`,
		},
		{
			name: "tool choice none, call without arguments, failed call",
			req: provider.Request{
				Messages: []provider.Message{
					provider.UserMessage("Weather?"),
					{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_2", Name: "weather"}}},
					{Role: provider.RoleTool, ToolCallID: "call_2", Content: "city is required", IsError: true},
				},
				Tools:      []provider.Tool{{Name: "weather"}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceNone},
			},
			want: `{"model":"gpt-test","store":false,"input":[
				{"role":"user","content":"Weather?"},
				{"type":"function_call","call_id":"call_2","name":"weather","arguments":"{}"},
				{"type":"function_call_output","call_id":"call_2","output":"error: city is required"}],
				"tools":[{"type":"function","name":"weather","strict":false,"parameters":{"type":"object","properties":{}}}],"tool_choice":"none"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: responsesReply("completed", "", responsesText("ok"))})
			p := newOfficial(t, s, openai.APIResponses)
			_, err := p.Generate(context.Background(), &tt.req)
			require.NoError(t, err)
			reqs := s.Requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, "/v1/responses", reqs[0].Path)
			assert.JSONEq(t, tt.want, string(reqs[0].Body))
			if tt.req.Output != nil && tt.req.Output.Format == provider.FormatJSONSchema || len(tt.req.Tools) > 0 && tt.req.Tools[0].InputSchema != nil {
				assert.Contains(t, string(reqs[0].Body), schema, "the schema is sent with its key order")
			}
		})
	}
}

func TestResponsesResponseMapping(t *testing.T) {
	usage := provider.Usage{InputTokens: 40, OutputTokens: 12, TotalTokens: 52, CachedInputTokens: 8, ReasoningTokens: 4}
	tests := []struct {
		name string
		Body string
		want provider.Response
	}{
		{
			name: "text after reasoning",
			Body: responsesReply("completed", "", `[{"type":"reasoning","id":"rs_1","summary":[]},`+responsesText(`{"a":1}`)[1:]),
			want: provider.Response{Text: `{"a":1}`, StopReason: provider.StopEnd, RawStopReason: "completed"},
		},
		{
			name: "function call",
			Body: responsesReply("completed", "", `[{"type":"function_call","id":"fc_1","call_id":"call_7","name":"submit_result","arguments":"{\"ok\":true}","status":"completed"}]`),
			want: provider.Response{ToolCalls: []provider.ToolCall{{ID: "call_7", Name: "submit_result", Arguments: json.RawMessage(`{"ok":true}`)}},
				StopReason: provider.StopToolUse, RawStopReason: "completed"},
		},
		{
			name: "refusal",
			Body: responsesReply("completed", "", `[{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"refusal","refusal":"No."}]}]`),
			want: provider.Response{Refusal: "No.", StopReason: provider.StopRefusal, RawStopReason: "completed"},
		},
		{
			name: "truncated",
			Body: responsesReply("incomplete", "max_output_tokens", responsesText(`{"a":`)),
			want: provider.Response{Text: `{"a":`, StopReason: provider.StopLength, RawStopReason: "max_output_tokens"},
		},
		{
			name: "content filter",
			Body: responsesReply("incomplete", "content_filter", `[]`),
			want: provider.Response{StopReason: provider.StopContentFilter, RawStopReason: "content_filter"},
		},
		{
			name: "failed",
			Body: responsesReply("failed", "", responsesText("partial")),
			want: provider.Response{Text: "partial", StopReason: provider.StopOther, RawStopReason: "failed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: tt.Body})
			p := newOfficial(t, s, openai.APIResponses)
			resp, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
			require.NoError(t, err)
			tt.want.Model = "gpt-test-2026"
			tt.want.Usage = usage
			assert.Equal(t, &tt.want, resp)
		})
	}
}
