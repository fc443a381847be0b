package provider

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
)

// A Streamer is a [Provider] that can also send its reply while the model
// writes it. The enforcement loop streams from a provider that implements
// it (a run with enforce.WithPartials) and calls Generate otherwise.
//
// Stream sends req and returns the reply as a sequence of chunks, in the
// order the model wrote them. The last chunk of a reply that ended carries
// the whole [Response] in Chunk.Response, as Generate would have returned
// it. A pair with a non-nil error ends the sequence: the call failed, before
// or during the reply (network, API error, cancelled context), and the
// error is what Generate would have returned. A sequence that ends without
// a Response and without an error was cut off; [Collect] reads it as a
// truncated reply.
//
// The caller may stop iterating at any time (break out of the range loop):
// the provider then stops the call and releases what it holds, before the
// sequence's iterator returns. The sequence may be iterated once. Like
// Generate, Stream may be called concurrently and must not retain or
// modify req.
type Streamer interface {
	Provider
	Stream(ctx context.Context, req *Request) iter.Seq2[Chunk, error]
}

// A Chunk is a piece of a streamed reply: some text, or a piece of a tool
// call, or, last, the whole reply.
type Chunk struct {
	// Text is the next piece of the reply's text.
	Text string `json:"text,omitempty"`
	// ToolCall, when not nil, is the next piece of a tool call.
	ToolCall *ToolCallDelta `json:"tool_call,omitempty"`
	// Response, set on the last chunk only, is the complete reply: the text
	// joined, the tool calls whole, the stop reason and the usage.
	Response *Response `json:"response,omitempty"`
}

// A ToolCallDelta is a piece of one tool call of a streamed reply.
type ToolCallDelta struct {
	// Index is the call's position among the reply's tool calls, from 0.
	Index int `json:"index"`
	// ID and Name identify the call; they are set on the call's first
	// piece and may be empty on the others.
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
	// Arguments is the next piece of the raw JSON arguments.
	Arguments string `json:"arguments,omitempty"`
}

// A Collector joins the chunks of a streamed reply into a [Response]. The
// zero Collector is ready to use; it is not safe for concurrent use.
type Collector struct {
	text  strings.Builder
	calls []collectedCall
	final *Response
}

// maxStreamedCalls bounds the tool calls a Collector keeps, whatever index
// a stream names.
const maxStreamedCalls = 1024

type collectedCall struct {
	id, name string
	args     strings.Builder
}

// Add takes the next chunk of the reply.
func (c *Collector) Add(ch Chunk) {
	c.text.WriteString(ch.Text)
	if d := ch.ToolCall; d != nil && d.Index >= 0 && d.Index < maxStreamedCalls {
		for len(c.calls) <= d.Index {
			c.calls = append(c.calls, collectedCall{})
		}
		tc := &c.calls[d.Index]
		if d.ID != "" {
			tc.id = d.ID
		}
		if d.Name != "" {
			tc.name = d.Name
		}
		tc.args.WriteString(d.Arguments)
	}
	if ch.Response != nil {
		c.final = ch.Response
	}
}

// Done reports whether the chunk that carries the whole Response was added.
func (c *Collector) Done() bool { return c.final != nil }

// Response returns the reply: the final chunk's Response when one was
// added; otherwise the text and tool calls received, with StopReason
// [StopLength] and RawStopReason "stream_cut_off", because a reply whose
// stream ended before the model finished is incomplete, like one cut off at
// the token limit.
func (c *Collector) Response() *Response {
	if c.final != nil {
		return c.final
	}
	resp := &Response{Text: c.text.String(), StopReason: StopLength, RawStopReason: "stream_cut_off"}
	for _, tc := range c.calls {
		resp.ToolCalls = append(resp.ToolCalls, ToolCall{ID: tc.id, Name: tc.name, Arguments: json.RawMessage(tc.args.String())})
	}
	return resp
}

// Collect reads the whole sequence and returns the reply as Generate would:
// the final chunk's Response, or for a sequence cut off before it, the
// reply received so far marked as truncated (see [Collector.Response]).
// The error is the sequence's error, with a nil Response.
func Collect(seq iter.Seq2[Chunk, error]) (*Response, error) {
	var c Collector
	for ch, err := range seq {
		if err != nil {
			return nil, err
		}
		c.Add(ch)
	}
	return c.Response(), nil
}

// Chunks returns the sequence of a reply known whole: its text as one
// chunk, each tool call as one piece, then the reply itself. It serves a
// [Streamer] for a call that cannot stream, and adapts a Generate result
// to code written for streams.
func Chunks(resp *Response) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		if resp == nil {
			return
		}
		if resp.Text != "" && !yield(Chunk{Text: resp.Text}, nil) {
			return
		}
		for i, tc := range resp.ToolCalls {
			d := &ToolCallDelta{Index: i, ID: tc.ID, Name: tc.Name, Arguments: string(tc.Arguments)}
			if !yield(Chunk{ToolCall: d}, nil) {
				return
			}
		}
		yield(Chunk{Response: resp}, nil)
	}
}

// StreamCall is a stream over a call that reports its reply's text through
// a callback, as many clients' streaming functions do: call runs on a
// goroutine of its own, under a context of its own, and hands each piece
// of text to send, which returns an error, to be returned by call, once the
// consumer has stopped or ctx has ended. The sequence yields each piece
// (empty ones skipped), then a last chunk with the Response call returns,
// or call's error. A consumer that stops iterating cancels the call's
// context and waits for call to return, so no goroutine outlives the
// sequence.
func StreamCall(ctx context.Context, call func(ctx context.Context, send func(text string) error) (*Response, error)) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		pieces := make(chan string)
		type result struct {
			resp *Response
			err  error
		}
		done := make(chan result, 1)
		go func() {
			resp, err := call(ctx, func(text string) error {
				select {
				case pieces <- text:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			})
			done <- result{resp, err}
		}()
		for {
			select {
			case text := <-pieces:
				if text != "" && !yield(Chunk{Text: text}, nil) {
					cancel()
					<-done
					return
				}
			case r := <-done:
				if r.err != nil {
					yield(Chunk{}, r.err)
					return
				}
				yield(Chunk{Response: r.resp}, nil)
				return
			}
		}
	}
}
