package extract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
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

// A readState is where the reading stands: in prose, between the tokens of
// a value (what comes next in the innermost open object or array), or
// inside a token. One state for all three lets [Reader.read] resume with a
// single switch, and one-byte writes step with a table ([byteSteps]).
type readState uint8

const (
	inProse readState = iota // outside any value

	// Between tokens.
	wantKeyOrEnd   // after '{'
	wantKey        // after ',' in an object
	wantColon      // after a member name
	wantValue      // at the start of the value, after ':', or after ',' in an array
	wantValueOrEnd // after '['
	wantMemberEnd  // after a member: ',' or '}'
	wantElementEnd // after an element: ',' or ']'

	// Inside a token.
	inString   // a string value
	inName     // a member name
	inEscape   // after a backslash in a string or name, and in a \u escape
	inLiteral  // true, false or null
	numMinus   // a number: read '-'
	numZero    // read a leading 0
	numInt     // reading the integer digits
	numDot     // read '.'
	numFrac    // reading the fraction digits
	numE       // read 'e' or 'E'
	numExpSign // read the exponent's sign
	numExp     // reading the exponent's digits
)

// numDone reports whether st is in a number read so far that is a whole
// number.
func (st readState) numDone() bool {
	return st == numZero || st == numInt || st == numFrac || st == numExp
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

// passByte appends c to the reply, which has room for it, and reads it
// when all c does is move to another state ([byteSteps]); false when
// [Reader.read] must read it. One-byte writes, a stream's smallest chunks,
// mostly end here. Outside prose, [Reader.read] stops only at the end of
// the text: r.pos is len(r.buf) before c.
func (r *Reader) passByte(c byte) bool {
	r.events = r.events[:0]
	n := len(r.buf)
	r.buf = r.buf[:n+1]
	r.buf[n] = c
	s := byteSteps[r.st][c]
	if s == 0 {
		return false
	}
	if s&tokenStart != 0 {
		r.tokAt = n
	}
	r.st = readState(s &^ tokenStart)
	r.pos = n + 1
	return true
}

// A byteStep is the state a byte leads to when that is all it does: no
// event, no change to the stack. With tokenStart, a token begins at the
// byte. The zero byteStep (inProse is never such a state) means the byte
// does more.
type byteStep uint8

const tokenStart byteStep = 0x80

// byteSteps gives the byteStep of each byte in each state inside a value,
// as [Reader.read] would take it: blanks between tokens, plain bytes in a
// string, the steps of a number, a colon after a member name, a comma after
// a member, and the first byte of a member name or of a scalar.
var byteSteps = func() (t [numExp + 1][256]byteStep) {
	for c := range 256 {
		b := byte(c)
		if isSpace(b) {
			for st := wantKeyOrEnd; st <= wantElementEnd; st++ {
				t[st][c] = byteStep(st)
			}
		}
		if plainInString[c] {
			t[inString][c], t[inName][c] = byteStep(inString), byteStep(inName)
		}
		for st := numMinus; st <= numExp; st++ {
			if next, ok := numStep(st, b); ok {
				t[st][c] = byteStep(next)
			}
		}
	}
	t[wantColon][':'] = byteStep(wantValue)
	t[wantMemberEnd][','] = byteStep(wantKey)
	t[wantKeyOrEnd]['"'] = byteStep(inName) | tokenStart
	t[wantKey]['"'] = byteStep(inName) | tokenStart
	for _, st := range []readState{wantValue, wantValueOrEnd} {
		t[st]['"'] = byteStep(inString) | tokenStart
		t[st]['-'] = byteStep(numMinus) | tokenStart
		t[st]['0'] = byteStep(numZero) | tokenStart
		for c := '1'; c <= '9'; c++ {
			t[st][c] = byteStep(numInt) | tokenStart
		}
		for _, c := range "tfn" {
			t[st][c] = byteStep(inLiteral) | tokenStart
		}
	}
	return t
}()

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
		case (r.held > 0 || !r.visible) && (c == '\f' || c == '\v' || c >= utf8.RuneSelf):
			// Before the reply's first value and after a held scalar, any
			// space a trim removes (as the whole-text reading of [JSON]
			// does) is blank, not text.
			rest := r.buf[r.pos:]
			if !utf8.FullRune(rest) && !r.closed {
				return false
			}
			if rn, size := utf8.DecodeRune(rest); unicode.IsSpace(rn) || rn == '\ufeff' {
				r.pos += size
				continue
			}
		case c == '<':
			ok, done := r.tag()
			if !done {
				return false
			}
			if ok {
				continue
			}
		case c == '`':
			if r.drop(r.pos) {
				continue
			}
			ok, done := r.fenceMarker()
			if !done {
				return false
			}
			if ok {
				continue
			}
		}
		at := r.pos
		if r.drop(at) {
			continue
		}
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

// drop abandons a held scalar at at: text other than blanks and reasoning
// follows it, so the reply is not that scalar. The reading goes back to
// the byte after the scalar's first, as prose, since a value may begin
// inside what looked like a string ("{"a": 1}" with a stray quote); it
// reports whether it did.
func (r *Reader) drop(at int) bool {
	if r.held == 0 {
		return false
	}
	r.emit(EventAbandon, r.root.Start, at, 0)
	r.held = 0
	r.pos = r.root.Start + 1
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
	r.st = wantValue
	r.root = Event{Kind: EventStart, Start: at, Value: len(r.sources), KeyStart: -1, KeyEnd: -1, Index: -1}
	r.sources = append(r.sources, src)
	r.stack = r.stack[:0]
	r.events = append(r.events, r.root)
	r.visible, r.fenceHead = true, false
}

// read reads from r.pos as far as the text allows.
//
// It is a state machine whose states are labels: a call switches on r.st
// once, to resume where the last one stopped, and from then on a state
// that sees the byte it expects goes straight to the next (a member name's
// closing quote to its colon, the colon to the value, the value to the
// comma after it, and so on), with no dispatch and no call. The place and
// the state are kept in locals and written back once; runs of plain bytes
// in a string, of digits and of blanks are passed over by inner loops.
// Every exit outside prose is at the end of the text, which [Reader.passByte]
// relies on.
func (r *Reader) read() {
	var (
		buf = r.buf
		pos = r.pos
		st  = r.st
		c   byte
	)
	// Resume in the state the last call stopped in.
	switch st {
	case inProse:
		goto prose
	case wantKeyOrEnd, wantKey:
		goto key
	case wantColon:
		goto colon
	case wantValue, wantValueOrEnd:
		goto value
	case wantMemberEnd, wantElementEnd:
		goto next
	case inString, inName:
		goto str
	case inEscape:
		goto escape
	case inLiteral:
		goto literal
	default:
		goto number
	}

prose: // outside any value
	r.pos, r.st = pos, inProse
	if !r.prose() || r.st == inProse {
		return // waiting for more text, or all of it is read
	}
	pos, st = r.pos, r.st
	goto value

value: // wantValue or wantValueOrEnd: a value begins after blanks
	for pos < len(buf) && isSpace(buf[pos]) {
		pos++
	}
	if pos == len(buf) {
		goto out
	}
	switch c = buf[pos]; c {
	case '"':
		r.tokAt, st = pos, inString
		pos++
		goto str
	case '{', '[':
		if len(r.stack) >= maxDepth {
			goto abandon
		}
		r.emit(EventOpen, pos, 0, len(r.stack))
		r.stack = append(r.stack, frame{})
		top := &r.stack[len(r.stack)-1]
		top.array, top.start, top.cut, top.keyStart, top.keyEnd = c == '[', pos, pos+1, -1, -1
		pos++
		if c == '{' {
			st = wantKeyOrEnd
			goto key
		}
		st = wantValueOrEnd
		goto value
	case '-':
		r.tokAt, st = pos, numMinus
	case '0':
		r.tokAt, st = pos, numZero
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		r.tokAt, st = pos, numInt
	case 't', 'f', 'n':
		r.tokAt, st = pos, inLiteral
		pos++
		goto literal
	case ']':
		if st == wantValueOrEnd {
			goto close
		}
		goto abandon
	default:
		goto abandon
	}
	pos++
	goto number

key: // wantKeyOrEnd or wantKey: a member name begins after blanks
	for pos < len(buf) && isSpace(buf[pos]) {
		pos++
	}
	if pos == len(buf) {
		goto out
	}
	switch buf[pos] {
	case '"':
		r.tokAt, st = pos, inName
		pos++
		goto str
	case '}':
		if st == wantKeyOrEnd {
			goto close
		}
	}
	goto abandon

str: // inString or inName
	for pos < len(buf) && plainInString[buf[pos]] {
		pos++
	}
	if pos == len(buf) {
		goto out
	}
	switch buf[pos] {
	case '"':
		pos++
		if st == inString {
			goto scalar
		}
		top := &r.stack[len(r.stack)-1]
		top.keyStart, top.keyEnd = r.tokAt, pos
		st = wantColon
		goto colon
	case '\\':
		r.escFrom, r.hexLeft = st, -1
		st = inEscape
		pos++
		goto escape
	}
	goto abandon // a control character

escape: // after a backslash, or in a \u escape
	if pos == len(buf) {
		goto out
	}
	c = buf[pos]
	switch {
	case r.hexLeft < 0 && c == 'u':
		r.hexLeft = 4
		pos++
		goto escape
	case r.hexLeft < 0 && strings.IndexByte(`"\/bfnrt`, c) >= 0:
	case r.hexLeft > 0 && isHex(c):
		r.hexLeft--
		if r.hexLeft > 0 {
			pos++
			goto escape
		}
	default:
		goto abandon
	}
	st = r.escFrom
	pos++
	goto str

colon: // wantColon
	for pos < len(buf) && isSpace(buf[pos]) {
		pos++
	}
	if pos == len(buf) {
		goto out
	}
	if buf[pos] != ':' {
		goto abandon
	}
	st = wantValue
	pos++
	goto value

number: // one of the num states
	if st == numInt || st == numFrac || st == numExp {
		for pos < len(buf) && buf[pos] >= '0' && buf[pos] <= '9' {
			pos++
		}
	}
	if pos == len(buf) {
		goto out
	}
	if next := byteSteps[st][buf[pos]]; next != 0 {
		st = readState(next) // numStep's, from the table
		pos++
		goto number
	}
	if st.numDone() {
		goto scalar // the byte after the number is read again
	}
	goto abandon

literal: // true, false or null, from r.tokAt
	for word := literalWord(buf[r.tokAt]); pos-r.tokAt < len(word); pos++ {
		if pos == len(buf) {
			goto out
		}
		if buf[pos] != word[pos-r.tokAt] {
			goto abandon
		}
	}
	goto scalar

scalar: // the string, number or literal that began at r.tokAt ends at pos
	r.emit(EventScalar, r.tokAt, pos, len(r.stack))
	goto completed

close: // the bracket at pos closes the object or array on top of the stack
	pos++
	r.emit(EventClose, r.stack[len(r.stack)-1].start, pos, len(r.stack)-1)
	r.stack = r.stack[:len(r.stack)-1]
	goto completed

completed: // a part ending at pos is complete: a member, an element or the value
	if len(r.stack) == 0 {
		if r.sources[r.root.Value] == SourceWhole && startsScalar(buf[r.root.Start]) {
			r.held = pos // a scalar is the whole reply or nothing
		} else {
			r.emit(EventEnd, r.root.Start, pos, 0)
		}
		goto prose
	}
	r.stack[len(r.stack)-1].cut = pos
	st = wantMemberEnd
	if r.stack[len(r.stack)-1].array {
		st = wantElementEnd
	}
	goto next

next: // wantMemberEnd or wantElementEnd
	for pos < len(buf) && isSpace(buf[pos]) {
		pos++
	}
	if pos == len(buf) {
		goto out
	}
	switch c = buf[pos]; {
	case c == ',' && st == wantMemberEnd:
		st = wantKey
		pos++
		goto key
	case c == ',':
		r.stack[len(r.stack)-1].index++
		st = wantValue
		pos++
		goto value
	case c == '}' && st == wantMemberEnd, c == ']' && st == wantElementEnd:
		goto close
	}
	goto abandon

abandon: // the value stopped being JSON at pos
	pos = r.abandon(pos)
	goto prose

out:
	r.pos, r.st = pos, st
}

// numStep returns the state after c in a number that stands at st; false
// when c does not continue it.
func numStep(st readState, c byte) (readState, bool) {
	digit := c >= '0' && c <= '9'
	switch st {
	case numMinus:
		switch {
		case c == '0':
			return numZero, true
		case digit:
			return numInt, true
		}
	case numZero, numInt:
		switch {
		case digit && st == numInt:
			return numInt, true
		case c == '.':
			return numDot, true
		case c == 'e' || c == 'E':
			return numE, true
		}
	case numDot:
		if digit {
			return numFrac, true
		}
	case numFrac:
		switch {
		case digit:
			return numFrac, true
		case c == 'e' || c == 'E':
			return numE, true
		}
	case numE:
		switch {
		case c == '+' || c == '-':
			return numExpSign, true
		case digit:
			return numExp, true
		}
	case numExpSign, numExp:
		if digit {
			return numExp, true
		}
	}
	return st, false
}

// literalWord returns the literal that begins with c: true, false or null.
func literalWord(c byte) string {
	switch c {
	case 't':
		return "true"
	case 'f':
		return "false"
	}
	return "null"
}

// abandon drops the value being read: it stopped being JSON at offset at.
// It returns where prose reading resumes, and the state for it.
func (r *Reader) abandon(at int) int {
	r.emit(EventAbandon, r.root.Start, at, 0)
	resume := max(at, r.root.Start+1)
	if len(r.stack) == 0 && r.sources[r.root.Value] == SourceWhole && startsScalar(r.buf[r.root.Start]) {
		// What looked like a string or a number beginning the reply may
		// have held the start of a value ("{"a": 1} with a stray quote):
		// read it again as prose, from the byte after the first. Only the
		// reply's first value is read again, so reading stays linear.
		resume = r.root.Start + 1
	}
	r.stack = r.stack[:0]
	return resume
}

// plainInString marks the bytes a JSON string holds as they are: not the
// quote, the backslash or a control character.
var plainInString = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()
