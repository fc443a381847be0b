package extract

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// A Reader follows a model's reply while it is written: fed the reply chunk
// by chunk, it finds the JSON value being written (the whole reply, a
// fenced block, or a value in prose, reasoning blocks skipped, as [JSON]
// does) and reports each part of it as soon as the part is complete, with
// [Reader.Events]. [Reader.Partial] gives the value so far.
//
// Each byte is read once: a Reader keeps its place and its stack of open
// objects and arrays between chunks, and never reads the reply again from
// the start, so following a reply costs time linear in its length whatever
// the chunk sizes; the one exception is a string or number that begins the
// reply and turns out not to be its answer, which is read again as prose
// from its second byte. The reply's text is kept ([Reader.Text]), for the
// final extraction.
//
// What a Reader reports agrees with [Candidates] on the finished reply: a
// string, number or literal that begins the reply (outside a fence) is the
// answer only if nothing follows it, so its [EventEnd] comes at
// [Reader.Close], and text after it abandons it.
//
// A Reader only follows; it never repairs. When the text being read stops
// being JSON (a single quote, a comment, a missing comma), the value is
// abandoned with an [EventAbandon] and the reading goes on in prose from the
// byte that broke it: the finished reply still goes to [JSON] or
// [Candidates], with [WithRepair] when wanted, for the verdict. The options
// that matter while reading are [WithObjectsOnly] and [WithMaxSize]; the
// others are accepted and ignored.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	buf []byte
	pos int       // next byte to read
	st  readState // where the reading stands
	// room is how far len(buf) may grow before a Write takes its slow
	// path: min(cap(buf), maxSize), or -1 when every Write fails.
	room int

	events  []Event   // what the last Write or Close read
	stack   []frame   // the open objects and arrays of the value being read
	root    Event     // the EventStart of the value being read
	tokAt   int       // where the token being read started
	hexLeft int       // hex digits left in a \u escape, or -1
	escFrom readState // the string an escape is in: inString or inName

	maxSize int
	objects bool // WithObjectsOnly
	err     error
	closed  bool // Close was called

	// Outside a value.
	visible   bool // a byte outside blanks and reasoning was read
	reasoning int  // 1 + index of the reasoningTags block being read, or 0
	fence     bool // inside a fenced block
	fenceJSON bool // the block is labelled json
	fenceHead bool // at the start of a fenced block's content

	sources []Source // where each value started was found

	// held is the end of a scalar that began the reply outside a fence,
	// complete but not yet the answer: it is the answer only if the reply
	// ends after it (Close sends its EventEnd), and not if more text
	// follows (that text abandons it). 0 when none is held.
	held int
}

// A frame is an open object or array.
type frame struct {
	array    bool
	start    int // offset of '{' or '['
	cut      int // offset after the last complete member (or the bracket)
	keyStart int // span of the current member's name, quotes included
	keyEnd   int
	index    int // the current element's index
}

// An EventKind says what an [Event] reports.
type EventKind uint8

// The kinds of events, in the order a value produces them: EventStart, then
// for each part EventOpen ... EventClose (objects and arrays) or
// EventScalar, and last EventEnd, or EventAbandon when the text stopped
// being JSON.
const (
	// EventStart: a value begins at Start. Source says where it was found.
	EventStart EventKind = iota + 1
	// EventOpen: an object or array begins at Start, inside the value.
	EventOpen
	// EventClose: the object or array that began at Start is complete at
	// End: Text()[Start:End] is valid JSON and will not change.
	EventClose
	// EventScalar: a string, number, true, false or null is complete at
	// End, at Start.
	EventScalar
	// EventEnd: the value that began at Start is complete at End. When it is
	// an object or array, its EventClose comes just before.
	EventEnd
	// EventAbandon: the value that began at Start stopped being JSON at End,
	// where the reading went back to prose. Its earlier events were for a
	// value that will never be complete.
	EventAbandon
)

var eventNames = [...]string{"", "start", "open", "close", "scalar", "end", "abandon"}

// String returns the kind's name: "start", "open", "close", ...
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", k)
}

// An Event reports progress in the value being read. Start and End are byte
// offsets in [Reader.Text].
type Event struct {
	Kind       EventKind
	Start, End int
	// Value numbers the values of the reply, from 0, in the order they
	// start; [Reader.Source] says where each was found.
	Value int
	// Depth is 0 for the value itself, 1 for its members or elements, and
	// so on.
	Depth int
	// KeyStart and KeyEnd span the member name, quotes included, when the
	// part is a member of an object (decode it with [Reader.Key]); both are
	// -1 otherwise.
	KeyStart, KeyEnd int
	// Index is the part's position in its array, or -1.
	Index int
}

// NewReader returns a Reader for a new reply. A bad option, as for [JSON],
// makes every Write fail with an error matching [ErrInvalidOption].
func NewReader(opts ...Option) *Reader {
	cfg := newConfig(opts)
	r := &Reader{maxSize: cfg.maxSize, objects: cfg.objectsOnly, err: cfg.err}
	if r.err != nil {
		r.room = -1
	}
	return r
}

// Write appends p to the reply and reads as far as it can; the events of
// what it read are then in [Reader.Events]. It fails, reading nothing, when
// the reply would grow beyond the maximum size ([ErrTooLarge]), after
// [Reader.Close], or for a bad option. Write implements io.Writer.
func (r *Reader) Write(p []byte) (int, error) { return write(r, p) }

// WriteString is [Reader.Write] for a string.
func (r *Reader) WriteString(s string) (int, error) { return write(r, s) }

// write is Write and WriteString.
func write[T string | []byte](r *Reader, p T) (int, error) {
	n := len(r.buf)
	if len(p) == 1 && n < r.room {
		if !r.passByte(p[0]) {
			r.read()
		}
		return 1, nil
	}
	r.events = r.events[:0]
	if len(p) > r.room-n {
		if err := r.grow(len(p)); err != nil {
			return 0, err
		}
	}
	r.buf = r.buf[:n+len(p)]
	copy(r.buf[n:], p)
	r.read()
	return len(p), nil
}

// grow makes room in r.buf for n more bytes, or says why the Write fails:
// the slow path of a Write, taken when r.room is short.
func (r *Reader) grow(n int) error {
	switch {
	case r.err != nil:
		return r.err
	case r.closed:
		return fmt.Errorf("extract: write to a closed Reader")
	case len(r.buf)+n > r.maxSize:
		return fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(r.buf)+n, r.maxSize)
	}
	if len(r.buf)+n > cap(r.buf) {
		// Double the capacity: append grows large slices by a quarter,
		// which would copy a long reply several times over.
		b := make([]byte, len(r.buf), max(2*cap(r.buf), len(r.buf)+n, 512))
		copy(b, r.buf)
		r.buf = b
	}
	r.room = min(cap(r.buf), r.maxSize)
	return nil
}

// Close ends the reply: a number or literal waiting for the byte after it
// (a reply that is just 42) is complete, and a value still open is
// abandoned. The events are in [Reader.Events]. Close is idempotent.
func (r *Reader) Close() {
	r.events = r.events[:0]
	if r.closed {
		return
	}
	r.closed = true
	r.room = -1
	r.read()
	for r.st != inProse {
		switch {
		case len(r.stack) == 0 && r.st.numDone():
			// A number alone: the end of the reply ends it.
			r.emit(EventScalar, r.tokAt, len(r.buf), 0)
			r.emit(EventEnd, r.root.Start, len(r.buf), 0)
			r.pos, r.st = len(r.buf), inProse
		case len(r.stack) == 0 && r.sources[r.root.Value] == SourceWhole && startsScalar(r.buf[r.root.Start]):
			// A scalar beginning the reply that never ended (a stray
			// quote): what follows its first byte is prose again, and may
			// hold a value.
			r.pos, r.st = r.abandon(r.root.Start+1), inProse
			r.read()
		default:
			r.pos, r.st = r.abandon(len(r.buf)), inProse
		}
	}
	if r.held > 0 {
		r.emit(EventEnd, r.root.Start, r.held, 0)
		r.held = 0
	}
}

// Events returns what the last Write (or Close) read, in order. The slice
// is valid until the next Write.
func (r *Reader) Events() []Event { return r.events }

// Text returns the reply so far. The bytes are the Reader's: do not modify
// them; they remain valid after further Writes only if not appended to.
func (r *Reader) Text() []byte { return r.buf }

// Key returns the member name of e, decoded; "" when e is not a member of
// an object.
func (r *Reader) Key(e Event) string {
	if e.KeyStart < 0 || e.KeyEnd > len(r.buf) || e.KeyStart >= e.KeyEnd {
		return ""
	}
	return decodeKey(r.buf[e.KeyStart:e.KeyEnd])
}

// decodeKey returns the string that the JSON string literal b encodes.
func decodeKey(b []byte) string {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b[1 : len(b)-1])
	}
	var s string
	if json.Unmarshal(b, &s) != nil {
		return string(b[1 : len(b)-1])
	}
	return s
}

// Reading reports whether a value is being read: begun and not yet
// complete or abandoned.
func (r *Reader) Reading() bool { return r.st != inProse }

// Partial appends to dst the value being read as far as it is complete,
// with its open objects and arrays closed, and reports whether there is
// one: an object or array begun and not yet complete. The result is valid
// JSON holding only members and elements that are complete (a string still
// being written, or a member whose value has not begun, is left out); it is
// the start of the value the model is writing, not the value.
func (r *Reader) Partial(dst []byte) ([]byte, bool) {
	if r.st == inProse || len(r.stack) == 0 {
		return dst, false
	}
	top := r.stack[len(r.stack)-1]
	dst = append(dst, r.buf[r.root.Start:top.cut]...)
	for i := len(r.stack) - 1; i >= 0; i-- {
		if r.stack[i].array {
			dst = append(dst, ']')
		} else {
			dst = append(dst, '}')
		}
	}
	return dst, true
}

// Open returns the parts of the value being read that are not complete:
// the value itself, then each object or array inside it down to the one
// being written, as EventOpen events (the value's own is its EventOpen).
// The slice is the caller's.
func (r *Reader) Open() []Event {
	if r.st == inProse {
		return nil
	}
	out := make([]Event, len(r.stack))
	for i := range r.stack {
		out[i] = r.openEvent(i)
	}
	return out
}

// openEvent returns the EventOpen of the frame at depth i.
func (r *Reader) openEvent(i int) Event {
	e := Event{Kind: EventOpen, Start: r.stack[i].start, Value: r.root.Value, Depth: i, KeyStart: -1, KeyEnd: -1, Index: -1}
	if i > 0 {
		r.position(&e, &r.stack[i-1])
	}
	return e
}

// position sets e's key or index as a part of the container p.
func (r *Reader) position(e *Event, p *frame) {
	if p.array {
		e.Index = p.index
	} else {
		e.KeyStart, e.KeyEnd = p.keyStart, p.keyEnd
	}
}

// emit records an event for the part at depth (0: the value itself).
//
// It writes the event's fields in place: an Event built aside and then
// copied costs several times more, and emit runs for every part.
func (r *Reader) emit(kind EventKind, start, end, depth int) {
	r.events = append(r.events, Event{})
	e := &r.events[len(r.events)-1]
	e.Kind, e.Start, e.End, e.Value, e.Depth = kind, start, end, r.root.Value, depth
	e.KeyStart, e.KeyEnd, e.Index = -1, -1, -1
	if depth > 0 {
		r.position(e, &r.stack[depth-1])
	}
}

// Source returns where the value that e belongs to was found:
// [SourceWhole] when it began the reply (after blanks and reasoning),
// [SourceFence] inside a fenced block, [SourceScan] in prose.
func (r *Reader) Source(e Event) Source {
	if e.Value < 0 || e.Value >= len(r.sources) {
		return ""
	}
	return r.sources[e.Value]
}
