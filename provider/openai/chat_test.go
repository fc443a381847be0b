package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openai"
)

func TestChatText(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textReply("Hello.", "stop")})
	p := newOfficial(t, s, openai.APIChatCompletions)

	resp, err := p.Generate(context.Background(), &provider.Request{
		System:    "Be brief.",
		Messages:  []provider.Message{provider.UserMessage("Say hello.")},
		MaxTokens: 100,
	})
	require.NoError(t, err)
	assert.Equal(t, &provider.Response{
		Text:          "Hello.",
		StopReason:    provider.StopEnd,
		RawStopReason: "stop",
		Model:         "gpt-test-2026",
		Usage:         provider.Usage{InputTokens: 50, OutputTokens: 20, TotalTokens: 70, CachedInputTokens: 10, ReasoningTokens: 5},
	}, resp)

	reqs := s.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "POST", reqs[0].Method)
	assert.Equal(t, "/v1/chat/completions", reqs[0].Path)
	assert.Equal(t, "Bearer test-key", reqs[0].Header.Get("Authorization"))
	assert.JSONEq(t, `{
		"model": "gpt-test",
		"messages": [
			{"role": "system", "content": "Be brief."},
			{"role": "user", "content": "Say hello."}
		],
		"max_completion_tokens": 100
	}`, string(reqs[0].Body))
}

func TestChatRequestMapping(t *testing.T) {
	orderedSchema := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}},"required":["zeta","alpha"],"additionalProperties":false}`
	tests := []struct {
		name string
		req  provider.Request
		want string // the request body
	}{
		{
			name: "json schema output, strict",
			req: provider.Request{
				Messages: []provider.Message{provider.UserMessage("Fill it.")},
				Output:   &provider.OutputSpec{Name: "my result!", Description: "The result.", Schema: json.RawMessage(orderedSchema), Strict: true},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"Fill it."}],
				"response_format":{"type":"json_schema","json_schema":{"name":"my_result_","description":"The result.","schema":` + orderedSchema + `,"strict":true}}}`,
		},
		{
			name: "json schema output, not strict, default name",
			req: provider.Request{
				Messages: []provider.Message{provider.UserMessage("Fill it.")},
				Output:   &provider.OutputSpec{Schema: json.RawMessage(orderedSchema)},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"Fill it."}],
				"response_format":{"type":"json_schema","json_schema":{"name":"output","schema":` + orderedSchema + `}}}`,
		},
		{
			name: "json object output",
			req: provider.Request{
				Messages: []provider.Message{provider.UserMessage("JSON please.")},
				Output:   &provider.OutputSpec{Format: provider.FormatJSONObject},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"JSON please."}],"response_format":{"type":"json_object"}}`,
		},
		{
			name: "forced named tool",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Submit.")},
				Tools:      []provider.Tool{{Name: "submit_result", Description: "Submit the result.", InputSchema: json.RawMessage(orderedSchema), Strict: true}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"Submit."}],
				"tools":[{"type":"function","function":{"name":"submit_result","description":"Submit the result.","strict":true,"parameters":` + orderedSchema + `}}],
				"tool_choice":{"type":"function","function":{"name":"submit_result"}},"parallel_tool_calls":false}`,
		},
		{
			name: "required and none tool choices, tool without schema",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Call.")},
				Tools:      []provider.Tool{{Name: "ping"}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceRequired},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"Call."}],
				"tools":[{"type":"function","function":{"name":"ping","parameters":{"type":"object","properties":{}}}}],"tool_choice":"required"}`,
		},
		{
			name: "tool choice none",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Talk.")},
				Tools:      []provider.Tool{{Name: "ping"}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceNone},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"Talk."}],
				"tools":[{"type":"function","function":{"name":"ping","parameters":{"type":"object","properties":{}}}}],"tool_choice":"none"}`,
		},
		{
			name: "conversation with tool calls and results",
			req: provider.Request{
				Messages: []provider.Message{
					provider.UserMessage("Weather?"),
					{Role: provider.RoleAssistant, Content: "Checking.", ToolCalls: []provider.ToolCall{{ID: "call_1", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}}},
					{Role: provider.RoleTool, ToolCallID: "call_1", Content: `{"temp":3}`},
					{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_2", Name: "weather"}}},
					{Role: provider.RoleTool, ToolCallID: "call_2", Content: "city is required", IsError: true},
					{Role: provider.RoleAssistant, Content: "It is 3 degrees."},
					provider.UserMessage("Thanks."),
				},
			},
			want: `{"model":"gpt-test","messages":[
				{"role":"user","content":"Weather?"},
				{"role":"assistant","content":"Checking.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Oslo\"}"}}]},
				{"role":"tool","tool_call_id":"call_1","content":"{\"temp\":3}"},
				{"role":"assistant","tool_calls":[{"id":"call_2","type":"function","function":{"name":"weather","arguments":"{}"}}]},
				{"role":"tool","tool_call_id":"call_2","content":"error: city is required"},
				{"role":"assistant","content":"It is 3 degrees."},
				{"role":"user","content":"Thanks."}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: textReply("ok", "stop")})
			p := newOfficial(t, s, openai.APIChatCompletions)
			_, err := p.Generate(context.Background(), &tt.req)
			require.NoError(t, err)
			reqs := s.Requests()
			require.Len(t, reqs, 1)
			assert.JSONEq(t, tt.want, string(reqs[0].Body))
			for _, raw := range []string{orderedSchema} {
				if strings.Contains(tt.want, raw) {
					assert.Contains(t, string(reqs[0].Body), raw, "the schema is sent with its key order")
				}
			}
		})
	}
}

func TestChatResponseMapping(t *testing.T) {
	tests := []struct {
		name string
		Body string
		want provider.Response
	}{
		{
			name: "json schema reply",
			Body: textReply(`{"zeta":"z","alpha":1}`, "stop"),
			want: provider.Response{Text: `{"zeta":"z","alpha":1}`, StopReason: provider.StopEnd, RawStopReason: "stop"},
		},
		{
			name: "forced tool call finishes with stop",
			Body: toolReply("call_9", "submit_result", `{"ok":true}`, "stop"),
			want: provider.Response{ToolCalls: []provider.ToolCall{{ID: "call_9", Name: "submit_result", Arguments: json.RawMessage(`{"ok":true}`)}},
				StopReason: provider.StopToolUse, RawStopReason: "stop"},
		},
		{
			name: "tool calls",
			Body: toolReply("call_1", "weather", `{"city":"Oslo"}`, "tool_calls"),
			want: provider.Response{ToolCalls: []provider.ToolCall{{ID: "call_1", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}},
				StopReason: provider.StopToolUse, RawStopReason: "tool_calls"},
		},
		{
			name: "refusal",
			Body: chatReply(`{"role":"assistant","content":null,"refusal":"I can't help with that."}`, "stop"),
			want: provider.Response{Refusal: "I can't help with that.", StopReason: provider.StopRefusal, RawStopReason: "stop"},
		},
		{
			name: "length",
			Body: textReply(`{"zeta":"trunc`, "length"),
			want: provider.Response{Text: `{"zeta":"trunc`, StopReason: provider.StopLength, RawStopReason: "length"},
		},
		{
			name: "content filter",
			Body: textReply("", "content_filter"),
			want: provider.Response{StopReason: provider.StopContentFilter, RawStopReason: "content_filter"},
		},
		{
			name: "no finish reason",
			Body: textReply("x", ""),
			want: provider.Response{Text: "x"},
		},
		{
			name: "no finish reason, tool call",
			Body: toolReply("call_3", "weather", `{}`, ""),
			want: provider.Response{ToolCalls: []provider.ToolCall{{ID: "call_3", Name: "weather", Arguments: json.RawMessage(`{}`)}}, StopReason: provider.StopToolUse},
		},
		{
			name: "unknown finish reason",
			Body: textReply("x", "eos_token"),
			want: provider.Response{Text: "x", StopReason: provider.StopOther, RawStopReason: "eos_token"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: tt.Body})
			p := newOfficial(t, s, openai.APIChatCompletions)
			resp, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
			require.NoError(t, err)
			tt.want.Model = "gpt-test-2026"
			tt.want.Usage = provider.Usage{InputTokens: 50, OutputTokens: 20, TotalTokens: 70, CachedInputTokens: 10, ReasoningTokens: 5}
			assert.Equal(t, &tt.want, resp)
		})
	}
}

func TestChatUsageWithoutDetails(t *testing.T) {
	s := newWireServer(t, wireReply{Body: `{"id":"x","object":"chat.completion","created":1,"model":"m",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],` +
		`"usage":{"prompt_tokens":3,"completion_tokens":4}}`})
	p := newOfficial(t, s, openai.APIChatCompletions)
	resp, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
	require.NoError(t, err)
	assert.Equal(t, provider.Usage{InputTokens: 3, OutputTokens: 4, TotalTokens: 7}, resp.Usage)
}

func TestChatNoChoices(t *testing.T) {
	s := newWireServer(t, wireReply{Body: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[]}`})
	p := newOfficial(t, s, openai.APIChatCompletions)
	_, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, provider.ErrOther, pe.Kind)
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name      string
		reply     wireReply
		sentinel  error
		kind      provider.ErrorKind
		Status    int
		message   string
		code      string
		requestID string
	}{
		{
			name: "response format schema rejected",
			reply: wireReply{Status: 400, Body: apiError(
				"Invalid schema for response_format 'result': In context=(), 'additionalProperties' is required to be supplied and to be false.",
				"invalid_request_error", "response_format", "invalid_json_schema")},
			sentinel: provider.ErrSchemaRejected, kind: provider.ErrSchemaRejected, Status: 400,
			message: "Invalid schema for response_format 'result': In context=(), 'additionalProperties' is required to be supplied and to be false.",
			code:    "invalid_json_schema", requestID: "req_test",
		},
		{
			name: "tool schema rejected",
			reply: wireReply{Status: 400, Body: apiError("Invalid schema for function 'submit_result': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"array\"'.",
				"invalid_request_error", "tools[0].function.parameters", "invalid_function_parameters")},
			sentinel: provider.ErrSchemaRejected, kind: provider.ErrSchemaRejected, Status: 400,
			message: "Invalid schema for function 'submit_result': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"array\"'.",
			code:    "invalid_function_parameters", requestID: "req_test",
		},
		{
			name:     "other bad request",
			reply:    wireReply{Status: 400, Body: apiError("Unsupported parameter: 'max_tokens' is not supported with this model.", "invalid_request_error", "max_tokens", "unsupported_parameter")},
			sentinel: provider.ErrInvalidRequest, kind: provider.ErrInvalidRequest, Status: 400,
			message: "Unsupported parameter: 'max_tokens' is not supported with this model.", code: "unsupported_parameter", requestID: "req_test",
		},
		{
			name:     "rate limited",
			reply:    wireReply{Status: 429, Body: apiError("Rate limit reached for gpt-test on tokens per min (TPM).", "tokens", "", "rate_limit_exceeded"), Header: map[string]string{"x-request-id": "req_429"}},
			sentinel: provider.ErrRateLimited, kind: provider.ErrRateLimited, Status: 429,
			message: "Rate limit reached for gpt-test on tokens per min (TPM).", code: "rate_limit_exceeded", requestID: "req_429",
		},
		{
			name:     "bad key",
			reply:    wireReply{Status: 401, Body: apiError("Incorrect API key provided: sk-bad.", "invalid_request_error", "", "invalid_api_key")},
			sentinel: provider.ErrAuth, kind: provider.ErrAuth, Status: 401,
			message: "Incorrect API key provided: sk-bad.", code: "invalid_api_key", requestID: "req_test",
		},
		{
			name:     "forbidden",
			reply:    wireReply{Status: 403, Body: apiError("Project does not have access to model gpt-test.", "invalid_request_error", "", "model_not_found")},
			sentinel: provider.ErrAuth, kind: provider.ErrAuth, Status: 403,
			message: "Project does not have access to model gpt-test.", code: "model_not_found", requestID: "req_test",
		},
		{
			name:     "overloaded",
			reply:    wireReply{Status: 503, Body: apiError("The engine is currently overloaded, please try again later.", "server_error", "", "")},
			sentinel: provider.ErrOverloaded, kind: provider.ErrOverloaded, Status: 503,
			message: "The engine is currently overloaded, please try again later.", code: "server_error", requestID: "req_test",
		},
		{
			name:     "plain text server error",
			reply:    wireReply{Status: 502, Body: "Bad Gateway"},
			sentinel: provider.ErrOverloaded, kind: provider.ErrOverloaded, Status: 502,
			message: "Bad Gateway", requestID: "req_test",
		},
		{
			name:     "compatible server error as a string",
			reply:    wireReply{Status: 400, Body: `{"error":"json: cannot unmarshal schema: unsupported keyword"}`},
			sentinel: provider.ErrSchemaRejected, kind: provider.ErrSchemaRejected, Status: 400,
			message: "json: cannot unmarshal schema: unsupported keyword", requestID: "req_test",
		},
		{
			name:     "compatible server detail",
			reply:    wireReply{Status: 422, Body: `{"detail":"The model qwen does not exist."}`},
			sentinel: provider.ErrInvalidRequest, kind: provider.ErrInvalidRequest, Status: 422,
			message: "The model qwen does not exist.", requestID: "req_test",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, api := range []openai.API{openai.APIChatCompletions, openai.APIResponses} {
				s := newWireServer(t, tt.reply)
				p := newOfficial(t, s, api)
				resp, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
				require.Error(t, err)
				assert.Nil(t, resp)
				assert.ErrorIs(t, err, tt.sentinel)
				var pe *provider.Error
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, tt.kind, pe.Kind)
				assert.Equal(t, "openai", pe.Provider)
				assert.Equal(t, tt.Status, pe.StatusCode)
				assert.Equal(t, tt.message, pe.Message)
				assert.Equal(t, tt.code, pe.Code)
				assert.Equal(t, tt.requestID, pe.RequestID)
				assert.NotNil(t, pe.Err)
				assert.True(t, strings.HasPrefix(err.Error(), "openai: "), err.Error())
			}
		})
	}
}

func TestInvalidRequests(t *testing.T) {
	tests := []struct {
		name string
		req  *provider.Request
	}{
		{name: "nil request", req: nil},
		{name: "unknown role", req: &provider.Request{Messages: []provider.Message{{Role: "wizard", Content: "hi"}}}},
		{name: "tool message without id", req: &provider.Request{Messages: []provider.Message{{Role: provider.RoleTool, Content: "x"}}}},
		{name: "tool choice without name", req: &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool}}},
		{name: "unknown tool choice", req: &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, ToolChoice: provider.ToolChoice{Mode: "maybe"}}},
		{name: "tool without name", req: &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, Tools: []provider.Tool{{}}}},
		{name: "output without schema", req: &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, Output: &provider.OutputSpec{}}},
		{name: "unknown output format", req: &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, Output: &provider.OutputSpec{Format: "yaml"}}},
		{name: "negative max tokens", req: &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, MaxTokens: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, api := range []openai.API{openai.APIChatCompletions, openai.APIResponses} {
				s := newWireServer(t)
				p := newOfficial(t, s, api)
				_, err := p.Generate(context.Background(), tt.req)
				assert.ErrorIs(t, err, provider.ErrInvalidRequest)
				assert.Empty(t, s.Requests(), "nothing is sent")
			}
		})
	}
}

func TestNewOptions(t *testing.T) {
	tests := []struct {
		name string
		opts *openai.Options
	}{
		{name: "nil options", opts: nil},
		{name: "no model", opts: &openai.Options{}},
		{name: "unknown API", opts: &openai.Options{Model: "m", API: "assistants"}},
		{name: "unknown max tokens field", opts: &openai.Options{Model: "m", MaxTokensParam: "n_predict"}},
		{name: "relative base URL", opts: &openai.Options{Model: "m", BaseURL: "localhost:8080"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := openai.New(tt.opts)
			assert.Nil(t, p)
			assert.ErrorIs(t, err, openai.ErrInvalidOption)
		})
	}
}

func TestCapabilities(t *testing.T) {
	official, err := openai.New(&openai.Options{Model: "m", BaseURL: "https://api.openai.com/v1"})
	require.NoError(t, err)
	assert.Equal(t, openai.OfficialCapabilities(), official.Capabilities())
	assert.Equal(t, "openai", official.Capabilities().Dialect)
	assert.Equal(t, "m", official.Model())

	local, err := openai.New(&openai.Options{Model: "m", BaseURL: "http://localhost:11434/v1"})
	require.NoError(t, err)
	assert.Equal(t, openai.CompatibleCapabilities(), local.Capabilities())
	assert.Empty(t, local.Capabilities().Dialect)

	t.Setenv("OPENAI_BASE_URL", "http://localhost:8080/v1")
	fromEnv, err := openai.New(&openai.Options{Model: "m"})
	require.NoError(t, err)
	assert.Equal(t, openai.CompatibleCapabilities(), fromEnv.Capabilities(), "OPENAI_BASE_URL names a compatible server")

	caps := provider.Capabilities{Tools: true}
	custom, err := openai.New(&openai.Options{Model: "m", BaseURL: "http://localhost:8000/v1", Capabilities: &caps})
	require.NoError(t, err)
	assert.Equal(t, caps, custom.Capabilities())
}

// TestCompatibleServer checks what a compatible server gets by default:
// max_tokens, and "required" for a named tool choice.
func TestCompatibleServer(t *testing.T) {
	s := newWireServer(t, wireReply{Body: toolReply("c1", "submit_result", `{}`, "tool_calls")})
	p, err := openai.New(&openai.Options{Model: "qwen3", BaseURL: s.URL + "/v1",
		RequestOptions: []option.RequestOption{option.WithMaxRetries(0)}})
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{
		Messages:   []provider.Message{provider.UserMessage("go")},
		Tools:      []provider.Tool{{Name: "submit_result"}},
		ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"},
		MaxTokens:  64,
	})
	require.NoError(t, err)
	body := s.Requests()[0].JSON(t)
	assert.Equal(t, "required", body["tool_choice"])
	assert.EqualValues(t, 64, body["max_tokens"])
	assert.NotContains(t, body, "max_completion_tokens")
}

func TestClientOption(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textReply("hi", "stop")})
	client := newSDKClient(s.URL + "/v1")
	p, err := openai.New(&openai.Options{Model: "m", Client: &client, APIKey: "override-key"})
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
	require.NoError(t, err)
	assert.Equal(t, "Bearer override-key", s.Requests()[0].Header.Get("Authorization"))
}

func TestContextCanceled(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textReply("hi", "stop")})
	p := newOfficial(t, s, openai.APIChatCompletions)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.Generate(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestConcurrentGenerate(t *testing.T) {
	const n = 8
	var replies []wireReply
	for i := 0; i < n; i++ {
		replies = append(replies, wireReply{Body: textReply("ok", "stop")})
	}
	s := newWireServer(t, replies...)
	p := newOfficial(t, s, openai.APIChatCompletions)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	assert.Len(t, s.Requests(), n)
}

func TestRetriedStatusIsRecorded(t *testing.T) {
	// The SDK retries a 500 once here; the last failure is what is reported.
	s := newWireServer(t,
		wireReply{Status: http.StatusInternalServerError, Body: "boom", Header: map[string]string{"retry-after-ms": "1"}},
		wireReply{Status: http.StatusServiceUnavailable, Body: "still down"},
	)
	p, err := openai.New(&openai.Options{Model: "m", BaseURL: s.URL + "/v1",
		RequestOptions: []option.RequestOption{option.WithMaxRetries(1)}})
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
	var pe *provider.Error
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, 503, pe.StatusCode)
	assert.Equal(t, "still down", pe.Message)
	assert.Len(t, s.Requests(), 2)
}
