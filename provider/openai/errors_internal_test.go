package openai

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestSchemaComplaint(t *testing.T) {
	tests := []struct {
		name    string
		param   string
		message string
		want    bool
	}{
		{name: "response_format param", param: "response_format", message: "Invalid schema for response_format 'x'", want: true},
		{name: "tool parameters param", param: "tools[0].function.parameters", message: "Invalid schema for function 'f'", want: true},
		{name: "responses text format", param: "text.format.schema", message: "Invalid schema", want: true},
		{name: "vLLM guided decoding", message: "The provided JSON schema contains features not supported by xgrammar.", want: true},
		{name: "llama.cpp grammar", message: "Failed to parse grammar", want: true},
		{name: "unsupported parameter", param: "max_tokens", message: "Unsupported parameter: 'max_tokens'", want: false},
		{name: "context length", param: "messages", message: "This model's maximum context length is 128000 tokens.", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, schemaComplaint(tt.param, tt.message))
		})
	}
}

func TestBodyMessage(t *testing.T) {
	tests := []struct {
		name, body, message, code string
	}{
		{name: "openai shape", body: `{"error":{"message":"bad","type":"invalid_request_error","code":"x1"}}`, message: "bad", code: "x1"},
		{name: "numeric code", body: `{"error":{"message":"bad","type":"invalid_request_error","code":400}}`, message: "bad", code: "invalid_request_error"},
		{name: "string error", body: `{"error":"model not found"}`, message: "model not found"},
		{name: "detail string", body: `{"detail":"no such model"}`, message: "no such model"},
		{name: "detail object", body: `{"detail":[{"loc":["body","model"],"msg":"field required"}]}`, message: `[{"loc":["body","model"],"msg":"field required"}]`},
		{name: "message", body: `{"message":"overloaded"}`, message: "overloaded"},
		{name: "plain text", body: " upstream timeout \n", message: "upstream timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			message, code := bodyMessage([]byte(tt.body))
			assert.Equal(t, tt.message, message)
			assert.Equal(t, tt.code, code)
		})
	}
}

// FuzzBodyMessage: any error body yields a bounded message without a
// panic.
func FuzzBodyMessage(f *testing.F) {
	f.Add(`{"error":{"message":"bad","code":"x"}}`)
	f.Add(`{"error":"x"}`)
	f.Add(`{"detail":{"a":[1,2]}}`)
	f.Add("plain")
	f.Fuzz(func(t *testing.T, body string) {
		message, _ := bodyMessage([]byte(body))
		if json.Valid([]byte(body)) {
			return
		}
		assert.LessOrEqual(t, len(message), maxErrorText+len("…"))
		if utf8.ValidString(body) {
			assert.True(t, utf8.ValidString(message), "cut on a rune boundary: %q", message)
		}
	})
}
