package anthropic_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/anthropic"
	"github.com/agentio/agentio/provider/providertest"
)

func TestGenerateText(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textMessage("Hello.", "end_turn")})
	p := newProvider(t, s)

	resp, err := p.Generate(context.Background(), &provider.Request{
		System:    "Be brief.",
		Messages:  []provider.Message{provider.UserMessage("Say hello.")},
		MaxTokens: 100,
	})
	require.NoError(t, err)
	assert.Equal(t, &provider.Response{
		Text:          "Hello.",
		StopReason:    provider.StopEnd,
		RawStopReason: "end_turn",
		Model:         "claude-test-2026",
		Usage:         provider.Usage{InputTokens: 65, OutputTokens: 20, TotalTokens: 85, CachedInputTokens: 10},
	}, resp)

	reqs := s.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "POST", reqs[0].Method)
	assert.Equal(t, "/v1/messages", reqs[0].Path)
	assert.Equal(t, "Bearer test-key", reqs[0].Header.Get("Authorization"))
	assert.NotEmpty(t, reqs[0].Header.Get("Anthropic-Version"))
	assert.JSONEq(t, `{
		"model": "claude-test",
		"max_tokens": 100,
		"system": [{"type": "text", "text": "Be brief."}],
		"messages": [{"role": "user", "content": [{"type": "text", "text": "Say hello."}]}]
	}`, string(reqs[0].Body))
}

func TestRequestMapping(t *testing.T) {
	orderedSchema := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}},"required":["zeta","alpha"],"additionalProperties":false}`
	user := func(text string) string {
		return `{"role":"user","content":[{"type":"text","text":"` + text + `"}]}`
	}
	tests := []struct {
		name string
		req  provider.Request
		want string // the request body
	}{
		{
			name: "json schema output, default max tokens",
			req: provider.Request{
				Messages: []provider.Message{provider.UserMessage("Fill it.")},
				Output:   &provider.OutputSpec{Name: "result", Description: "The result.", Schema: json.RawMessage(orderedSchema), Strict: true},
			},
			want: `{"model":"claude-test","max_tokens":4096,"messages":[` + user("Fill it.") + `],
				"output_config":{"format":{"type":"json_schema","schema":` + orderedSchema + `}}}`,
		},
		{
			name: "forced named tool, strict",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Submit.")},
				Tools:      []provider.Tool{{Name: "submit_result", Description: "Submit the result.", InputSchema: json.RawMessage(orderedSchema), Strict: true}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"},
			},
			want: `{"model":"claude-test","max_tokens":4096,"messages":[` + user("Submit.") + `],
				"tools":[{"name":"submit_result","description":"Submit the result.","strict":true,"input_schema":` + orderedSchema + `}],
				"tool_choice":{"type":"tool","name":"submit_result"}}`,
		},
		{
			name: "required tool choice, tool without schema",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Call.")},
				Tools:      []provider.Tool{{Name: "ping"}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceRequired},
			},
			want: `{"model":"claude-test","max_tokens":4096,"messages":[` + user("Call.") + `],
				"tools":[{"name":"ping","input_schema":{"type":"object","properties":{}}}],"tool_choice":{"type":"any"}}`,
		},
		{
			name: "tool choice none",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Talk.")},
				Tools:      []provider.Tool{{Name: "ping"}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceNone},
			},
			want: `{"model":"claude-test","max_tokens":4096,"messages":[` + user("Talk.") + `],
				"tools":[{"name":"ping","input_schema":{"type":"object","properties":{}}}],"tool_choice":{"type":"none"}}`,
		},
		{
			name: "conversation with tool calls and results",
			req: provider.Request{
				Messages: []provider.Message{
					provider.UserMessage("Weather?"),
					{Role: provider.RoleAssistant, Content: "Checking.", ToolCalls: []provider.ToolCall{
						{ID: "toolu_1", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
						{ID: "toolu_2", Name: "weather", Arguments: json.RawMessage(`{"city":"Ber`)},
					}},
					{Role: provider.RoleTool, ToolCallID: "toolu_1", Content: `{"temp":3}`},
					{Role: provider.RoleTool, ToolCallID: "toolu_2", Content: "city is required", IsError: true},
					provider.UserMessage("And tomorrow?"),
					{Role: provider.RoleAssistant},
					{Role: provider.RoleAssistant, Content: "Also 3 degrees."},
					provider.UserMessage("Thanks."),
				},
			},
			want: `{"model":"claude-test","max_tokens":4096,"messages":[
				` + user("Weather?") + `,
				{"role":"assistant","content":[{"type":"text","text":"Checking."},
					{"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Oslo"}},
					{"type":"tool_use","id":"toolu_2","name":"weather","input":{}}]},
				{"role":"user","content":[
					{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"{\"temp\":3}"}]},
					{"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":[{"type":"text","text":"city is required"}]},
					{"type":"text","text":"And tomorrow?"}]},
				{"role":"assistant","content":[{"type":"text","text":"Also 3 degrees."}]},
				` + user("Thanks.") + `]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: textMessage("ok", "end_turn")})
			p := newProvider(t, s)
			_, err := p.Generate(context.Background(), &tt.req)
			require.NoError(t, err)
			reqs := s.Requests()
			require.Len(t, reqs, 1)
			assert.JSONEq(t, tt.want, string(reqs[0].Body))
			if strings.Contains(tt.want, orderedSchema) {
				assert.Contains(t, string(reqs[0].Body), orderedSchema, "the schema is sent with its key order")
			}
		})
	}
}

func TestResponseMapping(t *testing.T) {
	tests := []struct {
		name string
		Body string
		want provider.Response
	}{
		{
			name: "json reply",
			Body: textMessage(`{"zeta":"z","alpha":1}`, "end_turn"),
			want: provider.Response{Text: `{"zeta":"z","alpha":1}`, StopReason: provider.StopEnd, RawStopReason: "end_turn"},
		},
		{
			name: "text blocks joined, thinking left out",
			Body: message(`[{"type":"thinking","thinking":"hmm","signature":"sig"},{"type":"text","text":"{\"a\":"},{"type":"text","text":"1}"}]`, "end_turn"),
			want: provider.Response{Text: `{"a":1}`, StopReason: provider.StopEnd, RawStopReason: "end_turn"},
		},
		{
			name: "tool call",
			Body: message(`[{"type":"text","text":"Calling."},{"type":"tool_use","id":"toolu_9","name":"submit_result","input":{"ok":true}}]`, "tool_use"),
			want: provider.Response{Text: "Calling.", ToolCalls: []provider.ToolCall{{ID: "toolu_9", Name: "submit_result", Arguments: json.RawMessage(`{"ok":true}`)}},
				StopReason: provider.StopToolUse, RawStopReason: "tool_use"},
		},
		{
			name: "refusal",
			Body: textMessage("I can't help with that. ", "refusal"),
			want: provider.Response{Text: "I can't help with that. ", Refusal: "I can't help with that.", StopReason: provider.StopRefusal, RawStopReason: "refusal"},
		},
		{
			name: "max tokens",
			Body: textMessage(`{"zeta":"trunc`, "max_tokens"),
			want: provider.Response{Text: `{"zeta":"trunc`, StopReason: provider.StopLength, RawStopReason: "max_tokens"},
		},
		{
			name: "context window exceeded",
			Body: textMessage(`{"zeta":"trunc`, "model_context_window_exceeded"),
			want: provider.Response{Text: `{"zeta":"trunc`, StopReason: provider.StopLength, RawStopReason: "model_context_window_exceeded"},
		},
		{
			name: "stop sequence",
			Body: textMessage("x", "stop_sequence"),
			want: provider.Response{Text: "x", StopReason: provider.StopEnd, RawStopReason: "stop_sequence"},
		},
		{
			name: "pause turn",
			Body: textMessage("x", "pause_turn"),
			want: provider.Response{Text: "x", StopReason: provider.StopOther, RawStopReason: "pause_turn"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: tt.Body})
			p := newProvider(t, s)
			resp, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
			require.NoError(t, err)
			tt.want.Model = "claude-test-2026"
			tt.want.Usage = provider.Usage{InputTokens: 65, OutputTokens: 20, TotalTokens: 85, CachedInputTokens: 10}
			assert.Equal(t, &tt.want, resp)
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name     string
		reply    wireReply
		sentinel error
		kind     provider.ErrorKind
		Status   int
		message  string
		code     string
	}{
		{
			name:     "output schema rejected",
			reply:    wireReply{Status: 400, Body: apiError("invalid_request_error", "output_config.format.schema: For 'number' type, property 'minimum' is not supported")},
			sentinel: provider.ErrSchemaRejected, kind: provider.ErrSchemaRejected, Status: 400,
			message: "output_config.format.schema: For 'number' type, property 'minimum' is not supported", code: "invalid_request_error",
		},
		{
			name:     "tool schema rejected",
			reply:    wireReply{Status: 400, Body: apiError("invalid_request_error", "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12")},
			sentinel: provider.ErrSchemaRejected, kind: provider.ErrSchemaRejected, Status: 400,
			message: "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12", code: "invalid_request_error",
		},
		{
			name:     "other bad request",
			reply:    wireReply{Status: 400, Body: apiError("invalid_request_error", "messages: text content blocks must be non-empty")},
			sentinel: provider.ErrInvalidRequest, kind: provider.ErrInvalidRequest, Status: 400,
			message: "messages: text content blocks must be non-empty", code: "invalid_request_error",
		},
		{
			name:     "rate limited",
			reply:    wireReply{Status: 429, Body: apiError("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit")},
			sentinel: provider.ErrRateLimited, kind: provider.ErrRateLimited, Status: 429,
			message: "Number of request tokens has exceeded your per-minute rate limit", code: "rate_limit_error",
		},
		{
			name:     "overloaded",
			reply:    wireReply{Status: 529, Body: apiError("overloaded_error", "Overloaded")},
			sentinel: provider.ErrOverloaded, kind: provider.ErrOverloaded, Status: 529,
			message: "Overloaded", code: "overloaded_error",
		},
		{
			name:     "bad key",
			reply:    wireReply{Status: 401, Body: apiError("authentication_error", "invalid x-api-key")},
			sentinel: provider.ErrAuth, kind: provider.ErrAuth, Status: 401,
			message: "invalid x-api-key", code: "authentication_error",
		},
		{
			name:     "no permission",
			reply:    wireReply{Status: 403, Body: apiError("permission_error", "Your API key does not have permission to use the specified resource.")},
			sentinel: provider.ErrAuth, kind: provider.ErrAuth, Status: 403,
			message: "Your API key does not have permission to use the specified resource.", code: "permission_error",
		},
		{
			name:     "unknown model",
			reply:    wireReply{Status: 404, Body: apiError("not_found_error", "model: claude-nope")},
			sentinel: provider.ErrInvalidRequest, kind: provider.ErrInvalidRequest, Status: 404,
			message: "model: claude-nope", code: "not_found_error",
		},
		{
			name:     "plain text gateway error",
			reply:    wireReply{Status: 502, Body: "Bad Gateway"},
			sentinel: provider.ErrOverloaded, kind: provider.ErrOverloaded, Status: 502,
			message: "Bad Gateway",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, tt.reply)
			p := newProvider(t, s)
			resp, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
			require.Error(t, err)
			assert.Nil(t, resp)
			assert.ErrorIs(t, err, tt.sentinel)
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.kind, pe.Kind)
			assert.Equal(t, "anthropic", pe.Provider)
			assert.Equal(t, tt.Status, pe.StatusCode)
			assert.Equal(t, tt.message, pe.Message)
			assert.Equal(t, tt.code, pe.Code)
			assert.Equal(t, "req_test", pe.RequestID)
			assert.NotNil(t, pe.Err)
			assert.True(t, strings.HasPrefix(err.Error(), "anthropic: "), err.Error())
		})
	}
}

// TestInvalidRequests: Generate and Stream refuse a request the adapter
// cannot map, with the same error, before any call.
func TestInvalidRequests(t *testing.T) {
	user := []provider.Message{provider.UserMessage("x")}
	tests := []struct {
		name string
		req  *provider.Request
	}{
		{name: "nil request", req: nil},
		{name: "unknown role", req: &provider.Request{Messages: []provider.Message{{Role: "wizard", Content: "hi"}}}},
		{name: "tool message without id", req: &provider.Request{Messages: []provider.Message{{Role: provider.RoleTool, Content: "x"}}}},
		{name: "tool choice without name", req: &provider.Request{Messages: user, ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool}}},
		{name: "unknown tool choice", req: &provider.Request{Messages: user, ToolChoice: provider.ToolChoice{Mode: "maybe"}}},
		{name: "tool without name", req: &provider.Request{Messages: user, Tools: []provider.Tool{{}}}},
		{name: "output without schema", req: &provider.Request{Messages: user, Output: &provider.OutputSpec{}}},
		{name: "json object output", req: &provider.Request{Messages: user, Output: &provider.OutputSpec{Format: provider.FormatJSONObject}}},
		{name: "unknown output format", req: &provider.Request{Messages: user, Output: &provider.OutputSpec{Format: "yaml"}}},
		{name: "negative max tokens", req: &provider.Request{Messages: user, MaxTokens: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t)
			p := newProvider(t, s)
			_, err := p.Generate(context.Background(), tt.req)
			assert.ErrorIs(t, err, provider.ErrInvalidRequest)
			chunks, streamErr := providertest.Chunks(p.Stream(context.Background(), tt.req))
			assert.Equal(t, err, streamErr, "Stream refuses it as Generate does")
			assert.Empty(t, chunks)
			assert.Empty(t, s.Requests(), "nothing is sent")
		})
	}
}

func TestNewOptions(t *testing.T) {
	tests := []struct {
		name string
		opts *anthropic.Options
	}{
		{name: "nil options", opts: nil},
		{name: "no model", opts: &anthropic.Options{}},
		{name: "negative max tokens", opts: &anthropic.Options{Model: "m", MaxTokens: -5}},
		{name: "relative base URL", opts: &anthropic.Options{Model: "m", BaseURL: "localhost:8080"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := anthropic.New(tt.opts)
			assert.Nil(t, p)
			assert.ErrorIs(t, err, anthropic.ErrInvalidOption)
		})
	}
}

func TestCapabilities(t *testing.T) {
	p, err := anthropic.New(&anthropic.Options{Model: "claude-test", APIKey: "k"})
	require.NoError(t, err)
	assert.Equal(t, anthropic.DefaultCapabilities(), p.Capabilities())
	assert.Equal(t, "anthropic", p.Capabilities().Dialect)
	assert.Equal(t, "claude-test", p.Model())

	caps := anthropic.ToolCapabilities()
	old, err := anthropic.New(&anthropic.Options{Model: "claude-old", APIKey: "k", Capabilities: &caps})
	require.NoError(t, err)
	assert.Equal(t, caps, old.Capabilities())
	assert.False(t, old.Capabilities().NativeSchema)
}

// TestMaxTokensOption: Options.MaxTokens replaces the default limit, and a
// tool choice naming a tool becomes "any" when ForcedTool is off.
func TestMaxTokensOption(t *testing.T) {
	s := newWireServer(t, wireReply{Body: toolMessage("toolu_1", "submit_result", `{}`)})
	caps := provider.Capabilities{Tools: true}
	p, err := anthropic.New(&anthropic.Options{Model: "claude-test", APIKey: "k", BaseURL: s.URL, MaxTokens: 512, Capabilities: &caps})
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{
		Messages:   []provider.Message{provider.UserMessage("go")},
		Tools:      []provider.Tool{{Name: "submit_result"}},
		ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"},
	})
	require.NoError(t, err)
	body := s.Requests()[0].JSON(t)
	assert.EqualValues(t, 512, body["max_tokens"])
	assert.Equal(t, map[string]any{"type": "any"}, body["tool_choice"])
}

func TestContextCanceled(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textMessage("hi", "end_turn")})
	p := newProvider(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.Generate(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
	assert.ErrorIs(t, err, context.Canceled)
}

// TestClientOption: a caller's SDK client is used, with Options on top.
func TestClientOption(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textMessage("hi", "end_turn")})
	client := sdk.NewClient(option.WithBaseURL(s.URL), option.WithAPIKey("client-key"), option.WithMaxRetries(0))
	p, err := anthropic.New(&anthropic.Options{Model: "claude-test", Client: &client, APIKey: "override-key"})
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
	require.NoError(t, err)
	assert.Equal(t, "Bearer override-key", s.Requests()[0].Header.Get("Authorization"))
}

func TestConcurrentGenerate(t *testing.T) {
	const n = 8
	var replies []wireReply
	for i := 0; i < n; i++ {
		replies = append(replies, wireReply{Body: textMessage("ok", "end_turn")})
	}
	s := newWireServer(t, replies...)
	p := newProvider(t, s)
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
