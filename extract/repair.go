package extract

import (
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// A role says where a value being repaired stands, which decides how its
// strings and bare words end.
type role int

const (
	roleTop     role = iota // the value itself
	roleElement             // an element of an array
	roleKey                 // an object key
	roleValue               // an object member's value
)

// repairer rebuilds one broken JSON value from text, recording every change.
// It reads each byte a bounded number of times, so it runs in linear time.
// It is used by one goroutine, and reset between values.
type repairer struct {
	text    string // the input, cut at how far repair may read
	pos     int
	out     []byte
	fixes   fixLog
	written []byte // what the fixes wrote (see [repairer.fix])
	kinds   []byte // open containers, '{' or '['
	reach   int    // how far reading got, also when it gave up
	far     int    // how far reading got before it went back (see [repairer.reread])
	v       validator
	// guesses counts the choices made between two plausible readings of
	// the text (see [repairer.guess]); alt asks for the second reading at
	// every such choice.
	guesses int
	alt     bool
	calls   int  // function calls and tuples open around the value being read
	noCalls bool // a call or tuple failed: none is tried again (see maxCalls)
	// early is the offset of a '}' that closed an object too early, which
	// repair skips ({"a": 1}, "b": 2}), or -1.
	early int
	// badEscape is the offset of the first backslash in the string being
	// read that starts no JSON escape (C:\Users), or -1; raw makes every
	// backslash of the string literal (see [repairer.str]).
	badEscape int
	raw       bool
	off       ruleSet // rules the caller turned off (see [WithoutRepairRule])
	// rereadLeft is how many more bytes may be read again, over every
	// reading of one search (see [repairer.reread]).
	rereadLeft int
	overdrawn  bool       // this reading ran past the allowance: it fails
	stops      quoteScans // the last searches of text for a quote or line break
}

// rereadAllowance is how many bytes the repairs of one search of text
// may read a second time (see [repairer.reread]), and how many its
// repairs may read in all, bytes the scan read once (see
// [finder.repairOnce]): several times the text, and a constant,
// rereadFloor, so that a reply of a few hundred strings missing their
// closing quotes, kilobytes long, is not refused. Past the first, the
// string being read is not repaired; past the second, no more values are.
func rereadAllowance(text string) int { return 8*len(text) + rereadFloor }

// rereadFloor is the part of [rereadAllowance] that does not grow with
// the text: 1 MiB, read again in some 30 ms at worst. A list of n
// strings missing their closing quotes, judged by a validator, reads
// about n·len(text)/2 bytes again; at 64 KiB a list of 150 tags (1 KB)
// or of 40 sentences (3 KB) was refused.
const rereadFloor = 1 << 20

// reread moves reading back to from, to read again the text up to r.pos,
// and reports whether the search may: a string the text ends inside is
// read to the end before it is known where it ends, and when a guess
// cuts it short the next one may run to the end again, each time. So
// that no reply makes repair superlinear, the bytes read again are
// counted, and past [rereadAllowance] the string is not repaired, nor
// is the value that holds it: the reading fails (see [repairer.run]),
// and a guess one of whose readings failed so is not settled (see
// [finder.settle]).
func (r *repairer) reread(from int) bool {
	r.far = max(r.far, r.pos)
	r.rereadLeft -= r.pos - from
	r.pos = from
	if r.rereadLeft < 0 {
		r.overdrawn = true
	}
	return !r.overdrawn
}

// reset prepares the repairer for text, keeping its buffers. The results
// of the previous run are overwritten.
func (r *repairer) reset(text string) {
	r.text, r.pos, r.reach, r.far, r.guesses, r.calls, r.early, r.badEscape = text, 0, 0, 0, 0, 0, -1, -1
	r.noCalls, r.overdrawn = false, false
	r.out, r.written, r.kinds = r.out[:0], r.written[:0], r.kinds[:0]
	r.fixes.truncate(0)
}

// run repairs the value starting at start. It returns the JSON (the
// repairer's buffer, valid until the next reset), the end of the value in
// the input, and false when the text cannot be read as a value.
func (r *repairer) run(start int) ([]byte, int, bool) {
	r.pos = start
	ok := r.value(roleTop) && !r.refused() && !r.overdrawn
	r.reach = max(r.reach, r.pos)
	if !ok {
		return nil, 0, false
	}
	// The output is checked as a last line of defence: a candidate is
	// always valid JSON, whatever the input.
	if end, valid := r.v.value(stringView(r.out), 0); !valid || end != len(r.out) {
		return nil, 0, false
	}
	end := r.pos
	for end > start && isSpace(r.text[end-1]) {
		end--
	}
	return r.out, end, true
}

// roomy gives the output room for a value as long as the rest of the
// text, with an eighth to spare, but at most twice what it holds, once
// it holds several kilobytes and is nearly full. A value is often about
// as long as the text it is rebuilt from: a buffer that doubles up to
// that size, kept for the search's later repairs, costs less than
// growing one to it a quarter at a time, and a value that fails early
// (a reply of a million '{') never asks for it. It runs
// between the items of containers and before strings.
func (r *repairer) roomy() {
	if len(r.out) >= roomyFrom && cap(r.out)-len(r.out) < roomyFrom/4 {
		// At most twice what it holds: the value may be a small part of
		// a long text (a value of kilobytes before megabytes of prose).
		rest := len(r.out) + len(r.text) - r.pos
		n := min(rest+rest/8, 2*cap(r.out))
		r.out = slices.Grow(r.out, n-len(r.out))
	}
}

// roomyFrom is how long the output grows by append before
// [repairer.roomy] sizes it from the text.
const roomyFrom = 4096

// stringView returns b's bytes as a string without copying them, for
// reading while b does not change.
func stringView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// guess records a choice between two plausible readings of the text and
// reports whether to take the second one. A value whose repair guessed is
// not returned unless the caller's validator tells the readings apart
// (see [finder.repair]).
func (r *repairer) guess() bool {
	r.guesses++
	return r.alt
}

// eof reports whether the input is exhausted.
func (r *repairer) eof() bool { return r.pos >= len(r.text) }

// value repairs one value at r.pos (after blanks).
func (r *repairer) value(where role) bool {
	r.skipBlanks()
	if r.eof() {
		return false
	}
	c := r.text[r.pos]
	switch {
	case c == '{':
		return r.object()
	case c == '[':
		return r.array()
	case c == '"' || c == '\'':
		return r.str(where)
	case c == '\\' && strings.HasPrefix(r.text[r.pos:], `\"`):
		return r.escapedStr() && (where != roleTop || r.restIsBlank())
	case c == '`' && !strings.HasPrefix(r.text[r.pos:], "``"):
		return r.str(where)
	case c == '(':
		if r.tuple() {
			return true
		}
	case c >= 0x80:
		if q := smartQuote(r.text[r.pos:]); q != "" {
			return r.str(where)
		}
	}
	if where == roleTop {
		return r.topScalar()
	}
	return r.word(where)
}

// object repairs an object starting at '{'.
func (r *repairer) object() bool {
	if !r.enter() {
		return false
	}
	defer r.leave()
	members := 0
	comma := -1 // offset of a comma not yet followed by a member
	for {
		if r.between('}', members, &comma) {
			return true
		}
		if c := r.text[r.pos]; c == '{' || c == '[' {
			// A key was expected but a value starts: the object was not
			// closed before its parent's next element.
			if members == 0 || len(r.kinds) == 1 {
				return false
			}
			if comma >= 0 {
				r.pos = comma // the comma separates the parent's elements
			}
			r.fix(noteBracketInserted, r.pos, "", "}")
			r.out = append(r.out, '}')
			return true
		}
		mark, fmark := len(r.out), r.fixes.len()
		if members > 0 {
			if comma < 0 {
				r.fix(noteMissingComma, r.pos, "", ",")
			}
			r.out = append(r.out, ',')
		}
		keyAt := r.pos
		if !r.key() {
			return false
		}
		r.skipBlanks()
		if r.eof() {
			r.dropDanglingKey(mark, fmark, keyAt)
			return true
		}
		r.out = append(r.out, ':')
		switch c := r.text[r.pos]; {
		case c == ':':
			r.pos++
		case c == '}' || c == ',':
			// A key with neither colon nor value: a set ({'a', 'b'}), a
			// key and value run together ({"a:1}) or a stray word.
			if !r.guess() {
				return false
			}
			r.fix(noteMissingValue, r.pos, "", ":null")
			r.out = append(r.out, "null"...)
			members++
			comma = -1
			continue
		case r.startsValue():
			r.fix(noteMissingColon, r.pos, "", ":")
		default:
			return false
		}
		r.skipBlanks()
		if r.eof() {
			r.dropDanglingKey(mark, fmark, keyAt)
			return true
		}
		if c := r.text[r.pos]; c == '}' || c == ',' || c == ']' {
			r.fix(noteMissingValue, r.pos, "", "null")
			r.out = append(r.out, "null"...)
		} else if !r.value(roleValue) {
			return false
		}
		members++
		comma = -1
	}
}

// array repairs an array starting at '['.
func (r *repairer) array() bool {
	if !r.enter() {
		return false
	}
	defer r.leave()
	items := 0
	comma := -1 // offset of a comma not yet followed by an element
	for {
		if r.between(']', items, &comma) {
			return true
		}
		if r.text[r.pos] == ':' {
			return false
		}
		if items > 0 {
			if comma < 0 {
				r.fix(noteMissingComma, r.pos, "", ",")
			}
			r.out = append(r.out, ',')
		}
		if !r.value(roleElement) {
			return false
		}
		items++
		comma = -1
	}
}

// enter starts the container whose opening bracket, '{' or '[', is at
// r.pos: it copies the bracket and records it as open, for [repairer.leave]
// to close. It reports false, having done nothing, when maxDepth containers
// are open already.
func (r *repairer) enter() bool {
	if len(r.kinds) >= maxDepth {
		return false
	}
	open := r.text[r.pos]
	r.kinds = append(r.kinds, open)
	r.out = append(r.out, open)
	r.pos++
	return true
}

// leave forgets the innermost open container.
func (r *repairer) leave() { r.kinds = r.kinds[:len(r.kinds)-1] }

// between reads what may stand before the next item of the innermost open
// container, which closes with closer ('}' for an object, ']' for an
// array): blanks, commas, "..." placeholders, the end of the text or a
// closing bracket. count is the number of items read so far; *comma is the
// offset of a comma not yet followed by an item (-1 when there is none),
// kept up to date. It reports true when the container is closed (by its
// bracket, by another one, or because the text ended); otherwise r.pos is
// at the start of the next item.
func (r *repairer) between(closer byte, count int, comma *int) bool {
	noItem := noteCommaNoMember
	if closer == ']' {
		noItem = noteCommaNoElement
	}
	r.roomy()
	for {
		r.skipBlanks()
		if r.eof() {
			r.dropComma(*comma)
			r.fix(noteLeftOpen, r.pos, "", string(closer))
			r.out = append(r.out, closer)
			return true
		}
		switch c := r.text[r.pos]; {
		case r.pos == r.early:
			r.fix(noteBracketEarly, r.pos, "}", "")
			r.pos++
		case c == closer:
			r.dropComma(*comma)
			r.pos++
			r.out = append(r.out, closer)
			return true
		case c == '}' || c == ']':
			if r.closeMismatched(closer, *comma) {
				return true
			}
		case c == ',':
			if count == 0 || *comma >= 0 {
				r.fix(noItem, r.pos, ",", "")
			} else {
				*comma = r.pos
			}
			r.pos++
		case r.ellipsis():
		default:
			return false
		}
	}
}

// dropDanglingKey undoes the member begun at keyAt, whose key the text
// ends after (mark and fmark are the lengths of r.out and r.fixes before
// it), and closes the object.
func (r *repairer) dropDanglingKey(mark, fmark, keyAt int) {
	r.out = r.out[:mark]
	r.dropFixes(fmark)
	r.fix(noteDanglingKey, keyAt, strings.TrimRight(r.text[keyAt:r.pos], " \t\r\n"), "")
	r.fix(noteLeftOpen, r.pos, "", "}")
	r.out = append(r.out, '}')
}

// dropComma records that the comma at offset (if any) was dropped because a
// closing bracket followed it.
func (r *repairer) dropComma(offset int) {
	if offset >= 0 {
		r.fix(noteTrailingComma, offset, ",", "")
	}
}

// closeMismatched handles a closing bracket at r.pos that does not match the
// open container, which closes with want. When an enclosing container
// matches the bracket, the current one was left open: it is closed and the
// bracket left to its owner. Otherwise the bracket was mistyped and is
// replaced.
//
// It reports whether the container was closed; when not, the bracket was
// dropped and reading goes on.
func (r *repairer) closeMismatched(want byte, comma int) bool {
	got := r.text[r.pos]
	opener := byte('{')
	if got == ']' {
		opener = '['
	}
	for i := len(r.kinds) - 2; i >= 0; i-- {
		if r.kinds[i] == opener {
			if i == 0 && followsComma(r.text, r.pos+1) && r.guess() {
				// {"a": [1, 2}, "b": 3}: closing the whole value here
				// would leave the rest out; the second reading takes the
				// bracket for a typo.
				break
			}
			r.dropComma(comma)
			r.fix(noteBracketInserted, r.pos, "", string(want))
			r.out = append(r.out, want)
			return true
		}
	}
	if len(r.kinds) == 1 && followsComma(r.text, r.pos+1) && r.guess() {
		// [{...}}, {...}]: replacing the bracket would close the whole
		// value and leave the rest out; the second reading drops it.
		r.fix(noteBracketStray, r.pos, string(got), "")
		r.pos++
		return false
	}
	r.dropComma(comma)
	r.fix(noteBracketReplaced, r.pos, string(got), string(want))
	r.pos++
	r.out = append(r.out, want)
	return true
}

// ellipsis skips a "..." (or "…") placeholder at r.pos and reports whether
// there was one.
func (r *repairer) ellipsis() bool {
	switch r.text[r.pos] {
	case '.', "…"[0]:
		return r.ellipsisAt() // apart, so that the test is inlined
	}
	return false
}

// ellipsisAt is [repairer.ellipsis] at a byte that may start one.
func (r *repairer) ellipsisAt() bool {
	rest := r.text[r.pos:]
	n := 0
	switch {
	case strings.HasPrefix(rest, "..."):
		n = 3
		for n < len(rest) && rest[n] == '.' {
			n++
		}
	case strings.HasPrefix(rest, "…"):
		n = len("…")
	default:
		return false
	}
	r.fix(noteEllipsis, r.pos, rest[:n], "")
	r.pos += n
	return true
}

// startsValue reports whether the byte at r.pos can begin a value.
func (r *repairer) startsValue() bool {
	c := r.text[r.pos]
	switch {
	case c == '"' || c == '\'' || c == '`' || c == '{' || c == '[' || c == '(' || c == '-' || c == '+' || c == '.':
		return true
	case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		return true
	case c >= 0x80:
		return smartQuote(r.text[r.pos:]) != ""
	}
	return false
}

// key repairs an object key: a string in any quotes, or a bare word.
func (r *repairer) key() bool {
	c := r.text[r.pos]
	if c == '"' || c == '\'' || c == '`' && !strings.HasPrefix(r.text[r.pos:], "``") || (c >= 0x80 && smartQuote(r.text[r.pos:]) != "") {
		return r.str(roleKey)
	}
	if c == '\\' && strings.HasPrefix(r.text[r.pos:], `\"`) {
		return r.escapedStr()
	}
	start, end := r.pos, r.pos
	for end < len(r.text) && isBareByte(r.text[end]) {
		end++
	}
	r.pos = end
	if end == start {
		return false
	}
	// A bare key must be followed by its colon (after blanks, and after a
	// stray closing quote, as in {a":1}) or by a quoted string, its value
	// with the colon left out ({a 'b'}); anything else is not an object.
	if !r.eof() && r.text[r.pos] == '"' {
		r.pos++
		r.fixQuoted(noteKeyOpeningQuote, start, r.text[start:r.pos], r.text[start:end])
	} else {
		r.fixQuoted(noteUnquotedKey, start, r.text[start:end], r.text[start:end])
	}
	save := r.pos
	for !r.eof() && isSpace(r.text[r.pos]) {
		r.pos++
	}
	if r.eof() || r.text[r.pos] != ':' && !quotedValueAt(r.text, r.pos, &r.stops) {
		return false
	}
	r.pos = save
	appendQuotedInPlace(&r.out, r.text[start:end])
	return true
}

// skipBlanks skips whitespace, comments and the space characters JSON does
// not allow, recording what it dropped.
func (r *repairer) skipBlanks() {
	// Small enough to be inlined: most calls stand before a token.
	if r.pos < len(r.text) && !blankStart[r.text[r.pos]] {
		return
	}
	r.skipBlanksAt()
}

// blankStart marks the bytes [repairer.skipBlanks] may skip or drop from:
// whitespace, the start of a comment and of a multi-byte character (a
// read-only table).
var blankStart = func() (t [256]bool) {
	for _, c := range " \t\r\n/#" {
		t[c] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return t
}()

// skipBlanksAt is [repairer.skipBlanks] past its first test.
func (r *repairer) skipBlanksAt() {
	for !r.eof() {
		c := r.text[r.pos]
		switch {
		case isSpace(c):
			// A run of blanks is skipped at once.
			j := r.pos + 1
			for j < len(r.text) && isSpace(r.text[j]) {
				j++
			}
			r.pos = j
		case c == '/' && r.pos+1 < len(r.text) && r.text[r.pos+1] == '/', c == '#':
			start := r.pos
			for !r.eof() && r.text[r.pos] != '\n' {
				r.pos++
			}
			r.fix(noteLineComment, start, strings.TrimRight(r.text[start:r.pos], "\r"), "")
		case c == '/' && r.pos+1 < len(r.text) && r.text[r.pos+1] == '*':
			start := r.pos
			end := strings.Index(r.text[r.pos+2:], "*/")
			if end < 0 {
				r.pos = len(r.text)
			} else {
				r.pos += 2 + end + 2
			}
			r.fix(noteBlockComment, start, r.text[start:r.pos], "")
		case c >= 0x80:
			ch, n := utf8.DecodeRuneInString(r.text[r.pos:])
			if !isOddSpace(ch) {
				return
			}
			r.fix(noteWhitespace, r.pos, r.text[r.pos:r.pos+n], "")
			r.pos += n
		default:
			return
		}
	}
}

// isOddSpace reports a Unicode space or invisible character that models put
// between tokens and JSON does not allow there.
func isOddSpace(ch rune) bool {
	switch {
	case ch == 0xa0, ch == 0x1680, ch == 0x180e, ch >= 0x2000 && ch <= 0x200b,
		ch == 0x2028, ch == 0x2029, ch == 0x202f, ch == 0x205f, ch == 0x3000, ch == 0xfeff:
		return true
	}
	return false
}
