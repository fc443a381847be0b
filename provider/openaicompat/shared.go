package openaicompat

// What the adapters for OpenAI's APIs share, whether they speak them with
// net/http (this package) or through the SDK (provider/openai): the names,
// headers and finish reasons of the wire format.

import (
	"net/http"
	"regexp"

	"github.com/agentio/agentio/provider"
)

// DefaultOutputName names an output schema a request leaves unnamed, in a
// response format.
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

// EndReason returns the stop reason of a reply the API reports as ended
// without a problem: OpenAI reports a refusal, and a call forced by a named
// tool choice, that way too. plain is the reason for a plain reply.
func EndReason(resp *provider.Response, plain provider.StopReason) provider.StopReason {
	switch {
	case resp.Refusal != "":
		return provider.StopRefusal
	case len(resp.ToolCalls) > 0:
		return provider.StopToolUse
	}
	return plain
}

// StopReason normalises a Chat Completions finish_reason, with the names
// compatible servers also send (Anthropic's end_turn, max_tokens and
// tool_use); a reply without one has no stop reason unless it refuses or
// calls tools.
func StopReason(finish string, resp *provider.Response) provider.StopReason {
	switch finish {
	case "stop", "STOP", "end_turn":
		return EndReason(resp, provider.StopEnd)
	case "":
		return EndReason(resp, "")
	case "length", "max_tokens":
		return provider.StopLength
	case "tool_calls", "function_call", "tool_use":
		return provider.StopToolUse
	case "content_filter":
		return provider.StopContentFilter
	}
	return provider.StopOther
}
