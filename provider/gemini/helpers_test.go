package gemini_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider/gemini"
	"github.com/agentio/agentio/provider/wiretest"
)

// The wire test server: the Gemini API's wire format from a script (see
// provider/wiretest).
type (
	wireReply  = wiretest.Reply
	wireServer = wiretest.Server
)

func newWireServer(t *testing.T, replies ...wireReply) *wireServer {
	t.Helper()
	return wiretest.New(t, &wiretest.Options{Exhausted: wireReply{Status: 500, Body: `{"error":{"code":500,"message":"no scripted reply left","status":"INTERNAL"}}`}}, replies...)
}

func newProvider(t *testing.T, s *wireServer) *gemini.Provider {
	t.Helper()
	p, err := gemini.New(&gemini.Options{Model: "gemini-test", APIKey: "test-key", BaseURL: s.URL})
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
	return wireReply{Status: code, Body: string(b)}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
