package providertest

import (
	"encoding/json"
	"time"

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
	// no response; the other fields are then ignored, but for a streamed
	// call, which first sends Chunks and then fails, as a connection lost
	// mid-reply.
	Err error

	// The fields below shape a reply served by [Provider.Stream]; Generate
	// ignores them.

	// Chunks, when set, are the pieces the text is streamed in, and their
	// concatenation is the reply's text (Text is then ignored).
	Chunks []string
	// ChunkSize, when Chunks is not set, splits the text and each tool
	// call's arguments into pieces of that many bytes; 0 sends each whole.
	ChunkSize int
	// Delay is waited before each chunk (the context can cut it short).
	Delay time.Duration
	// CutOff ends the stream after the last piece without the final chunk
	// that carries the whole reply, as a connection closed early would.
	CutOff bool
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
//	providertest.Failed(&provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429})
func Failed(err error) Reply { return Reply{Err: err} }

// CallTool returns a reply that calls the tool name with arguments, the raw
// JSON (valid or not) the model produced. The call's ID is assigned when the
// reply is served.
func CallTool(name, arguments string) Reply {
	return Reply{ToolCalls: []provider.ToolCall{{Name: name, Arguments: json.RawMessage(arguments)}}}
}

// Chunked returns a reply whose text is text, streamed in pieces of size
// bytes (the last may be shorter), that ended normally.
func Chunked(size int, text string) Reply { return Reply{Text: text, ChunkSize: size} }

// Pieces returns a reply streamed in exactly the given pieces, whose
// concatenation is its text, that ended normally.
func Pieces(pieces ...string) Reply { return Reply{Chunks: pieces} }
