package extract

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
