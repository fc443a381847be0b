package anthropic_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider/anthropic"
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

// A wireServer is a local HTTP server speaking the Messages API's wire
// format from a script: it answers each request with the next reply and
// records it.
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
		reply = wireReply{status: http.StatusInternalServerError, body: apiError("api_error", "no scripted reply left")}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", "req_test")
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

// newProvider returns a Provider for s without SDK retries.
func newProvider(t *testing.T, s *wireServer) *anthropic.Provider {
	t.Helper()
	p, err := anthropic.New(&anthropic.Options{
		Model:          "claude-test",
		APIKey:         "test-key",
		BaseURL:        s.URL,
		RequestOptions: []option.RequestOption{option.WithMaxRetries(0)},
	})
	require.NoError(t, err)
	return p
}

// message is a Messages API response body with the given content blocks.
func message(content, stop string) string {
	return `{"id":"msg_01","type":"message","role":"assistant","model":"claude-test-2026","content":` + content +
		`,"stop_reason":"` + stop + `","stop_sequence":null,` +
		`"usage":{"input_tokens":50,"output_tokens":20,"cache_creation_input_tokens":5,"cache_read_input_tokens":10}}`
}

// textMessage is a reply with one text block.
func textMessage(text, stop string) string {
	b, _ := json.Marshal(text)
	return message(`[{"type":"text","text":`+string(b)+`}]`, stop)
}

// toolMessage is a reply calling one tool with the JSON object input.
func toolMessage(id, name, input string) string {
	return message(`[{"type":"tool_use","id":"`+id+`","name":"`+name+`","input":`+input+`}]`, "tool_use")
}

// apiError is a Messages API error body.
func apiError(typ, msg string) string {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}, "request_id": "req_body"})
	return string(b)
}
