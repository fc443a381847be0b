package extract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
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
// the chunk sizes. The reply's text is kept ([Reader.Text]), for the final
// extraction.
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
	buf     []byte
	pos     int // next byte to read
	maxSize int
	objects bool // WithObjectsOnly
	err     error
	events  []Event
	closed  bool // Close was called

	// Outside a value.
	visible   bool // a byte outside blanks and reasoning was read
	reasoning int  // 1 + index of the reasoningTags block being read, or 0
	fence     bool // inside a fenced block
	fenceJSON bool // the block is labelled json
	fenceHead bool // at the start of a fenced block's content

	// Inside a value.
	in      bool
	root    Event    // the EventStart of the value being read
	sources []Source // where each value started was found
	stack   []frame
	tok     tokState
	tokAt   int  // where the token being read started
	tokKey  bool // the string being read is a member name
	num     numState
	lit     string // the literal being matched
	litN    int    // bytes of lit matched
	hexLeft int    // hex digits left in a \u escape
}

// A frame is an open object or array.
type frame struct {
	array    bool
	state    frameState
	start    int // offset of '{' or '['
	cut      int // offset after the last complete member (or the bracket)
	keyStart int // span of the current member's name, quotes included
	keyEnd   int
	index    int // the current element's index
}

type frameState uint8

const (
	wantKeyOrEnd   frameState = iota // after '{'
	wantKey                          // after ',' in an object
	wantColon                        // after a member name
	wantValue                        // after ':' or ',' in an array
	wantValueOrEnd                   // after '['
	wantCommaOrEnd                   // after a member or element
)

type tokState uint8

const (
	tokNone tokState = iota
	tokString
	tokEscape
	tokNumber
	tokLiteral
)

// numState is where a number being read stands, in JSON's grammar.
type numState uint8

const (
	numMinus   numState = iota // read '-'
	numZero                    // read a leading 0
	numInt                     // reading the integer digits
	numDot                     // read '.'
	numFrac                    // reading the fraction digits
	numE                       // read 'e' or 'E'
	numExpSign                 // read the exponent's sign
	numExp                     // reading the exponent's digits
)

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
	return &Reader{maxSize: cfg.maxSize, objects: cfg.objectsOnly, err: cfg.err}
}

// Write appends p to the reply and reads as far as it can; the events of
// what it read are then in [Reader.Events]. It fails, reading nothing, when
// the reply would grow beyond the maximum size ([ErrTooLarge]), after
// [Reader.Close], or for a bad option. Write implements io.Writer.
func (r *Reader) Write(p []byte) (int, error) {
	r.events = r.events[:0]
	if err := r.grow(len(p)); err != nil {
		return 0, err
	}
	r.buf = append(r.reserve(len(p)), p...)
	r.read()
	return len(p), nil
}

// WriteString is [Reader.Write] for a string.
func (r *Reader) WriteString(s string) (int, error) {
	r.events = r.events[:0]
	if err := r.grow(len(s)); err != nil {
		return 0, err
	}
	r.buf = append(r.reserve(len(s)), s...)
	if r.in && r.tok == tokString {
		// Most of a reply is inside strings: pass over their plain bytes
		// here, which saves small chunks the whole reading machinery.
		i := r.pos
		for i < len(r.buf) && plainInString[r.buf[i]] {
			i++
		}
		r.pos = i
		if i == len(r.buf) {
			return len(s), nil
		}
	}
	r.read()
	return len(s), nil
}

// reserve returns r.buf with room for n more bytes, doubling its capacity
// when it must grow (append grows large slices by a quarter, which would
// copy a long reply several times over).
func (r *Reader) reserve(n int) []byte {
	if len(r.buf)+n <= cap(r.buf) {
		return r.buf
	}
	b := make([]byte, len(r.buf), max(2*cap(r.buf), len(r.buf)+n, 512))
	copy(b, r.buf)
	return b
}

func (r *Reader) grow(n int) error {
	switch {
	case r.err != nil:
		return r.err
	case r.closed:
		return fmt.Errorf("extract: write to a closed Reader")
	case len(r.buf)+n > r.maxSize:
		return fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(r.buf)+n, r.maxSize)
	}
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
	r.read()
	if !r.in {
		return
	}
	if len(r.stack) == 0 && r.tok == tokNumber && r.numDone() {
		r.scalar(len(r.buf))
		return
	}
	r.abandon(len(r.buf))
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
func (r *Reader) Reading() bool { return r.in }

// Partial appends to dst the value being read as far as it is complete,
// with its open objects and arrays closed, and reports whether there is
// one: an object or array begun and not yet complete. The result is valid
// JSON holding only members and elements that are complete (a string still
// being written, or a member whose value has not begun, is left out); it is
// the start of the value the model is writing, not the value.
func (r *Reader) Partial(dst []byte) ([]byte, bool) {
	if !r.in || len(r.stack) == 0 {
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
	if !r.in {
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
func (r *Reader) emit(kind EventKind, start, end, depth int) {
	e := Event{Kind: kind, Start: start, End: end, Value: r.root.Value, Depth: depth, KeyStart: -1, KeyEnd: -1, Index: -1}
	if depth > 0 {
		if p := &r.stack[depth-1]; p.array {
			e.Index = p.index
		} else {
			e.KeyStart, e.KeyEnd = p.keyStart, p.keyEnd
		}
	}
	r.events = append(r.events, e)
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

// read reads from r.pos as far as the text allows.
func (r *Reader) read() {
	for r.pos < len(r.buf) {
		if r.in {
			if !r.value() {
				return // waiting for more text
			}
			continue
		}
		if !r.prose() {
			return
		}
	}
}

// The bytes that may open a value in prose, and those that may open one at
// the start of the reply or of a fenced block.
func startsContainer(c byte) bool { return c == '{' || c == '[' }

func startsScalar(c byte) bool {
	return c == '"' || c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n'
}

// prose reads outside any value, up to the start of a value; it returns
// false when it needs more text to decide.
func (r *Reader) prose() bool {
	for r.pos < len(r.buf) {
		if r.reasoning > 0 {
			if !r.skipReasoning() {
				return false
			}
			continue
		}
		c := r.buf[r.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			r.pos++
			continue
		case c == '<':
			ok, done := r.tag()
			if !done {
				return false
			}
			if ok {
				continue
			}
		case c == '`':
			ok, done := r.fenceMarker()
			if !done {
				return false
			}
			if ok {
				continue
			}
		}
		at := r.pos
		head := !r.visible || r.fenceHead
		switch {
		case startsContainer(c) && (!r.objects || c == '{'):
			r.start(at)
			return true
		case head && !r.objects && startsScalar(c):
			r.start(at)
			return true
		}
		r.visible = true
		r.fenceHead = false
		r.pos++
	}
	return true
}

// tag reads a reasoning tag at r.pos: ok when there is one (it was
// consumed), done false when more text is needed to tell.
func (r *Reader) tag() (ok, done bool) {
	rest := r.buf[r.pos:]
	for k, t := range reasoningTags {
		for _, tag := range [2]string{t.open, t.close} {
			if len(rest) < len(tag) {
				if !r.closed && bytes.HasPrefix([]byte(tag), rest) {
					return false, false
				}
				continue
			}
			if !bytes.HasPrefix(rest, []byte(tag)) {
				continue
			}
			r.pos += len(tag)
			if tag == t.open {
				r.reasoning = k + 1
			} else {
				// A closing tag without an opening one ends a reasoning
				// block that began the reply: what came before was
				// reasoning, and the answer starts afresh.
				r.visible = false
			}
			return true, true
		}
	}
	return false, true
}

// skipReasoning reads inside a reasoning block up to its closing tag;
// false when the tag has not arrived yet.
func (r *Reader) skipReasoning() bool {
	closeTag := []byte(reasoningTags[r.reasoning-1].close)
	if i := bytes.Index(r.buf[r.pos:], closeTag); i >= 0 {
		r.pos += i + len(closeTag)
		r.reasoning = 0
		return true
	}
	// Keep the bytes that may begin the closing tag for the next chunk.
	r.pos = max(r.pos, len(r.buf)-len(closeTag)+1)
	return false
}

// fenceMarker reads a run of backticks at r.pos: ok when it opens or
// closes a fenced block (it was consumed, with an opening fence's label),
// done false when more text is needed to tell.
func (r *Reader) fenceMarker() (ok, done bool) {
	j := r.pos
	for j < len(r.buf) && r.buf[j] == '`' {
		j++
	}
	if j == len(r.buf) && !r.closed {
		return false, false
	}
	if j-r.pos < 3 || r.pos > 0 && isWordOrQuote(r.buf[r.pos-1]) {
		r.pos = j
		r.visible, r.fenceHead = true, false
		return true, true
	}
	if r.fence {
		r.pos = j
		r.fence, r.fenceJSON, r.fenceHead = false, false, false
		return true, true
	}
	// An opening fence: its label, then content on the next line, or right
	// after the label when the line goes on.
	k := j
	for k < len(r.buf) && (r.buf[k] == ' ' || r.buf[k] == '\t') {
		k++
	}
	labelStart := k
	for k < len(r.buf) && isLabelByte(r.buf[k]) {
		k++
	}
	if k == len(r.buf) && !r.closed {
		return false, false
	}
	label := r.buf[labelStart:k]
	r.pos = k
	r.fence, r.fenceHead = true, true
	r.fenceJSON = isJSONLabel(string(label))
	r.visible = true
	return true, true
}

// start begins a value at offset at.
func (r *Reader) start(at int) {
	src := SourceScan
	switch {
	case r.fence:
		src = SourceFence
	case !r.visible:
		src = SourceWhole
	}
	r.in = true
	r.root = Event{Kind: EventStart, Start: at, Value: len(r.sources), KeyStart: -1, KeyEnd: -1, Index: -1}
	r.sources = append(r.sources, src)
	r.stack = r.stack[:0]
	r.tok = tokNone
	r.events = append(r.events, r.root)
	r.visible, r.fenceHead = true, false
}

// abandon drops the value being read: it stopped being JSON at offset at,
// where prose reading resumes.
func (r *Reader) abandon(at int) {
	r.events = append(r.events, Event{Kind: EventAbandon, Start: r.root.Start, End: at, Value: r.root.Value, KeyStart: -1, KeyEnd: -1, Index: -1})
	r.in = false
	r.stack = r.stack[:0]
	r.tok = tokNone
	r.pos = max(at, r.root.Start+1)
}

// end completes the value at offset end.
func (r *Reader) end(end int) {
	r.events = append(r.events, Event{Kind: EventEnd, Start: r.root.Start, End: end, Value: r.root.Value, KeyStart: -1, KeyEnd: -1, Index: -1})
	r.in = false
	r.stack = r.stack[:0]
	r.pos = end
}

// completed records that a part ending at end is complete in its parent
// (or is the value itself).
func (r *Reader) completed(end int) {
	if len(r.stack) == 0 {
		r.end(end)
		return
	}
	top := &r.stack[len(r.stack)-1]
	top.cut = end
	top.state = wantCommaOrEnd
}

// scalar completes the scalar token that began at r.tokAt, ending at end.
func (r *Reader) scalar(end int) {
	r.tok = tokNone
	r.emit(EventScalar, r.tokAt, end, len(r.stack))
	r.completed(end)
}

// value reads inside a value; it returns false when it needs more text.
func (r *Reader) value() bool {
	buf := r.buf
	for r.pos < len(buf) {
		if !r.in {
			return true
		}
		c := buf[r.pos]
		switch r.tok {
		case tokString:
			// Skip the plain bytes of the string at once.
			i := r.pos
			for i < len(buf) && plainInString[buf[i]] {
				i++
			}
			r.pos = i
			if i == len(buf) {
				return false
			}
			switch c := buf[i]; {
			case c == '\\':
				r.tok = tokEscape
				r.hexLeft = -1
				r.pos++
			case c == '"':
				r.pos++
				if r.tokKey {
					r.tok = tokNone
					top := &r.stack[len(r.stack)-1]
					top.keyStart, top.keyEnd = r.tokAt, r.pos
					top.state = wantColon
				} else {
					r.scalar(r.pos)
				}
			default: // a control character: not JSON
				r.abandon(i)
				return true
			}
			continue
		case tokEscape:
			switch {
			case r.hexLeft < 0 && c == 'u':
				r.hexLeft = 4
			case r.hexLeft < 0 && strings.IndexByte(`"\/bfnrt`, c) >= 0:
				r.tok = tokString
			case r.hexLeft > 0 && isHex(c):
				r.hexLeft--
				if r.hexLeft == 0 {
					r.tok = tokString
				}
			default:
				r.abandon(r.pos)
				return true
			}
			r.pos++
			continue
		case tokNumber:
			if r.num == numInt || r.num == numFrac || r.num == numExp {
				i := r.pos
				for i < len(buf) && buf[i] >= '0' && buf[i] <= '9' {
					i++
				}
				r.pos = i
				if i == len(buf) {
					return false
				}
				c = buf[i]
			}
			if r.numStep(c) {
				r.pos++
				continue
			}
			if !r.numDone() {
				r.abandon(r.pos)
				return true
			}
			r.scalar(r.pos)
			if !r.in {
				return true
			}
			continue // c is read again, after the number
		case tokLiteral:
			if n := len(r.lit) - r.litN; r.pos+n <= len(buf) && string(buf[r.pos:r.pos+n]) == r.lit[r.litN:] {
				r.pos += n
				r.litN = len(r.lit)
				r.scalar(r.pos)
				continue
			}
			if c != r.lit[r.litN] {
				r.abandon(r.pos)
				return true
			}
			r.litN++
			r.pos++
			if r.litN == len(r.lit) {
				r.scalar(r.pos)
				if !r.in {
					return true
				}
			}
			continue
		}

		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			r.pos++
			continue
		}
		if len(r.stack) == 0 {
			// The value itself begins here.
			if !r.begin(c) {
				r.abandon(r.pos)
				return true
			}
			continue
		}
		top := &r.stack[len(r.stack)-1]
		switch top.state {
		case wantKeyOrEnd, wantKey:
			switch {
			case c == '"':
				r.tok, r.tokKey, r.tokAt = tokString, true, r.pos
				r.pos++
				if end, ok := r.plainString(r.pos); ok {
					// The whole name is here: take it, and the colon after it.
					r.tok = tokNone
					top.keyStart, top.keyEnd, top.state = r.tokAt, end, wantColon
					r.pos = end
					for r.pos < len(buf) && isSpace(buf[r.pos]) {
						r.pos++
					}
					if r.pos < len(buf) && buf[r.pos] == ':' {
						top.state = wantValue
						r.pos++
					}
				}
			case c == '}' && top.state == wantKeyOrEnd:
				r.closeContainer()
			default:
				r.abandon(r.pos)
				return true
			}
		case wantColon:
			if c != ':' {
				r.abandon(r.pos)
				return true
			}
			top.state = wantValue
			r.pos++
		case wantValue, wantValueOrEnd:
			if c == ']' && top.state == wantValueOrEnd {
				r.closeContainer()
				break
			}
			if !r.begin(c) {
				r.abandon(r.pos)
				return true
			}
		case wantCommaOrEnd:
			switch {
			case c == ',' && top.array:
				top.index++
				top.state = wantValue
				r.pos++
			case c == ',':
				top.state = wantKey
				r.pos++
			case c == ']' && top.array, c == '}' && !top.array:
				r.closeContainer()
			default:
				r.abandon(r.pos)
				return true
			}
		}
		if !r.in {
			return true
		}
	}
	return false
}

// plainString reports where the string whose content starts at i ends,
// just past its closing quote, when the text holds all of it and it has no
// escape: the common case, read here in one go.
func (r *Reader) plainString(i int) (end int, ok bool) {
	buf := r.buf
	for i < len(buf) && plainInString[buf[i]] {
		i++
	}
	if i < len(buf) && buf[i] == '"' {
		return i + 1, true
	}
	r.pos = i // the state machine goes on from here
	return 0, false
}

// plainInString marks the bytes a JSON string holds as they are: not the
// quote, the backslash or a control character.
var plainInString = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// begin starts the part whose first byte c is at r.pos; false when c
// cannot begin a JSON value.
func (r *Reader) begin(c byte) bool {
	at := r.pos
	switch {
	case c == '{' || c == '[':
		if len(r.stack) >= maxDepth {
			return false
		}
		depth := len(r.stack)
		r.stack = append(r.stack, frame{array: c == '[', start: at, cut: at + 1, keyStart: -1, keyEnd: -1})
		if c == '[' {
			r.stack[depth].state = wantValueOrEnd
		}
		r.emit(EventOpen, at, 0, depth)
		r.pos++
	case c == '"':
		r.tok, r.tokKey, r.tokAt = tokString, false, at
		r.pos++
		if end, ok := r.plainString(r.pos); ok {
			r.pos = end
			r.scalar(end)
		}
	case c == '-' || c >= '0' && c <= '9':
		r.tok, r.tokAt = tokNumber, at
		r.num = numMinus
		if c != '-' {
			r.num = numInt
			if c == '0' {
				r.num = numZero
			}
		}
		r.pos++
	case c == 't' || c == 'f' || c == 'n':
		r.tok, r.tokAt, r.litN = tokLiteral, at, 1
		switch c {
		case 't':
			r.lit = "true"
		case 'f':
			r.lit = "false"
		default:
			r.lit = "null"
		}
		r.pos++
	default:
		return false
	}
	return true
}

// closeContainer completes the object or array on top of the stack, whose
// closing bracket is at r.pos.
func (r *Reader) closeContainer() {
	r.pos++
	depth := len(r.stack) - 1
	top := r.stack[depth]
	r.emit(EventClose, top.start, r.pos, depth)
	r.stack = r.stack[:depth]
	r.completed(r.pos)
}

// numStep advances the number being read by c; false when c does not
// continue it.
func (r *Reader) numStep(c byte) bool {
	digit := c >= '0' && c <= '9'
	switch r.num {
	case numMinus:
		switch {
		case c == '0':
			r.num = numZero
		case digit:
			r.num = numInt
		default:
			return false
		}
	case numZero, numInt:
		switch {
		case digit && r.num == numInt:
		case c == '.':
			r.num = numDot
		case c == 'e' || c == 'E':
			r.num = numE
		default:
			return false
		}
	case numDot:
		if !digit {
			return false
		}
		r.num = numFrac
	case numFrac:
		switch {
		case digit:
		case c == 'e' || c == 'E':
			r.num = numE
		default:
			return false
		}
	case numE:
		switch {
		case c == '+' || c == '-':
			r.num = numExpSign
		case digit:
			r.num = numExp
		default:
			return false
		}
	case numExpSign:
		if !digit {
			return false
		}
		r.num = numExp
	case numExp:
		return digit
	}
	return true
}

// numDone reports whether the number read so far is a whole number.
func (r *Reader) numDone() bool {
	return r.num == numZero || r.num == numInt || r.num == numFrac || r.num == numExp
}
