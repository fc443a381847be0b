package gemini_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider/gemini"
)

// A wireReply is one scripted HTTP response.
type wireReply struct {
	status int // 200 when zero
	body   string
}

// A wireRequest is one request the server received.
type wireRequest struct {
	Path string
	Body []byte
}

// JSON decodes the request body.
func (r wireRequest) JSON(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &v), "request body: %s", r.Body)
	return v
}

// A wireServer speaks the Gemini API's wire format from a script.
type wireServer struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []wireReply
	requests []wireRequest
}

func newWireServer(t *testing.T, replies ...wireReply) *wireServer {
	t.Helper()
	s := &wireServer{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.requests = append(s.requests, wireRequest{Path: r.URL.Path, Body: body})
		reply := wireReply{status: 500, body: `{"error":{"code":500,"message":"no scripted reply left","status":"INTERNAL"}}`}
		if len(s.replies) > 0 {
			reply, s.replies = s.replies[0], s.replies[1:]
		}
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if reply.status == 0 {
			reply.status = http.StatusOK
		}
		w.WriteHeader(reply.status)
		_, _ = io.WriteString(w, reply.body)
	}))
	t.Cleanup(s.Close)
	return s
}

// Requests returns the recorded requests.
func (s *wireServer) Requests() []wireRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]wireRequest(nil), s.requests...)
}

func newProvider(t *testing.T, s *wireServer) *gemini.Provider {
	t.Helper()
	p, err := gemini.New(context.Background(), &gemini.Options{Model: "gemini-test", APIKey: "test-key", BaseURL: s.URL})
	require.NoError(t, err)
	return p
}

// candidate is a generateContent response with one candidate.
func candidate(parts, finish string) string {
	return `{"candidates":[{"content":{"role":"model","parts":` + parts + `},"finishReason":"` + finish + `","index":0}],` +
		`"usageMetadata":{"promptTokenCount":30,"candidatesTokenCount":12,"thoughtsTokenCount":5,"cachedContentTokenCount":6,"totalTokenCount":47},` +
		`"modelVersion":"gemini-test-001"}`
}

func textReply(text, finish string) string {
	b, _ := json.Marshal(text)
	return candidate(`[{"text":`+string(b)+`}]`, finish)
}

func callReply(name, args string) string {
	return candidate(`[{"functionCall":{"name":"`+name+`","args":`+args+`}}]`, "STOP")
}

func apiError(code int, status, message string) wireReply {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "status": status, "message": message}})
	return wireReply{status: code, body: string(b)}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
