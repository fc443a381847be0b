package extract

import (
	"slices"
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
	from    int    // where the value being repaired starts
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
	r.text, r.from, r.pos, r.reach, r.far, r.guesses, r.calls, r.early, r.badEscape = text, 0, 0, 0, 0, 0, 0, -1, -1
	r.noCalls, r.overdrawn = false, false
	r.out, r.written, r.kinds = r.out[:0], r.written[:0], r.kinds[:0]
	r.fixes.truncate(0)
}

// run repairs the value starting at start. It returns the JSON (the
// repairer's buffer, valid until the next reset), the end of the value in
// the input, and false when the text cannot be read as a value.
func (r *repairer) run(start int) ([]byte, int, bool) {
	r.pos, r.from = start, start
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

// roomy gives the output room for the value it would hold if the rest
// of the text were rebuilt at the rate the value read so far was (bytes
// written for bytes read), with an eighth to spare, but at most
// roomyGrowth times what it holds, once it holds several kilobytes and
// is nearly full. A value is often about as long as the text it is
// rebuilt from: a buffer sized for it in a few steps, kept for the
// search's later repairs, costs less than one doubled up to it (the
// steps add up to twice its size) or grown a quarter at a time, and a
// value that fails early (a reply of a million '{') never asks for it.
// It runs between the items of containers and before strings.
func (r *repairer) roomy() {
	// Small enough to be inlined: the output seldom needs to grow.
	if len(r.out) >= roomyFrom && cap(r.out)-len(r.out) < roomyFrom/4 {
		r.growOut()
	}
}

// growOut gives the output the room [repairer.roomy] decided on.
func (r *repairer) growOut() {
	r.out = slices.Grow(r.out, r.projected(len(r.out))-len(r.out))
}

// projected returns how long a buffer that holds n bytes written for
// the value read so far will be once the rest of the text is read, at
// the same rate, with an eighth to spare, but at most roomyGrowth
// times n: the value may be a small part of a long text (a value of
// kilobytes before megabytes of prose).
func (r *repairer) projected(n int) int {
	read := max(r.pos-r.from, 1)
	rest := n + int(int64(len(r.text)-r.pos)*int64(n)/int64(read))
	return min(rest+rest/8, roomyGrowth*n)
}

// roomyGrowth bounds how many times [repairer.projected] multiplies a
// buffer's length in one step: the most a buffer sized from the text
// may overshoot a value followed by prose.
const roomyGrowth = 8

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

// openObject reads an object at its '{', an entry of [valueRules].
func (r *repairer) openObject(role) (ok, applied bool) { return r.object(), true }

// openArray reads an array at its '[', an entry of [valueRules].
func (r *repairer) openArray(role) (ok, applied bool) { return r.array(), true }

// plainNumber reads a bare word that is a JSON number, as it stands, an
// entry of [wordRules].
func (r *repairer) plainNumber(_ role, w *bareToken) (ok, applied bool) {
	tok := r.text[w.start:w.end]
	if tok == "" {
		return false, false
	}
	if n, ok := scanNumber(tok, 0); !ok || n != len(tok) {
		return false, false
	}
	r.pos = w.end
	r.out = append(r.out, tok...)
	return true, true
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
			r.skipBlanks()
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
		// Blanks were skipped: the value starts at r.pos.
		if r.eof() {
			r.dropDanglingKey(mark, fmark, keyAt)
			return true
		}
		if c := r.text[r.pos]; c == '}' || c == ',' || c == ']' {
			r.fix(noteMissingValue, r.pos, "", "null")
			r.out = append(r.out, "null"...)
		} else if !r.valueHere(roleValue) {
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
		if !r.valueHere(roleElement) { // between skipped the blanks
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
