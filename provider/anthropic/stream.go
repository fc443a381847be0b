package anthropic

import (
	"context"
	"fmt"
	"iter"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/agentio/agentio/provider"
)

var _ provider.Streamer = (*Provider)(nil)

// Stream makes the Provider a [provider.Streamer]: it sends req as Generate
// does, with "stream": true, and yields the reply as the Messages API sends
// its events: the text of text blocks piece by piece, each tool_use block as
// a [provider.ToolCallDelta] (its id and name first, then its input JSON
// piece by piece; Index counts the reply's tool calls from 0), and, at
// message_stop, the whole [provider.Response], equal to what Generate
// returns for the same reply (stop reason, refusal, usage). Thinking and
// signature deltas are not reply text and are not yielded.
//
// An API failure before the reply (an HTTP error status) or during it (an
// error event, such as overloaded_error) ends the sequence with the
// *provider.Error Generate would return for it; a request the adapter
// cannot map ends it before any call, as in Generate. A stream that ends
// before message_stop yields no Response and no error: [provider.Collect]
// reads it as truncated. Leaving the range loop cancels the request and
// closes the connection.
func (p *Provider) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		params, err := p.params(req)
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stream := p.client.Messages.NewStreaming(ctx, params, p.opts...)
		defer stream.Close()
		var r streamReader
		for stream.Next() {
			c, err := r.add(stream.Current())
			if err != nil {
				yield(provider.Chunk{}, err)
				return
			}
			if c.Text == "" && c.ToolCall == nil && c.Response == nil {
				continue
			}
			if !yield(c, nil) || c.Response != nil {
				return
			}
		}
		if err := stream.Err(); err != nil {
			yield(provider.Chunk{}, classify(err))
		}
	}
}

// A streamReader turns the events of one streamed reply into chunks,
// accumulating the message Generate would have received.
type streamReader struct {
	msg   sdk.Message
	calls map[int64]int // content block index → tool call index
}

// add takes the next event and returns the chunk it makes, empty for an
// event that carries no reply text, tool call or end. An event the reply
// so far cannot take (a delta before any block) is an error of kind other.
func (r *streamReader) add(ev sdk.MessageStreamEventUnion) (provider.Chunk, error) {
	before := r.msg.Usage
	if err := r.accumulate(ev); err != nil {
		return provider.Chunk{}, &provider.Error{Kind: provider.ErrOther, Provider: Name,
			Message: fmt.Sprintf("malformed %s event", ev.Type), Err: err}
	}
	switch ev.Type {
	case "content_block_start":
		if ev.ContentBlock.Type != "tool_use" {
			break
		}
		if r.calls == nil {
			r.calls = map[int64]int{}
		}
		i := len(r.calls)
		r.calls[ev.Index] = i
		return provider.Chunk{ToolCall: &provider.ToolCallDelta{Index: i, ID: ev.ContentBlock.ID, Name: ev.ContentBlock.Name}}, nil
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			return provider.Chunk{Text: ev.Delta.Text}, nil
		case "input_json_delta":
			if i, ok := r.calls[ev.Index]; ok && ev.Delta.PartialJSON != "" {
				return provider.Chunk{ToolCall: &provider.ToolCallDelta{Index: i, Arguments: ev.Delta.PartialJSON}}, nil
			}
		}
	case "message_delta":
		r.msg.Usage = deltaUsage(before, ev.Usage)
	case "message_stop":
		return provider.Chunk{Response: response(&r.msg)}, nil
	}
	return provider.Chunk{}, nil
}

// accumulate adds ev to the message with the SDK's Accumulate, but for the
// stop events: at those Accumulate only re-encodes what it holds, which
// fails for the input of a tool call cut short by max_tokens (not JSON
// yet), and the mapping to a Response does not read that encoding.
func (r *streamReader) accumulate(ev sdk.MessageStreamEventUnion) error {
	switch ev.Type {
	case "content_block_stop", "message_stop":
		return nil
	}
	return r.msg.Accumulate(ev)
}

// deltaUsage returns u with the counts a message_delta event sent. They
// are cumulative, so each one sent replaces message_start's; the SDK's
// Accumulate takes only output_tokens, even when it is missing.
func deltaUsage(u sdk.Usage, d sdk.MessageDeltaUsage) sdk.Usage {
	if d.JSON.InputTokens.Valid() {
		u.InputTokens = d.InputTokens
	}
	if d.JSON.CacheCreationInputTokens.Valid() {
		u.CacheCreationInputTokens = d.CacheCreationInputTokens
	}
	if d.JSON.CacheReadInputTokens.Valid() {
		u.CacheReadInputTokens = d.CacheReadInputTokens
	}
	if d.JSON.OutputTokens.Valid() {
		u.OutputTokens = d.OutputTokens
	}
	if d.JSON.OutputTokensDetails.Valid() {
		u.OutputTokensDetails = d.OutputTokensDetails
	}
	return u
}
