package openai_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider/openai"
)

// A wireReply is one scripted HTTP response.
type wireReply struct {
	status  int // 200 when zero
	body    string
	headers map[string]string
}

// A wireRequest is one request the server received.
type wireRequest struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// JSON decodes the request body.
func (r wireRequest) JSON(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &v), "request body: %s", r.Body)
	return v
}

// A wireServer is a local HTTP server speaking OpenAI's wire format from
// a script: it answers each request with the next reply and records it.
type wireServer struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []wireReply
	requests []wireRequest
}

func newWireServer(t *testing.T, replies ...wireReply) *wireServer {
	t.Helper()
	s := &wireServer{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *wireServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, wireRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	var reply wireReply
	if len(s.replies) > 0 {
		reply, s.replies = s.replies[0], s.replies[1:]
	} else {
		reply = wireReply{status: http.StatusInternalServerError, body: `{"error":{"message":"no scripted reply left","type":"server_error"}}`}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("x-request-id", "req_test")
	for k, v := range reply.headers {
		w.Header().Set(k, v)
	}
	status := reply.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, reply.body)
}

// Requests returns the recorded requests.
func (s *wireServer) Requests() []wireRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]wireRequest(nil), s.requests...)
}

// newOfficial returns a Provider for s that behaves as with OpenAI's own
// endpoint (capabilities, max_completion_tokens), without SDK retries.
func newOfficial(t *testing.T, s *wireServer, api openai.API) *openai.Provider {
	t.Helper()
	caps := openai.OfficialCapabilities()
	p, err := openai.New(&openai.Options{
		Model:          "gpt-test",
		APIKey:         "test-key",
		BaseURL:        s.URL + "/v1",
		API:            api,
		MaxTokensParam: openai.MaxTokensCompletion,
		Capabilities:   &caps,
		RequestOptions: []option.RequestOption{option.WithMaxRetries(0)},
	})
	require.NoError(t, err)
	return p
}

// chatReply is a Chat Completions response body with one choice.
func chatReply(message, finish string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-test-2026",` +
		`"choices":[{"index":0,"message":` + message + `,"logprobs":null,"finish_reason":"` + finish + `"}],` +
		`"usage":{"prompt_tokens":50,"completion_tokens":20,"total_tokens":70,` +
		`"prompt_tokens_details":{"cached_tokens":10},"completion_tokens_details":{"reasoning_tokens":5}}}`
}

// textReply is a Chat Completions reply with text content.
func textReply(text, finish string) string {
	b, _ := json.Marshal(text)
	return chatReply(`{"role":"assistant","content":`+string(b)+`,"refusal":null}`, finish)
}

// toolReply is a Chat Completions reply calling one function.
func toolReply(id, name, args, finish string) string {
	a, _ := json.Marshal(args)
	return chatReply(`{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"`+id+
		`","type":"function","function":{"name":"`+name+`","arguments":`+string(a)+`}}]}`, finish)
}

// apiError is an OpenAI error body.
func apiError(message, typ, param, code string) string {
	v := map[string]any{"message": message, "type": typ, "param": nil, "code": nil}
	if param != "" {
		v["param"] = param
	}
	if code != "" {
		v["code"] = code
	}
	b, _ := json.Marshal(map[string]any{"error": v})
	return string(b)
}

// newSDKClient returns an SDK client for baseURL with its own key and no
// retries.
func newSDKClient(baseURL string) sdk.Client {
	return sdk.NewClient(option.WithBaseURL(baseURL), option.WithAPIKey("client-key"), option.WithMaxRetries(0))
}
