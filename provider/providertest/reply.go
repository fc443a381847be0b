package providertest

import (
	"encoding/json"

	"github.com/agentio/agentio/provider"
)

// A Reply is one scripted answer of a [Provider]: either a response (Text,
// ToolCalls, Refusal, StopReason, Usage, Model) or, when Err is not nil, a
// failed call. The zero Reply is an empty text answer that ended normally.
type Reply struct {
	// Text is the reply's text.
	Text string
	// ToolCalls are the tool calls of the reply. A call with an empty ID is
	// given one ("call_1", "call_2", ... numbered across the Provider's
	// calls), as real APIs always send one.
	ToolCalls []provider.ToolCall
	// Refusal is a refusal message reported apart from the text.
	Refusal string
	// StopReason is the reply's stop reason. Empty means provider.StopToolUse
	// when there are ToolCalls, provider.StopRefusal when Refusal is set and
	// provider.StopEnd otherwise.
	StopReason provider.StopReason
	// Usage is the reply's token usage. A zero TotalTokens is set to
	// InputTokens + OutputTokens, as adapters do.
	Usage provider.Usage
	// Model names the model that answered; empty by default.
	Model string
	// Err, when not nil, makes the call fail with Err (returned as is) and
	// no response; the other fields are then ignored.
	Err error
}

// Text returns a reply whose text is text and that ended normally.
func Text(text string) Reply { return Reply{Text: text} }

// Truncated returns a reply whose text is text and that was cut off at the
// token limit (provider.StopLength).
func Truncated(text string) Reply {
	return Reply{Text: text, StopReason: provider.StopLength}
}

// Refused returns a reply in which the model declines to answer, with
// message as its refusal (provider.StopRefusal).
func Refused(message string) Reply {
	return Reply{Refusal: message, StopReason: provider.StopRefusal}
}

// Failed returns a reply that makes the call fail with err, as a network or
// API failure would. Use a *provider.Error to script a classified failure:
//
//	providertest.Failed(&provider.Error{Kind: provider.ErrorRateLimited, StatusCode: 429})
func Failed(err error) Reply { return Reply{Err: err} }

// CallTool returns a reply that calls the tool name with arguments, the raw
// JSON (valid or not) the model produced. The call's ID is assigned when the
// reply is served.
func CallTool(name, arguments string) Reply {
	return Reply{ToolCalls: []provider.ToolCall{{Name: name, Arguments: json.RawMessage(arguments)}}}
}
