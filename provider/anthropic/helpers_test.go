package anthropic_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider/anthropic"
	"github.com/agentio/agentio/provider/wiretest"
)

// The wire test server: the Messages API's wire format from a script (see
// provider/wiretest).
type (
	wireReply   = wiretest.Reply
	wireRequest = wiretest.Request
	wireServer  = wiretest.Server
)

func newWireServer(t *testing.T, replies ...wireReply) *wireServer {
	t.Helper()
	return wiretest.New(t, &wiretest.Options{Header: map[string]string{"request-id": "req_test"}, Exhausted: wireReply{Status: http.StatusInternalServerError, Body: apiError("api_error", "no scripted reply left")}}, replies...)
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

// wireUsage is the usage of the scripted replies.
const wireUsage = `{"input_tokens":50,"output_tokens":20,"cache_creation_input_tokens":5,"cache_read_input_tokens":10}`

// message is a Messages API response body with the given content blocks.
func message(content, stop string) string {
	return messageUsage(content, stop, wireUsage)
}

// messageUsage is a Messages API response body with the given content
// blocks and usage object.
func messageUsage(content, stop, usage string) string {
	return `{"id":"msg_01","type":"message","role":"assistant","model":"claude-test-2026","content":` + content +
		`,"stop_reason":"` + stop + `","stop_sequence":null,"usage":` + usage + `}`
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
