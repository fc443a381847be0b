// Package chatwire holds what the adapters for OpenAI's Chat Completions
// wire format share, whether they speak it through the SDK
// (provider/openai) or with net/http (provider/openaicompat).
package chatwire

import (
	"net/http"
	"regexp"
)

// DefaultOutputName names an output schema a request leaves unnamed.
const DefaultOutputName = "output"

// badNameChars are the characters OpenAI refuses in a response format name.
var badNameChars = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// OutputName returns name as OpenAI accepts it in a response format:
// letters, digits, _ and -, at most 64 characters, [DefaultOutputName]
// when empty.
func OutputName(name string) string {
	name = badNameChars.ReplaceAllString(name, "_")
	if len(name) > 64 {
		name = name[:64]
	}
	if name == "" {
		return DefaultOutputName
	}
	return name
}

// RequestID returns the request id header OpenAI (x-request-id) or a
// compatible server sets, or "".
func RequestID(h http.Header) string {
	for _, k := range []string{"x-request-id", "request-id", "openai-request-id"} {
		if v := h.Get(k); v != "" {
			return v
		}
	}
	return ""
}
