package openaicompat_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openaicompat"
	"github.com/agentio/agentio/provider/wiretest"
	"github.com/agentio/agentio/schema"
)

func newServer(t *testing.T, replies ...wiretest.Reply) *wiretest.Server {
	t.Helper()
	return wiretest.New(t, &wiretest.Options{Exhausted: wiretest.Reply{Status: http.StatusInternalServerError, Body: `{"error":{"message":"no scripted reply left"}}`}}, replies...)
}

func newProvider(t *testing.T, s *wiretest.Server, opts openaicompat.Options) *openaicompat.Provider {
	t.Helper()
	if opts.Model == "" {
		opts.Model = "gpt-test"
	}
	opts.BaseURL = s.URL + "/v1"
	p, err := openaicompat.New(&opts)
	require.NoError(t, err)
	return p
}

// completion is a /chat/completions reply with the given message and
// finish reason.
func completion(message, finish string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","created":1764040000,"model":"gpt-test-2026",` +
		`"choices":[{"index":0,"message":` + message + `,"finish_reason":"` + finish + `"}],` +
		`"usage":{"prompt_tokens":40,"completion_tokens":15,"total_tokens":55,` +
		`"prompt_tokens_details":{"cached_tokens":8},"completion_tokens_details":{"reasoning_tokens":4}}}`
}

func textCompletion(text, finish string) string {
	b, _ := json.Marshal(text)
	return completion(`{"role":"assistant","content":`+string(b)+`}`, finish)
}

func TestGenerateText(t *testing.T) {
	s := newServer(t, wiretest.Reply{Body: textCompletion("Hello.", "stop"), Header: map[string]string{"x-request-id": "req_1"}})
	p := newProvider(t, s, openaicompat.Options{APIKey: "sk-test", Header: http.Header{"Http-Referer": {"https://example.org"}}})
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
		Usage:         provider.Usage{InputTokens: 40, OutputTokens: 15, TotalTokens: 55, CachedInputTokens: 8, ReasoningTokens: 4},
	}, resp)

	reqs := s.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "POST", reqs[0].Method)
	assert.Equal(t, "/v1/chat/completions", reqs[0].Path)
	assert.Equal(t, "Bearer sk-test", reqs[0].Header.Get("Authorization"))
	assert.Equal(t, "https://example.org", reqs[0].Header.Get("Http-Referer"))
	assert.JSONEq(t, `{
		"model": "gpt-test",
		"messages": [
			{"role": "system", "content": "Be brief."},
			{"role": "user", "content": "Say hello."}
		],
		"max_completion_tokens": 100
	}`, string(reqs[0].Body))
}

func TestRequestMapping(t *testing.T) {
	orderedSchema := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}},"required":["zeta","alpha"]}`
	tests := []struct {
		name string
		opts openaicompat.Options
		req  provider.Request
		want string // the request body
	}{
		{
			name: "json schema, name made acceptable, key order kept",
			req: provider.Request{
				Messages: []provider.Message{provider.UserMessage("Fill it.")},
				Output:   &provider.OutputSpec{Name: "code review!", Description: "The review.", Schema: json.RawMessage(orderedSchema), Strict: true},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"Fill it."}],"response_format":{"type":"json_schema","json_schema":{"name":"code_review_","description":"The review.","schema":` + orderedSchema + `,"strict":true}}}`,
		},
		{
			name: "json mode, legacy max_tokens from the default budget",
			opts: openaicompat.Options{MaxTokens: 4096, LegacyMaxTokens: true},
			req: provider.Request{
				Messages: []provider.Message{provider.UserMessage("JSON please.")},
				Output:   &provider.OutputSpec{Format: provider.FormatJSONObject},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"JSON please."}],"response_format":{"type":"json_object"},"max_tokens":4096}`,
		},
		{
			name: "strict tool forced by name",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Submit.")},
				Tools:      []provider.Tool{{Name: "submit_result", Description: "Submit the result.", InputSchema: json.RawMessage(orderedSchema), Strict: true}, {Name: "ping"}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"Submit."}],"tools":[` +
				`{"type":"function","function":{"name":"submit_result","description":"Submit the result.","parameters":` + orderedSchema + `,"strict":true}},` +
				`{"type":"function","function":{"name":"ping","parameters":{"type":"object","properties":{}}}}],` +
				`"tool_choice":{"type":"function","function":{"name":"submit_result"}},"parallel_tool_calls":false}`,
		},
		{
			name: "named tool without forced tools is required",
			opts: openaicompat.Options{Capabilities: &provider.Capabilities{Tools: true}},
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Submit.")},
				Tools:      []provider.Tool{{Name: "ping"}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "ping"},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"Submit."}],"tools":[{"type":"function","function":{"name":"ping","parameters":{"type":"object","properties":{}}}}],"tool_choice":"required"}`,
		},
		{
			name: "a conversation with a tool call and a failed result",
			req: provider.Request{
				Messages: []provider.Message{
					provider.UserMessage("Look it up."),
					{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_1", Name: "lookup", Arguments: json.RawMessage(`{"q":"x"}`)}, {ID: "call_2", Name: "ping"}}},
					{Role: provider.RoleTool, ToolCallID: "call_1", Content: "not found", IsError: true},
					{Role: provider.RoleTool, ToolCallID: "call_2", Content: "pong"},
					{Role: provider.RoleAssistant, Content: "Nothing."},
				},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceNone},
			},
			want: `{"model":"gpt-test","messages":[{"role":"user","content":"Look it up."},` +
				`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"x\"}"}},{"id":"call_2","type":"function","function":{"name":"ping","arguments":"{}"}}]},` +
				`{"role":"tool","content":"error: not found","tool_call_id":"call_1"},{"role":"tool","content":"pong","tool_call_id":"call_2"},` +
				`{"role":"assistant","content":"Nothing."}],"tool_choice":"none"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, wiretest.Reply{Body: textCompletion("ok", "stop")})
			p := newProvider(t, s, tt.opts)
			_, err := p.Generate(context.Background(), &tt.req)
			require.NoError(t, err)
			reqs := s.Requests()
			require.Len(t, reqs, 1)
			assert.JSONEq(t, tt.want, string(reqs[0].Body))
			if tt.req.Output != nil && tt.req.Output.Schema != nil {
				assert.Contains(t, string(reqs[0].Body), orderedSchema, "the schema's bytes, key order kept")
			}
		})
	}
}

func TestRequestRefused(t *testing.T) {
	tests := []struct {
		name string
		req  *provider.Request
	}{
		{"nil request", nil},
		{"negative budget", &provider.Request{MaxTokens: -1}},
		{"unknown role", &provider.Request{Messages: []provider.Message{{Role: "system", Content: "x"}}}},
		{"tool result without its call", &provider.Request{Messages: []provider.Message{{Role: provider.RoleTool, Content: "x"}}}},
		{"nameless tool", &provider.Request{Tools: []provider.Tool{{}}}},
		{"tool choice naming nothing", &provider.Request{ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool}}},
		{"unknown tool choice", &provider.Request{ToolChoice: provider.ToolChoice{Mode: "maybe"}}},
		{"schema format without a schema", &provider.Request{Output: &provider.OutputSpec{}}},
		{"unknown format", &provider.Request{Output: &provider.OutputSpec{Format: "yaml"}}},
		{"schema that is not JSON", &provider.Request{Output: &provider.OutputSpec{Schema: json.RawMessage(`{`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t)
			p := newProvider(t, s, openaicompat.Options{})
			_, err := p.Generate(context.Background(), tt.req)
			assert.ErrorIs(t, err, provider.ErrInvalidRequest)
			assert.Empty(t, s.Requests(), "refused before any call")
		})
	}
}

func TestResponseMapping(t *testing.T) {
	tests := []struct {
		name string
		body string
		want provider.Response // Usage and Model are not compared
	}{
		{
			name: "tool call with arguments as a string",
			body: completion(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_9","type":"function","function":{"name":"submit_result","arguments":"{\"a\":1}"}}]}`, "tool_calls"),
			want: provider.Response{ToolCalls: []provider.ToolCall{{ID: "call_9", Name: "submit_result", Arguments: json.RawMessage(`{"a":1}`)}}, StopReason: provider.StopToolUse, RawStopReason: "tool_calls"},
		},
		{
			name: "forced call reported as stop, arguments as an object, no id",
			body: completion(`{"role":"assistant","tool_calls":[{"function":{"name":"submit_result","arguments":{"a":1}}}]}`, "stop"),
			want: provider.Response{ToolCalls: []provider.ToolCall{{ID: "call_0", Name: "submit_result", Arguments: json.RawMessage(`{"a":1}`)}}, StopReason: provider.StopToolUse, RawStopReason: "stop"},
		},
		{
			name: "cut-off tool arguments are kept as written",
			body: completion(`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":"}}]}`, "length"),
			want: provider.Response{ToolCalls: []provider.ToolCall{{ID: "c", Name: "f", Arguments: json.RawMessage(`{"a":`)}}, StopReason: provider.StopLength, RawStopReason: "length"},
		},
		{
			name: "refusal",
			body: completion(`{"role":"assistant","content":null,"refusal":"I can't help with that."}`, "stop"),
			want: provider.Response{Refusal: "I can't help with that.", StopReason: provider.StopRefusal, RawStopReason: "stop"},
		},
		{
			name: "content as text parts",
			body: completion(`{"role":"assistant","content":[{"type":"text","text":"{\"a\":"},{"type":"image_url"},{"type":"text","text":"1}"}]}`, "stop"),
			want: provider.Response{Text: `{"a":1}`, StopReason: provider.StopEnd, RawStopReason: "stop"},
		},
		{
			name: "content filter",
			body: textCompletion("", "content_filter"),
			want: provider.Response{StopReason: provider.StopContentFilter, RawStopReason: "content_filter"},
		},
		{
			name: "unknown finish reason",
			body: textCompletion("x", "recitation"),
			want: provider.Response{Text: "x", StopReason: provider.StopOther, RawStopReason: "recitation"},
		},
		{
			name: "no finish reason",
			body: textCompletion("x", ""),
			want: provider.Response{Text: "x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, wiretest.Reply{Body: tt.body})
			p := newProvider(t, s, openaicompat.Options{})
			resp, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
			require.NoError(t, err)
			resp.Usage, resp.Model = provider.Usage{}, ""
			assert.Equal(t, &tt.want, resp)
		})
	}
}

func TestErrors(t *testing.T) {
	schemaReq := &provider.Request{
		Messages: []provider.Message{provider.UserMessage("x")},
		Output:   &provider.OutputSpec{Schema: json.RawMessage(`{"type":"object"}`)},
	}
	plainReq := &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}}
	tests := []struct {
		name       string
		reply      wiretest.Reply
		req        *provider.Request
		kind       error
		message    string
		code       string
		retryAfter time.Duration
	}{
		{
			name:    "schema rejected",
			reply:   wiretest.Reply{Status: 400, Body: `{"error":{"message":"Invalid schema for response_format 'output': 'foo' is not permitted.","type":"invalid_request_error","param":"response_format","code":null}}`},
			req:     schemaReq,
			kind:    provider.ErrSchemaRejected,
			message: "Invalid schema for response_format 'output': 'foo' is not permitted.",
			code:    "invalid_request_error",
		},
		{
			name:    "the same complaint without a schema sent",
			reply:   wiretest.Reply{Status: 400, Body: `{"error":{"message":"Invalid schema","type":"invalid_request_error"}}`},
			req:     plainReq,
			kind:    provider.ErrInvalidRequest,
			message: "Invalid schema",
			code:    "invalid_request_error",
		},
		{
			name:    "Gemini's error in a list",
			reply:   wiretest.Reply{Status: 400, Body: `[{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"additionalProperties\" at 'generation_config.response_schema'","status":"INVALID_ARGUMENT"}}]`},
			req:     schemaReq,
			kind:    provider.ErrSchemaRejected,
			message: `Invalid JSON payload received. Unknown name "additionalProperties" at 'generation_config.response_schema'`,
			code:    "INVALID_ARGUMENT",
		},
		{
			name:    "bad key",
			reply:   wiretest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`},
			req:     plainReq,
			kind:    provider.ErrAuth,
			message: "Incorrect API key provided.",
			code:    "invalid_api_key",
		},
		{
			name:    "rate limited, error as a string",
			reply:   wiretest.Reply{Status: 429, Body: `{"error":"slow down"}`},
			req:     plainReq,
			kind:    provider.ErrRateLimited,
			message: "slow down",
		},
		{
			name:       "rate limited, asked to wait",
			reply:      wiretest.Reply{Status: 429, Body: `{"error":"slow down"}`, Header: map[string]string{"Retry-After": "3"}},
			req:        plainReq,
			kind:       provider.ErrRateLimited,
			message:    "slow down",
			retryAfter: 3 * time.Second,
		},
		{
			name:       "overloaded, asked to wait in milliseconds",
			reply:      wiretest.Reply{Status: 503, Body: `{"error":"busy"}`, Header: map[string]string{"retry-after-ms": "250"}},
			req:        plainReq,
			kind:       provider.ErrOverloaded,
			message:    "busy",
			retryAfter: 250 * time.Millisecond,
		},
		{
			name:    "overloaded, plain text",
			reply:   wiretest.Reply{Status: 503, Body: "upstream unavailable\n", Header: map[string]string{"Content-Type": "text/plain"}},
			req:     plainReq,
			kind:    provider.ErrOverloaded,
			message: "upstream unavailable",
		},
		{
			name:    "unknown model, detail",
			reply:   wiretest.Reply{Status: 404, Body: `{"detail":"The model qwen does not exist."}`},
			req:     plainReq,
			kind:    provider.ErrInvalidRequest,
			message: "The model qwen does not exist.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.reply.Header = mergeHeader(tt.reply.Header, "x-request-id", "req_42")
			s := newServer(t, tt.reply)
			p := newProvider(t, s, openaicompat.Options{Name: "gemini"})
			_, err := p.Generate(context.Background(), tt.req)
			require.ErrorIs(t, err, tt.kind)
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "gemini", pe.Provider)
			assert.Equal(t, tt.reply.Status, pe.StatusCode)
			assert.Equal(t, tt.message, pe.Message)
			assert.Equal(t, tt.code, pe.Code)
			assert.Equal(t, "req_42", pe.RequestID)
			assert.Equal(t, tt.retryAfter, pe.RetryAfter)
		})
	}
}

func mergeHeader(h map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for kk, vv := range h {
		out[kk] = vv
	}
	return out
}

func TestBadReplies(t *testing.T) {
	for _, body := range []string{`not json`, `{"choices":[]}`, `{"error":{"message":"overloaded"}}`, `{"choices":[{"message":{"content":7}}]}`} {
		s := newServer(t, wiretest.Reply{Body: body})
		p := newProvider(t, s, openaicompat.Options{})
		_, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
		var pe *provider.Error
		require.ErrorAs(t, err, &pe, body)
		assert.Equal(t, provider.ErrOther, pe.Kind, body)
		assert.Equal(t, 200, pe.StatusCode, body)
	}
}

func TestUnreachable(t *testing.T) {
	p, err := openaicompat.New(&openaicompat.Options{Model: "m", BaseURL: "http://127.0.0.1:1"})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = p.Generate(ctx, &provider.Request{})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, provider.ErrOther, provider.KindOf(err))
}

func TestNewRefusesBadOptions(t *testing.T) {
	for _, o := range []*openaicompat.Options{
		nil,
		{},
		{Model: " "},
		{Model: "m", MaxTokens: -1},
		{Model: "m", BaseURL: "ftp://x"},
		{Model: "m", BaseURL: "localhost:8000"},
		{Model: "m", BaseURL: "http://x/v1?key=1"},
	} {
		_, err := openaicompat.New(o)
		assert.ErrorIs(t, err, openaicompat.ErrInvalidOption, "%+v", o)
	}
	p, err := openaicompat.New(&openaicompat.Options{Model: "m"})
	require.NoError(t, err)
	assert.Equal(t, openaicompat.DefaultCapabilities(), p.Capabilities())
	assert.Equal(t, "m", p.Model())
}

const reviewSchema = `{
	"type": "object",
	"properties": {
		"title": {"type": "string", "minLength": 1},
		"severity": {"enum": ["high", "medium", "low"]}
	},
	"required": ["title", "severity"]
}`

// TestEnforceNative runs the loop over the adapter in native mode: the
// schema goes out as response_format in the openai dialect, and a wrong
// first answer is asked again with its violations.
func TestEnforceNative(t *testing.T) {
	s := newServer(t,
		wiretest.Reply{Body: textCompletion(`{"title": "Leak", "severity": "High"}`, "stop")},
		wiretest.Reply{Body: textCompletion(`{"title": "Leak", "severity": "high"}`, "stop")},
	)
	p := newProvider(t, s, openaicompat.Options{})
	sc, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review it."}, sc)
	require.NoError(t, err)
	assert.Equal(t, enforce.ModeNative, res.Mode)
	assert.JSONEq(t, `{"title": "Leak", "severity": "high"}`, string(res.JSON))
	require.Len(t, res.Attempts, 2)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	format := reqs[0].JSON(t)["response_format"].(map[string]any)
	assert.Equal(t, "json_schema", format["type"])
	assert.Equal(t, true, format["json_schema"].(map[string]any)["strict"], "the openai dialect sends a strict schema")
	assert.Contains(t, string(reqs[1].Body), "severity", "the re-ask names the violation")
}

// TestEnforceToolMode runs the loop over a server declared as tools only
// (Anthropic's compatible endpoint ignores response_format).
func TestEnforceToolMode(t *testing.T) {
	args, _ := json.Marshal(`{"title": "Leak", "severity": "low"}`)
	s := newServer(t, wiretest.Reply{Body: completion(`{"role":"assistant","content":"","tool_calls":[{"id":"toolu_1","type":"function","function":{"name":"submit_result","arguments":`+string(args)+`}}]}`, "tool_calls")})
	p := newProvider(t, s, openaicompat.Options{Capabilities: &provider.Capabilities{Tools: true, ForcedTool: true, Dialect: "anthropic"}})
	sc, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review it."}, sc)
	require.NoError(t, err)
	assert.Equal(t, enforce.ModeTool, res.Mode)
	assert.JSONEq(t, `{"title": "Leak", "severity": "low"}`, string(res.JSON))
	body := s.Requests()[0].JSON(t)
	assert.NotContains(t, body, "response_format")
	assert.Equal(t, "submit_result", body["tool_choice"].(map[string]any)["function"].(map[string]any)["name"])
}

// TestEnforceSchemaRejected: a server refusing the schema makes the loop
// fall back to prompt mode.
func TestEnforceSchemaRejected(t *testing.T) {
	s := newServer(t,
		wiretest.Reply{Status: 400, Body: `{"error":{"message":"response_format json_schema is not supported by this model"}}`},
		wiretest.Reply{Body: textCompletion("```json\n{\"title\": \"Leak\", \"severity\": \"medium\"}\n```", "stop")},
	)
	p := newProvider(t, s, openaicompat.Options{})
	sc, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review it."}, sc)
	require.NoError(t, err)
	assert.Equal(t, enforce.ModePrompt, res.Mode)
	assert.JSONEq(t, `{"title": "Leak", "severity": "medium"}`, string(res.JSON))
	assert.NotContains(t, s.Requests()[1].JSON(t), "response_format")
}

func TestConcurrentUse(t *testing.T) {
	const n = 8
	var replies []wiretest.Reply
	for range n {
		replies = append(replies, wiretest.Reply{Body: textCompletion("ok", "stop")})
	}
	s := newServer(t, replies...)
	p := newProvider(t, s, openaicompat.Options{})
	errs := make(chan error, n)
	for range n {
		go func() {
			_, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
			errs <- err
		}()
	}
	for range n {
		assert.NoError(t, <-errs)
	}
}
