package gemini

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// isStream reports whether r asks for a streamed reply
// (streamGenerateContent?alt=sse).
func isStream(r *http.Request) bool {
	return r.URL != nil && r.URL.Query().Get("alt") == "sse"
}

// An eventBody is the body of a streamed reply as the transport of the
// clients [New] builds hands it to the SDK, which reads it line by line:
// "data:" lines are events, and any other line must be the API's error
// object on one line. eventBody passes events through and mends what the
// SDK cannot read:
//
//   - The API sends an error that happens mid-stream as its error JSON, not
//     as an event, and may spread it over several lines: those lines are
//     joined into one.
//   - A "data:" line whose payload is the API's error object (as a proxy
//     may send it) becomes that object alone, which the SDK reads as an
//     error instead of an empty response.
//   - Comments (":" lines, a proxy's keep-alives) and the event, id and
//     retry fields, which Gemini does not send, are dropped.
//   - A read error (a dropped connection, a cancelled request, a line
//     longer than [maxLine]) ends the body as its end would, for
//     the SDK only logs such an error; the error is kept in the request's
//     [streamFailure], where Stream finds it.
type eventBody struct {
	src     *bufio.Scanner
	body    io.Closer
	failure *streamFailure // where a read error goes; nil to drop it
	out     []byte         // read from src, not yet from the body
	obj     []byte         // the lines of a JSON object being joined
	end     bool           // src ended
}

// newEventBody returns an eventBody reading body, which keeps a read error
// in failure when it is not nil.
func newEventBody(body io.ReadCloser, failure *streamFailure) *eventBody {
	return &eventBody{src: scanLines(body), body: body, failure: failure}
}

// maxLine bounds a line of a streamed reply, in bytes: a server that never
// ends its line gets an error matching bufio.ErrTooLong.
const maxLine = 8 << 20

// scanLines returns a Scanner of r's lines, each with its end ("\n" or
// "\r\n") when it has one, a line of more than maxLine bytes being an
// error. (bufio.ScanLines would drop the end, which tells a last line cut
// off from a whole one.)
func scanLines(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine+2)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			return i + 1, data[:i+1], nil
		}
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	})
	return sc
}

// A streamFailure holds the error that ended the read of a streamed body:
// the SDK does not report it, and Stream, which puts one in the request's
// context ([withStreamFailure]), ends the sequence with it.
type streamFailure struct {
	mu  sync.Mutex
	err error
}

// set keeps err, unless an error is kept already.
func (f *streamFailure) set(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

// get returns the error kept, or nil.
func (f *streamFailure) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

type streamFailureKey struct{}

// withStreamFailure returns ctx carrying f, for the transport to find.
func withStreamFailure(ctx context.Context, f *streamFailure) context.Context {
	return context.WithValue(ctx, streamFailureKey{}, f)
}

// streamFailureOf returns the streamFailure ctx carries, or nil.
func streamFailureOf(ctx context.Context) *streamFailure {
	f, _ := ctx.Value(streamFailureKey{}).(*streamFailure)
	return f
}

// Read reads the mended stream.
func (b *eventBody) Read(p []byte) (int, error) {
	for len(b.out) == 0 {
		if b.end {
			return 0, io.EOF
		}
		b.fill()
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

// Close closes the underlying body.
func (b *eventBody) Close() error { return b.body.Close() }

// fill reads the next line.
func (b *eventBody) fill() {
	if b.src.Scan() {
		raw := b.src.Bytes()
		line := bytes.TrimSuffix(bytes.TrimSuffix(raw, []byte("\n")), []byte("\r"))
		if len(line) > maxLine {
			b.stop(bufio.ErrTooLong)
			return
		}
		if len(line) < len(raw) {
			line = append(line[:len(line):len(line)], '\n') // a last line without an end stays so
		}
		b.line(line)
		return
	}
	b.stop(b.src.Err())
}

// stop ends the body after what was read, keeping err, a read error, for
// Stream.
func (b *eventBody) stop(err error) {
	b.flush()
	b.end = true
	if err != nil && b.failure != nil {
		b.failure.set(err)
	}
}

// line takes one line, with its line ending, if any.
func (b *eventBody) line(raw []byte) {
	text := bytes.TrimSpace(raw)
	switch {
	case bytes.HasPrefix(text, []byte("data:")):
		b.flush() // an event ends an object that never closed
		if payload := bytes.TrimSpace(text[len("data:"):]); isAPIErrorBody(payload) {
			b.emit(payload)
			return
		}
		b.out = append(b.out, raw...)
	case len(b.obj) > 0 || bytes.HasPrefix(text, []byte("{")):
		b.obj = append(b.obj, raw...)
		if json.Valid(b.obj) || len(b.obj) > maxErrorBody {
			b.flush()
		}
	case bytes.HasPrefix(text, []byte(":")), isField(text):
	default:
		b.out = append(b.out, raw...)
	}
}

// isField reports whether line is one of the event stream fields other
// than data.
func isField(line []byte) bool {
	name, _, ok := bytes.Cut(line, []byte(":"))
	if !ok {
		return false
	}
	switch string(name) {
	case "event", "id", "retry":
		return true
	}
	return false
}

// flush passes on the object being joined: on one line when it is JSON,
// else as it came.
func (b *eventBody) flush() {
	if len(b.obj) == 0 {
		return
	}
	var one bytes.Buffer
	if json.Compact(&one, b.obj) == nil {
		b.emit(one.Bytes())
	} else {
		b.out = append(b.out, b.obj...)
		b.out = append(b.out, '\n')
	}
	b.obj = b.obj[:0]
}

// emit passes on line, then a line ending.
func (b *eventBody) emit(line []byte) {
	b.out = append(b.out, line...)
	b.out = append(b.out, '\n')
}
