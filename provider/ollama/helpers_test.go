package ollama_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider/ollama"
	"github.com/agentio/agentio/provider/wiretest"
)

// The wire test server: Ollama's wire format from a script (see
// provider/wiretest).
type (
	wireReply   = wiretest.Reply
	wireRequest = wiretest.Request
	wireServer  = wiretest.Server
)

func newWireServer(t *testing.T, replies ...wireReply) *wireServer {
	t.Helper()
	return wiretest.New(t, &wiretest.Options{Header: map[string]string{"Content-Type": "application/json; charset=utf-8"}, Exhausted: wireReply{Status: http.StatusInternalServerError, Body: `{"error":"no scripted reply left"}`}}, replies...)
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
