package ollama_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/ollama"
)

func TestGenerateText(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textChat("Hello.", "stop")})
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
		RawStopReason: "stop",
		Model:         "qwen3:8b",
		Usage:         provider.Usage{InputTokens: 40, OutputTokens: 15, TotalTokens: 55},
	}, resp)

	reqs := s.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "POST", reqs[0].Method)
	assert.Equal(t, "/api/chat", reqs[0].Path)
	assert.Equal(t, "application/json", reqs[0].Header.Get("Content-Type"))
	assert.JSONEq(t, `{
		"model": "qwen3",
		"messages": [
			{"role": "system", "content": "Be brief."},
			{"role": "user", "content": "Say hello."}
		],
		"stream": false,
		"options": {"num_predict": 100}
	}`, string(reqs[0].Body))
}

func TestRequestMapping(t *testing.T) {
	orderedSchema := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}},"required":["zeta","alpha"]}`
	tests := []struct {
		name string
		req  provider.Request
		want string // the request body
	}{
		{
			name: "json schema format",
			req: provider.Request{
				Messages: []provider.Message{provider.UserMessage("Fill it.")},
				Output:   &provider.OutputSpec{Name: "result", Schema: json.RawMessage(orderedSchema), Strict: true},
			},
			want: `{"model":"qwen3","messages":[{"role":"user","content":"Fill it."}],"format":` + orderedSchema + `,"stream":false}`,
		},
		{
			name: "json mode",
			req: provider.Request{
				Messages: []provider.Message{provider.UserMessage("JSON please.")},
				Output:   &provider.OutputSpec{Format: provider.FormatJSONObject},
			},
			want: `{"model":"qwen3","messages":[{"role":"user","content":"JSON please."}],"format":"json","stream":false}`,
		},
		{
			name: "tools, named choice not sent",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Submit.")},
				Tools:      []provider.Tool{{Name: "submit_result", Description: "Submit the result.", InputSchema: json.RawMessage(orderedSchema), Strict: true}, {Name: "ping"}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"},
			},
			want: `{"model":"qwen3","messages":[{"role":"user","content":"Submit."}],"tools":[
				{"type":"function","function":{"name":"submit_result","description":"Submit the result.","parameters":` + orderedSchema + `}},
				{"type":"function","function":{"name":"ping","parameters":{"type":"object","properties":{}}}}],"stream":false}`,
		},
		{
			name: "tool choice none leaves the tools out",
			req: provider.Request{
				Messages:   []provider.Message{provider.UserMessage("Talk.")},
				Tools:      []provider.Tool{{Name: "ping"}},
				ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceNone},
			},
			want: `{"model":"qwen3","messages":[{"role":"user","content":"Talk."}],"stream":false}`,
		},
		{
			name: "conversation with tool calls and results",
			req: provider.Request{
				Messages: []provider.Message{
					provider.UserMessage("Weather?"),
					{Role: provider.RoleAssistant, Content: "Checking.", ToolCalls: []provider.ToolCall{
						{ID: "call_1", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
						{ID: "call_2", Name: "forecast", Arguments: json.RawMessage(`{"city":`)},
					}},
					{Role: provider.RoleTool, ToolCallID: "call_1", Content: `{"temp":3}`},
					{Role: provider.RoleTool, ToolCallID: "call_2", Content: "city is required", IsError: true},
					{Role: provider.RoleAssistant, Content: "It is 3 degrees."},
					provider.UserMessage("Thanks."),
				},
			},
			want: `{"model":"qwen3","messages":[
				{"role":"user","content":"Weather?"},
				{"role":"assistant","content":"Checking.","tool_calls":[
					{"id":"call_1","function":{"name":"weather","arguments":{"city":"Oslo"}}},
					{"id":"call_2","function":{"name":"forecast","arguments":{}}}]},
				{"role":"tool","content":"{\"temp\":3}","tool_name":"weather","tool_call_id":"call_1"},
				{"role":"tool","content":"error: city is required","tool_name":"forecast","tool_call_id":"call_2"},
				{"role":"assistant","content":"It is 3 degrees."},
				{"role":"user","content":"Thanks."}],"stream":false}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: textChat("ok", "stop")})
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
			Body: textChat(`{"zeta":"z","alpha":1}`, "stop"),
			want: provider.Response{Text: `{"zeta":"z","alpha":1}`, StopReason: provider.StopEnd, RawStopReason: "stop"},
		},
		{
			name: "thinking left out",
			Body: chat(`{"role":"assistant","content":"{}","thinking":"Let me think."}`, "stop"),
			want: provider.Response{Text: "{}", StopReason: provider.StopEnd, RawStopReason: "stop"},
		},
		{
			name: "tool call with id",
			Body: toolChat("call_abc", "submit_result", `{"ok":true}`),
			want: provider.Response{ToolCalls: []provider.ToolCall{{ID: "call_abc", Name: "submit_result", Arguments: json.RawMessage(`{"ok":true}`)}},
				StopReason: provider.StopToolUse, RawStopReason: "stop"},
		},
		{
			name: "tool call without id",
			Body: toolChat("", "submit_result", `{"ok":true}`),
			want: provider.Response{ToolCalls: []provider.ToolCall{{ID: "call_0", Name: "submit_result", Arguments: json.RawMessage(`{"ok":true}`)}},
				StopReason: provider.StopToolUse, RawStopReason: "stop"},
		},
		{
			name: "length",
			Body: textChat(`{"zeta":"trunc`, "length"),
			want: provider.Response{Text: `{"zeta":"trunc`, StopReason: provider.StopLength, RawStopReason: "length"},
		},
		{
			name: "no done reason",
			Body: textChat("x", ""),
			want: provider.Response{Text: "x"},
		},
		{
			name: "unload",
			Body: textChat("", "unload"),
			want: provider.Response{StopReason: provider.StopOther, RawStopReason: "unload"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: tt.Body})
			p := newProvider(t, s)
			resp, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
			require.NoError(t, err)
			tt.want.Model = "qwen3:8b"
			tt.want.Usage = provider.Usage{InputTokens: 40, OutputTokens: 15, TotalTokens: 55}
			assert.Equal(t, &tt.want, resp)
		})
	}
}

func TestErrors(t *testing.T) {
	schemaReq := &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}, Output: &provider.OutputSpec{Schema: json.RawMessage(`{"type":"object"}`)}}
	plainReq := &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}}
	tests := []struct {
		name       string
		req        *provider.Request
		reply      wireReply
		sentinel   error
		kind       provider.ErrorKind
		Status     int
		message    string
		retryAfter time.Duration
	}{
		{
			name: "schema rejected", req: schemaReq,
			reply:    wireReply{Status: 400, Body: `{"error":"invalid format: expected \"json\" or a valid JSON schema"}`},
			sentinel: provider.ErrSchemaRejected, kind: provider.ErrSchemaRejected, Status: 400,
			message: `invalid format: expected "json" or a valid JSON schema`,
		},
		{
			name: "grammar failure", req: schemaReq,
			reply:    wireReply{Status: 500, Body: `{"error":"failed to load grammar from schema"}`},
			sentinel: provider.ErrSchemaRejected, kind: provider.ErrSchemaRejected, Status: 500,
			message: "failed to load grammar from schema",
		},
		{
			name: "format complaint without a schema sent", req: plainReq,
			reply:    wireReply{Status: 400, Body: `{"error":"invalid message format"}`},
			sentinel: provider.ErrInvalidRequest, kind: provider.ErrInvalidRequest, Status: 400,
			message: "invalid message format",
		},
		{
			name: "model not pulled", req: schemaReq,
			reply:    wireReply{Status: 404, Body: `{"error":"model \"qwen3\" not found, try pulling it first"}`},
			sentinel: provider.ErrInvalidRequest, kind: provider.ErrInvalidRequest, Status: 404,
			message: `model "qwen3" not found, try pulling it first`,
		},
		{
			name: "rate limited by a proxy", req: plainReq,
			reply:    wireReply{Status: 429, Body: `{"error":"too many requests"}`},
			sentinel: provider.ErrRateLimited, kind: provider.ErrRateLimited, Status: 429,
			message: "too many requests",
		},
		{
			name: "rate limited by a proxy that asks for a wait", req: plainReq,
			reply:    wireReply{Status: 429, Body: `{"error":"too many requests"}`, Header: map[string]string{"Retry-After": "2"}},
			sentinel: provider.ErrRateLimited, kind: provider.ErrRateLimited, Status: 429,
			message: "too many requests", retryAfter: 2 * time.Second,
		},
		{
			name: "unauthorized by a proxy", req: plainReq,
			reply:    wireReply{Status: 401, Body: "unauthorized"},
			sentinel: provider.ErrAuth, kind: provider.ErrAuth, Status: 401,
			message: "unauthorized",
		},
		{
			name: "server busy", req: plainReq,
			reply:    wireReply{Status: 503, Body: `{"error":"server busy, please try again.  maximum pending requests exceeded"}`},
			sentinel: provider.ErrOverloaded, kind: provider.ErrOverloaded, Status: 503,
			message: "server busy, please try again.  maximum pending requests exceeded",
		},
		{
			name: "out of memory", req: plainReq,
			reply:    wireReply{Status: 500, Body: `{"error":"model requires more system memory (9.0 GiB) than is available (4.0 GiB)"}`},
			sentinel: provider.ErrOverloaded, kind: provider.ErrOverloaded, Status: 500,
			message: "model requires more system memory (9.0 GiB) than is available (4.0 GiB)",
		},
		{
			name: "error in a 200 body", req: plainReq,
			reply: wireReply{Body: `{"error":"an error was encountered while running the model"}`},
			kind:  provider.ErrOther, Status: 200,
			message: "an error was encountered while running the model",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, tt.reply)
			p := newProvider(t, s)
			resp, err := p.Generate(context.Background(), tt.req)
			require.Error(t, err)
			assert.Nil(t, resp)
			if tt.sentinel != nil {
				assert.ErrorIs(t, err, tt.sentinel)
			}
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.kind, pe.Kind)
			assert.Equal(t, "ollama", pe.Provider)
			assert.Equal(t, tt.Status, pe.StatusCode)
			assert.Equal(t, tt.message, pe.Message)
			assert.Equal(t, tt.retryAfter, pe.RetryAfter)
			assert.True(t, strings.HasPrefix(err.Error(), "ollama: "), err.Error())
		})
	}
}

func TestUnreachableServer(t *testing.T) {
	s := newWireServer(t)
	url := s.URL
	s.Close()
	p, err := ollama.New(&ollama.Options{Model: "qwen3", BaseURL: url})
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, provider.ErrOther, pe.Kind)
	assert.Contains(t, pe.Message, url+"/api/chat")
	assert.NotNil(t, pe.Err)
}

func TestInvalidRequests(t *testing.T) {
	user := []provider.Message{provider.UserMessage("x")}
	tests := []struct {
		name string
		req  *provider.Request
	}{
		{name: "nil request", req: nil},
		{name: "unknown role", req: &provider.Request{Messages: []provider.Message{{Role: "wizard", Content: "hi"}}}},
		{name: "tool choice without name", req: &provider.Request{Messages: user, ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool}}},
		{name: "unknown tool choice", req: &provider.Request{Messages: user, ToolChoice: provider.ToolChoice{Mode: "maybe"}}},
		{name: "tool without name", req: &provider.Request{Messages: user, Tools: []provider.Tool{{}}}},
		{name: "output without schema", req: &provider.Request{Messages: user, Output: &provider.OutputSpec{}}},
		{name: "unknown output format", req: &provider.Request{Messages: user, Output: &provider.OutputSpec{Format: "yaml"}}},
		{name: "schema that is not JSON", req: &provider.Request{Messages: user, Output: &provider.OutputSpec{Schema: json.RawMessage(`{"type":`)}}},
		{name: "negative max tokens", req: &provider.Request{Messages: user, MaxTokens: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t)
			p := newProvider(t, s)
			_, err := p.Generate(context.Background(), tt.req)
			assert.ErrorIs(t, err, provider.ErrInvalidRequest)
			assert.Empty(t, s.Requests(), "nothing is sent")
		})
	}
}

func TestNewOptions(t *testing.T) {
	tests := []struct {
		name string
		opts *ollama.Options
	}{
		{name: "nil options", opts: nil},
		{name: "no model", opts: &ollama.Options{}},
		{name: "blank model", opts: &ollama.Options{Model: "  "}},
		{name: "other scheme", opts: &ollama.Options{Model: "m", BaseURL: "ftp://localhost:11434"}},
		{name: "query", opts: &ollama.Options{Model: "m", BaseURL: "http://localhost:11434?x=1"}},
		{name: "negative context window", opts: &ollama.Options{Model: "m", NumCtx: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ollama.New(tt.opts)
			assert.Nil(t, p)
			assert.ErrorIs(t, err, ollama.ErrInvalidOption)
		})
	}
}

// TestBaseURL: the base URL is read as OLLAMA_HOST is written.
func TestBaseURL(t *testing.T) {
	tests := []struct{ base, want string }{
		{base: "", want: "http://localhost:11434/api/chat"},
		{base: "127.0.0.1:11435", want: "http://127.0.0.1:11435/api/chat"},
		{base: "ollama.internal", want: "http://ollama.internal:11434/api/chat"},
		{base: "http://gpu-box:11434/", want: "http://gpu-box:11434/api/chat"},
		{base: "https://ollama.example.com", want: "https://ollama.example.com/api/chat"},
		{base: "https://gw.example.com/ollama/", want: "https://gw.example.com/ollama/api/chat"},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			var got string
			client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
				got = r.URL.String()
				return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(textChat("ok", "stop"))), Header: http.Header{}}, nil
			})}
			p, err := ollama.New(&ollama.Options{Model: "m", BaseURL: tt.base, HTTPClient: client})
			require.NoError(t, err)
			_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// roundTrip is an http.RoundTripper from a function.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestCapabilities(t *testing.T) {
	p, err := ollama.New(&ollama.Options{Model: "qwen3"})
	require.NoError(t, err)
	caps := p.Capabilities()
	assert.Equal(t, ollama.DefaultCapabilities(), caps)
	assert.True(t, caps.NativeSchema)
	assert.False(t, caps.ForcedTool, "Ollama has no tool_choice")
	assert.Equal(t, "ollama", caps.Dialect)
	assert.Equal(t, "qwen3", p.Model())

	custom := provider.Capabilities{Tools: true}
	p, err = ollama.New(&ollama.Options{Model: "qwen3", Capabilities: &custom})
	require.NoError(t, err)
	assert.Equal(t, custom, p.Capabilities())
}

// TestNumCtx: the context window goes out with every request.
func TestNumCtx(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textChat("ok", "stop")}, wireReply{Body: textChat("ok", "stop")})
	p, err := ollama.New(&ollama.Options{Model: "qwen3", BaseURL: s.URL, NumCtx: 16384})
	require.NoError(t, err)
	for _, limit := range []int{0, 256} {
		_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}, MaxTokens: limit})
		require.NoError(t, err)
	}
	reqs := s.Requests()
	assert.Equal(t, map[string]any{"num_ctx": float64(16384)}, reqs[0].JSON(t)["options"])
	assert.Equal(t, map[string]any{"num_ctx": float64(16384), "num_predict": float64(256)}, reqs[1].JSON(t)["options"])
}

func TestContextCanceled(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textChat("hi", "stop")})
	p := newProvider(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.Generate(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("go")}})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestConcurrentGenerate(t *testing.T) {
	const n = 8
	var replies []wireReply
	for i := 0; i < n; i++ {
		replies = append(replies, wireReply{Body: textChat("ok", "stop")})
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
