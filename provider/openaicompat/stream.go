package openaicompat

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"net/http"
	"strings"

	"github.com/agentio/agentio/internal/lines"
	"github.com/agentio/agentio/internal/sse"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/internal/httpstream"
)

var _ provider.Streamer = (*Provider)(nil)

// ErrLineTooLong matches (errors.Is) the error, a [*provider.Error] of
// kind other, that [Provider.Stream] returns for a stream with a line or
// an event longer than [MaxStreamLine]: a server that never ends its line
// is not buffered without limit.
var ErrLineTooLong = lines.ErrTooLong

// MaxStreamLine bounds a line, and an event's data, of a stream
// [Provider.Stream] reads, in bytes.
const MaxStreamLine = httpstream.MaxLine

// Stream makes the Provider a [provider.Streamer]: it sends req as
// Generate does, with "stream": true and, unless Options.OmitStreamUsage,
// "stream_options": {"include_usage": true}, and reads the server-sent
// events of the reply (comments, event names and CRLF line ends
// included). It yields the text and each tool call's arguments as they
// arrive (a call's first piece names its Index, ID and Name), then the
// whole [provider.Response], equal to what Generate returns for the same
// reply, usage included when the server sends it. Refusal text and the
// reasoning some servers stream (reasoning_content, reasoning) are not
// reply text: the refusal comes in the Response only.
//
// A failure status ends the sequence with the *provider.Error Generate
// would return, and so does an error the server sends as an event of the
// stream ({"error": {...}}, as Generate reads it in a body). A stream that
// ends before a finish_reason (or after more than Generate's limit of
// 64 MiB) yields no Response and no error: it was cut off, and
// [provider.Collect] reads it as a truncated reply. A connection dropped
// before the finish_reason is a network failure: an error of kind other
// matching io.ErrUnexpectedEOF; dropped after it, only the usage is lost,
// and the Response comes. A line
// longer than [MaxStreamLine] is an error matching [ErrLineTooLong]. Leaving
// the range loop cancels the request and closes the connection.
func (p *Provider) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		if req == nil {
			yield(provider.Chunk{}, p.invalid("nil request"))
			return
		}
		body, err := p.body(req, true)
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		httpstream.Run(ctx, httpstream.Call{
			Send: func(ctx context.Context) (*http.Response, error) {
				return p.send(ctx, body, "text/event-stream")
			},
			ReadAll: p.read,
			Failure: func(res *http.Response, data []byte) error {
				return p.failure(res, data, req)
			},
			ReadFailure: p.readFailure,
			Read: func(res *http.Response, body io.Reader, yield func(provider.Chunk, error) bool) error {
				s := &chatStream{p: p, res: res}
				return s.read(body, yield)
			},
			Limit: maxReplyBody,
		}, yield)
	}
}

// A chatStream reads one streamed reply and gathers it, in the shape of a
// chat completion, for the Response.
type chatStream struct {
	p       *Provider
	res     *http.Response
	model   string
	text    strings.Builder
	refusal strings.Builder
	calls   []*streamCall
	byKey   map[int]*streamCall // the last call with each key
	funcs   int                 // the function calls among calls
	finish  string
	usage   *chatUsage
}

// A streamCall is a tool call gathered from its pieces.
type streamCall struct {
	pos       int // the call's position among the reply's calls
	index     int // the call's Index among the reply's function calls, -1 for another kind
	id, name  string
	typ       string
	args      strings.Builder
	announced bool // its first piece was yielded
}

// read reads the events of body until [DONE] or its end, yielding the
// reply's pieces and then the Response. It returns the error of a read
// of body.
func (s *chatStream) read(body io.Reader, yield func(provider.Chunk, error) bool) error {
	events := sse.NewReader(body, MaxStreamLine)
	for {
		ev, err := events.Next()
		if errors.Is(err, io.EOF) {
			break // the end of the body
		}
		if err != nil {
			if s.finish != "" && errors.Is(err, io.ErrUnexpectedEOF) {
				break // dropped after the model finished: only the usage is lost
			}
			return err
		}
		switch strings.TrimSpace(ev.Data) {
		case "":
			continue // an empty event, a keep-alive
		case "[DONE]":
			return s.end(yield)
		}
		if !s.event(ev, yield) {
			return nil
		}
	}
	return s.end(yield)
}

// end yields the Response of a stream that ended: none when the model
// had not finished (no finish_reason came), as the stream was cut off.
func (s *chatStream) end(yield func(provider.Chunk, error) bool) error {
	if s.finish == "" {
		return nil
	}
	resp, err := s.response()
	if err != nil {
		yield(provider.Chunk{}, err)
		return nil
	}
	yield(provider.Chunk{Response: resp}, nil)
	return nil
}

// event takes one event, yielding the pieces it holds, and reports whether
// to read on.
func (s *chatStream) event(ev sse.Event, yield func(provider.Chunk, error) bool) bool {
	data := []byte(ev.Data)
	c, err := s.p.decode(data)
	if err == nil && ev.Type == "error" {
		msg, code := errorMessage(data)
		err = &provider.Error{Kind: provider.ErrOther, Provider: s.p.name, Code: code, Message: msg}
	}
	if err != nil {
		s.p.fromReply(err, s.res)
		yield(provider.Chunk{}, err)
		return false
	}
	if c.Model != "" {
		s.model = c.Model
	}
	if c.Usage != nil {
		s.usage = c.Usage
	}
	if len(c.Choices) == 0 {
		return true // the usage chunk
	}
	choice := &c.Choices[0]
	if choice.FinishReason != "" {
		s.finish = choice.FinishReason
	}
	d := &choice.Delta
	text, err := contentText(d.Content)
	if err != nil {
		yield(provider.Chunk{}, &provider.Error{Kind: provider.ErrOther, Provider: s.p.name, StatusCode: s.res.StatusCode,
			RequestID: RequestID(s.res.Header), Message: "the reply's content is neither text nor text parts", Err: err})
		return false
	}
	s.refusal.WriteString(d.Refusal)
	if text != "" {
		s.text.WriteString(text)
		if !yield(provider.Chunk{Text: text}, nil) {
			return false
		}
	}
	for i := range d.ToolCalls {
		if delta := s.callPiece(&d.ToolCalls[i], i); delta != nil && !yield(provider.Chunk{ToolCall: delta}, nil) {
			return false
		}
	}
	return true
}

// callPiece adds a piece of a tool call, the pos-th of its delta, and
// returns what to yield of it: nil for a piece that brings nothing new,
// or of a call that is not a function call. A call's first piece carries
// its id, the one Generate makes up when the server sends none.
func (s *chatStream) callPiece(tc *replyCall, pos int) *provider.ToolCallDelta {
	key := pos // a server that numbers no pieces sends each call whole
	if tc.Index != nil {
		key = *tc.Index
	}
	c := s.call(key, tc)
	if c.index < 0 {
		return nil
	}
	d := provider.ToolCallDelta{Index: c.index, Arguments: argumentsPiece(tc.Function.Arguments)}
	c.args.WriteString(d.Arguments)
	if c.id == "" && tc.ID != "" {
		c.id, d.ID = tc.ID, tc.ID
	}
	if c.name == "" && tc.Function.Name != "" {
		c.name, d.Name = tc.Function.Name, tc.Function.Name
	}
	if !c.announced {
		c.announced = true
		d.ID = callID(c.id, c.pos)
		return &d
	}
	if d.ID == "" && d.Name == "" && d.Arguments == "" {
		return nil
	}
	return &d
}

// call returns the call a piece tc with the given key belongs to, starting
// a new one for a new key, or for an id other than the one the call with
// that key has.
func (s *chatStream) call(key int, tc *replyCall) *streamCall {
	if c, ok := s.byKey[key]; ok && (tc.ID == "" || c.id == "" || tc.ID == c.id) {
		return c
	}
	if s.byKey == nil {
		s.byKey = map[int]*streamCall{}
	}
	c := &streamCall{pos: len(s.calls), index: -1, typ: tc.Type}
	s.byKey[key] = c
	if isFunction(tc.Type) {
		c.index = s.funcs
		s.funcs++
	}
	s.calls = append(s.calls, c)
	return c
}

// argumentsPiece returns a piece of a call's arguments: a JSON string's
// text, or the JSON itself from a server that sends the arguments whole,
// as an object.
func argumentsPiece(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var piece string
	if json.Unmarshal(raw, &piece) == nil {
		return piece
	}
	return string(raw)
}

// response maps the gathered reply as Generate maps a chat completion.
func (s *chatStream) response() (*provider.Response, error) {
	content, _ := json.Marshal(s.text.String())
	msg := replyMessage{Content: content, Refusal: s.refusal.String()}
	for _, c := range s.calls {
		var tc replyCall
		tc.ID, tc.Type, tc.Function.Name = c.id, c.typ, c.name
		tc.Function.Arguments, _ = json.Marshal(c.args.String())
		msg.ToolCalls = append(msg.ToolCalls, tc)
	}
	return s.p.mapResponse(s.model, &msg, s.finish, s.usage)
}
