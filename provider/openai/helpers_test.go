package openai_test

import (
	"encoding/json"
	"net/http"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider/openai"
	"github.com/agentio/agentio/provider/wiretest"
)

// The wire test server: OpenAI's wire format from a script (see
// provider/wiretest).
type (
	wireReply   = wiretest.Reply
	wireRequest = wiretest.Request
	wireServer  = wiretest.Server
)

func newWireServer(t *testing.T, replies ...wireReply) *wireServer {
	t.Helper()
	return wiretest.New(t, &wiretest.Options{Header: map[string]string{"x-request-id": "req_test"}, Exhausted: wireReply{Status: http.StatusInternalServerError, Body: `{"error":{"message":"no scripted reply left","type":"server_error"}}`}}, replies...)
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
