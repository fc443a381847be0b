package ollama_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider/ollama"
)

// A wireReply is one scripted HTTP response.
type wireReply struct {
	status int // 200 when zero
	body   string
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

// A wireServer is a local HTTP server speaking Ollama's /api/chat wire
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
		reply = wireReply{status: http.StatusInternalServerError, body: `{"error":"no scripted reply left"}`}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
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

// newProvider returns a Provider for s.
func newProvider(t *testing.T, s *wireServer) *ollama.Provider {
	t.Helper()
	p, err := ollama.New(&ollama.Options{Model: "qwen3", BaseURL: s.URL})
	require.NoError(t, err)
	return p
}

// chat is an /api/chat reply with the given message.
func chat(message, doneReason string) string {
	return `{"model":"qwen3:8b","created_at":"2026-11-25T03:00:00.000000Z","message":` + message +
		`,"done":true,"done_reason":"` + doneReason + `","total_duration":1200000000,"load_duration":1000000,` +
		`"prompt_eval_count":40,"prompt_eval_duration":100000,"eval_count":15,"eval_duration":900000}`
}

// textChat is a reply with text content.
func textChat(text, doneReason string) string {
	b, _ := json.Marshal(text)
	return chat(`{"role":"assistant","content":`+string(b)+`}`, doneReason)
}

// toolChat is a reply calling one tool with the JSON object arguments.
func toolChat(id, name, args string) string {
	idField := ""
	if id != "" {
		idField = `"id":"` + id + `",`
	}
	return chat(`{"role":"assistant","content":"","tool_calls":[{`+idField+`"function":{"index":0,"name":"`+name+`","arguments":`+args+`}}]}`, "stop")
}
