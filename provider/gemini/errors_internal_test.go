package gemini

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
)

func TestKindOf(t *testing.T) {
	tests := []struct {
		name    string
		code    int
		status  string
		message string
		schema  bool
		want    provider.ErrorKind
	}{
		{name: "response schema", code: 400, status: "INVALID_ARGUMENT", message: "* GenerateContentRequest.generation_config.response_json_schema: schema is too deeply nested", want: provider.ErrSchemaRejected},
		{name: "function parameters", code: 400, status: "INVALID_ARGUMENT", message: "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[x].type: must be specified", want: provider.ErrSchemaRejected},
		{name: "too many states", code: 400, status: "INVALID_ARGUMENT", message: "The specified schema produces a constraint that has too many states for serving.", want: provider.ErrSchemaRejected},
		{name: "bad key", code: 400, status: "INVALID_ARGUMENT", message: "API key not valid. Please pass a valid API key.", want: provider.ErrAuth},
		{name: "bad role", code: 400, status: "INVALID_ARGUMENT", message: "Please use a valid role: user, model.", want: provider.ErrInvalidRequest},
		{name: "failed precondition", code: 400, status: "FAILED_PRECONDITION", message: "User location is not supported for the API use.", want: provider.ErrInvalidRequest},
		{name: "quota", code: 429, status: "RESOURCE_EXHAUSTED", message: "You exceeded your current quota", want: provider.ErrRateLimited},
		{name: "quota by status name alone", code: 0, status: "RESOURCE_EXHAUSTED", want: provider.ErrRateLimited},
		{name: "unavailable", code: 503, status: "UNAVAILABLE", message: "The model is overloaded. Please try again later.", want: provider.ErrOverloaded},
		{name: "internal", code: 500, status: "INTERNAL", message: "An internal error has occurred.", want: provider.ErrOverloaded},
		{name: "deadline", code: 504, status: "DEADLINE_EXCEEDED", message: "Deadline expired before operation could complete.", want: provider.ErrOverloaded},
		{name: "unauthenticated", code: 401, status: "UNAUTHENTICATED", want: provider.ErrAuth},
		{name: "permission", code: 403, status: "PERMISSION_DENIED", message: "Method doesn't allow unregistered callers", want: provider.ErrAuth},
		{name: "bare invalid argument with a schema", code: 400, status: "INVALID_ARGUMENT", message: "Request contains an invalid argument.", schema: true, want: provider.ErrSchemaRejected},
		{name: "bare invalid argument without a schema", code: 400, status: "INVALID_ARGUMENT", message: "Request contains an invalid argument.", want: provider.ErrInvalidRequest},
		{name: "not found", code: 404, status: "NOT_FOUND", message: "models/gemini-9 is not found for API version v1beta", want: provider.ErrInvalidRequest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, kindOf(tc.code, tc.status, tc.message, tc.schema))
		})
	}
}

// FuzzAPIErrorBody: whatever a failed response's body is, the body the
// SDK then reads is the API's error JSON, with the status as the code and a
// bounded message.
func FuzzAPIErrorBody(f *testing.F) {
	f.Add(429, `{"message":"API rate limit exceeded"}`)
	f.Add(502, "<html>bad gateway</html>")
	f.Add(500, `{"error":"boom"}`)
	f.Add(404, "")
	f.Add(400, `{"error":{"code":400}}`)
	f.Fuzz(func(t *testing.T, status int, body string) {
		if isAPIErrorBody([]byte(body)) {
			return // passed on unchanged
		}
		out := apiErrorBody(status, body)
		require.True(t, isAPIErrorBody(out), "%s", out)
		var v struct{ Error genai.APIError }
		require.NoError(t, json.Unmarshal(out, &v))
		assert.Equal(t, status, v.Error.Code)
		assert.LessOrEqual(t, utf8.RuneCountInString(v.Error.Message), maxErrorText+1)
	})
}

// FuzzResponse: any reply the SDK decodes maps to a Response without a
// panic, with arguments that are JSON objects.
func FuzzResponse(f *testing.F) {
	f.Add(`{"candidates":[{"content":{"role":"model","parts":[{"text":"{}"}]},"finishReason":"STOP"}]}`)
	f.Add(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":[1,2]}}}]},"finishReason":"STOP"}]}`)
	f.Add(`{"candidates":[null,{"finishReason":"SAFETY"}],"promptFeedback":{"blockReason":"OTHER"}}`)
	f.Add(`{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":3}}`)
	f.Add(`{"candidates":[{"content":{"parts":[null,{"thought":true,"text":"x"}]},"finishReason":"MAX_TOKENS"}],"usageMetadata":{"thoughtsTokenCount":9}}`)
	f.Add(`{"candidates":[{"content":{"parts":[{"functionCall":{"id":"c","name":"f","args":{}},"thoughtSignature":"c2ln"}]},"finishReason":"STOP"}]}`)
	f.Fuzz(func(t *testing.T, body string) {
		var out genai.GenerateContentResponse
		if json.Unmarshal([]byte(body), &out) != nil {
			return
		}
		resp := response(&out)
		require.NotNil(t, resp)
		for _, c := range resp.ToolCalls {
			assert.True(t, json.Valid(c.Arguments), "%s", c.Arguments)
			assert.NotEmpty(t, c.ID)
			_, sig := splitID(c.ID)
			if len(sig) > 0 {
				assert.Contains(t, c.ID, signatureMark)
			}
		}
		assert.GreaterOrEqual(t, resp.Usage.OutputTokens, resp.Usage.ReasoningTokens)
	})
}

// FuzzCallID: the id and thought signature a call goes out with come back
// from the id the adapter gives it.
func FuzzCallID(f *testing.F) {
	f.Add("", []byte("sig"))
	f.Add("call-7", []byte{0, 255})
	f.Add(localIDPrefix+"3", []byte(nil))
	f.Add("a~sig:b", []byte("x"))
	f.Add("a~sig:b", []byte(nil))
	f.Fuzz(func(t *testing.T, id string, sig []byte) {
		gotID, gotSig := splitID(callID(id, sig))
		if strings.HasPrefix(id, localIDPrefix) {
			assert.Empty(t, gotID)
		} else {
			assert.Equal(t, id, gotID)
		}
		assert.Equal(t, len(sig), len(gotSig))
		if len(sig) > 0 {
			assert.Equal(t, sig, gotSig)
		}
	})
}
