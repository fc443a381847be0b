package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"net/http"
	"strings"

	"github.com/agentio/agentio/internal/lines"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/internal/httpstream"
)

var _ provider.Streamer = (*Provider)(nil)

// ErrLineTooLong matches (errors.Is) the error, a [*provider.Error] of
// kind other, that [Provider.Stream] returns for a line of the stream
// longer than [MaxStreamLine]: a server that never ends its line is not
// buffered without limit.
var ErrLineTooLong = lines.ErrTooLong

// MaxStreamLine bounds a line of a stream [Provider.Stream] reads, in
// bytes.
const MaxStreamLine = httpstream.MaxLine

// Stream makes the Provider a [provider.Streamer]: it sends req as
// Generate does, with "stream": true, and reads the reply's NDJSON lines
// as they arrive. It yields each piece of the message's content as text,
// and each tool call as one [provider.ToolCallDelta] carrying the whole
// call (Ollama sends calls whole, their arguments a JSON object); the
// thinking of reasoning models is not reply text and is left out. The
// last line (done: true) brings the whole [provider.Response], equal to
// what Generate returns for the same reply: content, tool calls,
// done_reason and token counts.
//
// A failure status ends the sequence with the *provider.Error Generate
// would return, and so does an error line ({"error": "..."}) in the
// stream. A stream that ends before its done line (or after more than
// Generate's limit of 64 MiB) yields no Response and no error: it was cut
// off, and [provider.Collect] reads it as a truncated reply. A dropped
// connection is a network failure: an error of kind other matching
// io.ErrUnexpectedEOF. A line longer than [MaxStreamLine] is an error matching
// [ErrLineTooLong]. Leaving the range loop cancels the request and closes
// the connection.
func (p *Provider) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		if req == nil {
			yield(provider.Chunk{}, invalid("nil request"))
			return
		}
		body, err := p.body(req, true)
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		httpstream.Run(ctx, httpstream.Call{
			Send: func(ctx context.Context) (*http.Response, error) {
				return p.send(ctx, body, "application/x-ndjson")
			},
			ReadAll: read,
			Failure: func(res *http.Response, data []byte) error {
				return failure(res, data, req)
			},
			ReadFailure: readFailure,
			Read:        readStream,
			Limit:       maxReplyBody,
		}, yield)
	}
}

// readStream reads the lines of body until the done line, yielding the
// pieces and then the Response. It returns the error of a read of body.
func readStream(_ *http.Response, body io.Reader, yield func(provider.Chunk, error) bool) error {
	r := lines.NewReader(body, MaxStreamLine)
	var (
		model string
		text  strings.Builder
		calls []chatToolCall
	)
	for {
		line, err := r.Next()
		last := errors.Is(err, io.EOF)
		if err != nil && (!last || len(line) == 0) {
			return err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || (last && !json.Valid(line)) {
			if last {
				return nil // the last line was cut short
			}
			continue
		}
		c, err := decode(line)
		if err != nil {
			yield(provider.Chunk{}, err)
			return nil
		}
		if !pieces(c, &text, &calls, yield) {
			return nil
		}
		if c.Model != "" {
			model = c.Model
		}
		if c.Done {
			// The reply gathered, as Generate reads it.
			c.Model, c.Message.Content, c.Message.ToolCalls = model, text.String(), calls
			yield(provider.Chunk{Response: mapResponse(c)}, nil)
			return nil
		}
		if last {
			return nil
		}
	}
}

// pieces yields the text and the tool calls of one line, gathering them
// in text and calls, and reports whether to read on.
func pieces(c *chatResponse, text *strings.Builder, calls *[]chatToolCall, yield func(provider.Chunk, error) bool) bool {
	if s := c.Message.Content; s != "" {
		text.WriteString(s)
		if !yield(provider.Chunk{Text: s}, nil) {
			return false
		}
	}
	for _, tc := range c.Message.ToolCalls {
		i := len(*calls)
		*calls = append(*calls, tc)
		call := toolCall(tc, i)
		d := &provider.ToolCallDelta{Index: i, ID: call.ID, Name: call.Name, Arguments: string(call.Arguments)}
		if !yield(provider.Chunk{ToolCall: d}, nil) {
			return false
		}
	}
	return true
}
