package gemini_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/gemini"
)

func TestNewOptions(t *testing.T) {
	t.Setenv("GEMINI_API_KEY", "")
	t.Setenv("GOOGLE_API_KEY", "")
	for name, o := range map[string]*gemini.Options{
		"nil":         nil,
		"no model":    {APIKey: "k"},
		"no key":      {Model: "m"},
		"bad base":    {Model: "m", APIKey: "k", BaseURL: "not a url"},
		"blank model": {Model: " ", APIKey: "k"},
	} {
		_, err := gemini.New(o)
		require.ErrorIs(t, err, gemini.ErrInvalidOption, name)
	}
	p, err := gemini.New(&gemini.Options{Model: "gemini-2.5-flash", APIKey: "k"})
	require.NoError(t, err)
	assert.Equal(t, "gemini-2.5-flash", p.Model())
	assert.Equal(t, gemini.DefaultCapabilities(), p.Capabilities())
	caps := provider.Capabilities{Tools: true}
	p, err = gemini.New(&gemini.Options{Model: "m", APIKey: "k", Capabilities: &caps})
	require.NoError(t, err)
	assert.Equal(t, caps, p.Capabilities())
}

func TestAPIKeyFromEnvironment(t *testing.T) {
	tests := []struct {
		name, gemini, google, option, want string
	}{
		{name: "GEMINI_API_KEY", gemini: "g1", want: "g1"},
		{name: "GOOGLE_API_KEY", google: "g2", want: "g2"},
		{name: "GEMINI_API_KEY first", gemini: "g1", google: "g2", want: "g1"},
		{name: "the option first", gemini: "g1", option: "o", want: "o"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GEMINI_API_KEY", tc.gemini)
			t.Setenv("GOOGLE_API_KEY", tc.google)
			s := newWireServer(t, wireReply{Body: textReply("{}", "STOP")})
			p, err := gemini.New(&gemini.Options{Model: "m", APIKey: tc.option, BaseURL: s.URL})
			require.NoError(t, err)
			_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
			require.NoError(t, err)
			assert.Equal(t, tc.want, s.Requests()[0].Header.Get("x-goog-api-key"))
		})
	}
}

func TestRequestMapping(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textReply(`{"b": 1, "a": "x"}`, "STOP")})
	temperature := float32(0.25)
	stop := []string{"</answer>"}
	p, err := gemini.New(&gemini.Options{Model: "gemini-test", APIKey: "test-key", BaseURL: s.URL, Temperature: &temperature, StopSequences: stop})
	require.NoError(t, err)
	temperature, stop[0] = 2, "changed" // New copied them
	schema := `{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"string"}},"propertyOrdering":["b","a"]}`
	req := &provider.Request{
		System: "Be brief.",
		Messages: []provider.Message{
			provider.UserMessage("Hi"),
			{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "lookup", Arguments: []byte(`{"q": "x"}`)}, {ID: "c2", Name: "lookup", Arguments: []byte(`{"q": "y"}`)}}},
			{Role: provider.RoleTool, ToolCallID: "c1", Content: "found"},
			{Role: provider.RoleTool, ToolCallID: "c2", Content: "none", IsError: true},
			provider.UserMessage("Answer."),
		},
		Tools:      []provider.Tool{{Name: "lookup", Description: "Looks up.", InputSchema: []byte(`{"type":"object","properties":{"q":{"type":"string"}}}`)}},
		ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "lookup"},
		Output:     &provider.OutputSpec{Schema: []byte(schema)},
		MaxTokens:  100,
	}
	resp, err := p.Generate(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, `{"b": 1, "a": "x"}`, resp.Text)
	assert.Equal(t, provider.StopEnd, resp.StopReason)
	assert.Equal(t, "STOP", resp.RawStopReason)
	assert.Equal(t, "gemini-test-001", resp.Model)
	assert.Equal(t, provider.Usage{InputTokens: 30, OutputTokens: 17, TotalTokens: 47, CachedInputTokens: 6, ReasoningTokens: 5}, resp.Usage)

	sent := s.Requests()[0]
	assert.Equal(t, "/v1beta/models/gemini-test:generateContent", sent.Path)
	body := sent.JSON(t)
	assert.Equal(t, map[string]any{"parts": []any{map[string]any{"text": "Be brief."}}, "role": "user"}, body["systemInstruction"])
	contents := body["contents"].([]any)
	require.Len(t, contents, 4, "the two tool results share one user turn")
	assert.Equal(t, "model", contents[1].(map[string]any)["role"])
	calls := contents[1].(map[string]any)["parts"].([]any)
	assert.Equal(t, map[string]any{"id": "c1", "name": "lookup", "args": map[string]any{"q": "x"}}, calls[0].(map[string]any)["functionCall"])
	results := contents[2].(map[string]any)["parts"].([]any)
	require.Len(t, results, 2)
	assert.Equal(t, map[string]any{"id": "c1", "name": "lookup", "response": map[string]any{"output": "found"}}, results[0].(map[string]any)["functionResponse"])
	assert.Equal(t, map[string]any{"error": "none"}, results[1].(map[string]any)["functionResponse"].(map[string]any)["response"])

	gen := body["generationConfig"].(map[string]any)
	assert.Equal(t, "application/json", gen["responseMimeType"])
	assert.Equal(t, []any{"b", "a"}, gen["responseJsonSchema"].(map[string]any)["propertyOrdering"])
	assert.EqualValues(t, 100, gen["maxOutputTokens"])
	assert.EqualValues(t, 0.25, gen["temperature"])
	assert.Equal(t, []any{"</answer>"}, gen["stopSequences"])
	tools := body["tools"].([]any)
	decl := tools[0].(map[string]any)["functionDeclarations"].([]any)[0].(map[string]any)
	assert.Equal(t, "lookup", decl["name"])
	assert.Contains(t, decl, "parametersJsonSchema")
	assert.Equal(t, map[string]any{"functionCallingConfig": map[string]any{"mode": "ANY", "allowedFunctionNames": []any{"lookup"}}}, body["toolConfig"])
}

func TestResponseMapping(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		want     provider.StopReason
		text     string
		refusal  string
		toolCall string
	}{
		{"max tokens", textReply(`{"a": "lo`, "MAX_TOKENS"), provider.StopLength, `{"a": "lo`, "", ""},
		{"safety", candidate(`[]`, "SAFETY"), provider.StopContentFilter, "", "", ""},
		{"recitation", textReply("x", "RECITATION"), provider.StopContentFilter, "x", "", ""},
		{"prohibited", candidate(`[]`, "PROHIBITED_CONTENT"), provider.StopContentFilter, "", "", ""},
		{"spii", candidate(`[]`, "SPII"), provider.StopContentFilter, "", "", ""},
		{"blocklist", candidate(`[]`, "BLOCKLIST"), provider.StopContentFilter, "", "", ""},
		{"image prohibited", candidate(`[]`, "IMAGE_PROHIBITED_CONTENT"), provider.StopContentFilter, "", "", ""},
		{"other", textReply("x", "MALFORMED_FUNCTION_CALL"), provider.StopOther, "x", "", ""},
		{"thoughts left out", candidate(`[{"text":"hmm","thought":true},{"text":"{}"}]`, "STOP"), provider.StopEnd, "{}", "", ""},
		{"function call", callReply("submit_result", `{"ok": true}`), provider.StopToolUse, "", "", `{"ok":true}`},
		{"prompt blocked", `{"promptFeedback":{"blockReason":"SAFETY","blockReasonMessage":"unsafe"},"usageMetadata":{"promptTokenCount":3,"totalTokenCount":3}}`,
			provider.StopRefusal, "", "the prompt was blocked (SAFETY): unsafe", ""},
		{"no candidate", `{"usageMetadata":{"promptTokenCount":3}}`, provider.StopOther, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: tc.body})
			resp, err := newProvider(t, s).Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("hi")}})
			require.NoError(t, err)
			assert.Equal(t, tc.want, resp.StopReason)
			assert.Equal(t, tc.text, resp.Text)
			assert.Equal(t, tc.refusal, resp.Refusal)
			if tc.toolCall != "" {
				require.Len(t, resp.ToolCalls, 1)
				assert.JSONEq(t, tc.toolCall, string(resp.ToolCalls[0].Arguments))
				assert.Equal(t, "agentio_call_0", resp.ToolCalls[0].ID, "a call without an id gets one")
			}
		})
	}
}

func TestLocalCallIDsAreNotSent(t *testing.T) {
	s := newWireServer(t, wireReply{Body: textReply("{}", "STOP")})
	_, err := newProvider(t, s).Generate(context.Background(), &provider.Request{Messages: []provider.Message{
		provider.UserMessage("hi"),
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "agentio_call_0", Name: "f", Arguments: []byte(`not json`)}}},
		{Role: provider.RoleTool, ToolCallID: "agentio_call_0", Content: "bad", IsError: true},
	}})
	require.NoError(t, err)
	contents := s.Requests()[0].JSON(t)["contents"].([]any)
	call := contents[1].(map[string]any)["parts"].([]any)[0].(map[string]any)["functionCall"].(map[string]any)
	assert.NotContains(t, call, "id")
	assert.Equal(t, map[string]any{"arguments": "not json"}, call["args"], "broken arguments go back as a string")
	result := contents[2].(map[string]any)["parts"].([]any)[0].(map[string]any)["functionResponse"].(map[string]any)
	assert.NotContains(t, result, "id")
	assert.Equal(t, "f", result["name"])
}

func TestInvalidRequests(t *testing.T) {
	s := newWireServer(t)
	p := newProvider(t, s)
	for name, req := range map[string]*provider.Request{
		"nil":            nil,
		"negative":       {MaxTokens: -1, Messages: []provider.Message{provider.UserMessage("x")}},
		"unknown role":   {Messages: []provider.Message{{Role: "system", Content: "x"}}},
		"orphan result":  {Messages: []provider.Message{{Role: provider.RoleTool, ToolCallID: "x"}}},
		"unnamed choice": {Messages: []provider.Message{provider.UserMessage("x")}, ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool}},
		"bad schema":     {Messages: []provider.Message{provider.UserMessage("x")}, Output: &provider.OutputSpec{Schema: []byte(`{`)}},
		"unnamed tool":   {Messages: []provider.Message{provider.UserMessage("x")}, Tools: []provider.Tool{{}}},
	} {
		_, err := p.Generate(context.Background(), req)
		require.ErrorIs(t, err, provider.ErrInvalidRequest, name)
		_, err = provider.Collect(p.Stream(context.Background(), req))
		require.ErrorIs(t, err, provider.ErrInvalidRequest, name+" (streamed)")
	}
	assert.Empty(t, s.Requests(), "nothing is sent")
}

func TestErrors(t *testing.T) {
	badKey := wireReply{Status: 400, Body: `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT",` +
		`"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`}
	tests := []struct {
		name    string
		reply   wireReply
		want    error
		code    string
		message string
	}{
		{name: "rate limit", reply: apiError(429, "RESOURCE_EXHAUSTED", "Quota exceeded"), want: provider.ErrRateLimited, code: "RESOURCE_EXHAUSTED"},
		{name: "overloaded", reply: apiError(503, "UNAVAILABLE", "The model is overloaded."), want: provider.ErrOverloaded, code: "UNAVAILABLE"},
		{name: "internal", reply: apiError(500, "INTERNAL", "An internal error has occurred."), want: provider.ErrOverloaded, code: "INTERNAL"},
		{name: "permission", reply: apiError(403, "PERMISSION_DENIED", "Permission denied"), want: provider.ErrAuth, code: "PERMISSION_DENIED"},
		{name: "bad key", reply: badKey, want: provider.ErrAuth, code: "INVALID_ARGUMENT", message: "API key not valid. Please pass a valid API key."},
		{name: "schema", reply: apiError(400, "INVALID_ARGUMENT", "Invalid JSON payload received. Unknown name \"foo\" at 'generation_config.response_json_schema'"), want: provider.ErrSchemaRejected, code: "INVALID_ARGUMENT"},
		{name: "other 400", reply: apiError(400, "INVALID_ARGUMENT", "Please use a valid role: user, model."), want: provider.ErrInvalidRequest, code: "INVALID_ARGUMENT"},
		{name: "gateway JSON", reply: wireReply{Status: 429, Body: `{"message":"API rate limit exceeded"}`}, want: provider.ErrRateLimited, message: "API rate limit exceeded"},
		{name: "gateway text", reply: wireReply{Status: 502, Body: "<html>" + strings.Repeat("bad gateway ", 100) + "</html>", Header: map[string]string{"Content-Type": "text/html"}}, want: provider.ErrOverloaded},
		{name: "empty body", reply: wireReply{Status: 504, Body: ""}, want: provider.ErrOverloaded, message: "Gateway Timeout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newWireServer(t, tc.reply)
			_, err := newProvider(t, s).Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
			require.ErrorIs(t, err, tc.want)
			var pe *provider.Error
			require.True(t, errors.As(err, &pe))
			assert.Equal(t, tc.reply.Status, pe.StatusCode)
			assert.Equal(t, tc.code, pe.Code)
			assert.Equal(t, gemini.Name, pe.Provider)
			assert.NotEmpty(t, pe.Message)
			assert.LessOrEqual(t, len([]rune(pe.Message)), 501, "a long body is cut short")
			if tc.message != "" {
				assert.Equal(t, tc.message, pe.Message)
			}
		})
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := newWireServer(t, wireReply{Body: textReply("{}", "STOP")})
	_, err := newProvider(t, s).Generate(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
	require.ErrorIs(t, err, context.Canceled)
}

// TestOwnClientGatewayError: with a client of the caller's (no error body
// transport), a gateway's JSON error body once made the SDK (v1.26)
// dereference nil; Generate and Stream caught the panic. The SDK now reads
// it as an error with its status, which Generate and Stream classify: a
// panic, were it to come back, fails this test.
func TestOwnClientGatewayError(t *testing.T) {
	s := newWireServer(t, wireReply{Status: 502, Body: `{"message":"bad gateway"}`}, wireReply{Status: 502, Body: `{"message":"bad gateway"}`})
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{APIKey: "k", Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: s.URL}, HTTPClient: &http.Client{}})
	require.NoError(t, err)
	p, err := gemini.New(&gemini.Options{Model: "m", Client: client})
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
	require.Error(t, err)
	assert.ErrorIs(t, err, provider.ErrOverloaded, "a 502 is the overloaded kind")
	_, err = provider.Collect(p.Stream(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}}))
	require.Error(t, err)
	assert.ErrorIs(t, err, provider.ErrOverloaded)
}

// TestHTTPClientNotModified: New puts its transport on a copy of the
// caller's client.
func TestHTTPClientNotModified(t *testing.T) {
	s := newWireServer(t, wireReply{Status: 429, Body: "slow down"})
	hc := &http.Client{}
	p, err := gemini.New(&gemini.Options{Model: "m", APIKey: "k", BaseURL: s.URL, HTTPClient: hc})
	require.NoError(t, err)
	assert.Nil(t, hc.Transport)
	_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
	require.ErrorIs(t, err, provider.ErrRateLimited)
}

func TestConcurrentGenerate(t *testing.T) {
	var replies []wireReply
	for range 8 {
		replies = append(replies, wireReply{Body: textReply(`{"ok": true}`, "STOP")})
	}
	s := newWireServer(t, replies...)
	p := newProvider(t, s)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
			assert.NoError(t, err)
			assert.Equal(t, `{"ok": true}`, resp.Text)
		}()
	}
	wg.Wait()
}
