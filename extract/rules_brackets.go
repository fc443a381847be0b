package extract

import (
	"strings"
)

// This file holds the repair rules of brackets: a container closed by
// another's bracket, by a mistyped or early one, or left open at the end
// of the text; a dangling key; a tuple; values without their brackets.

// list repairs a reply that is several values separated by commas, at
// r.pos: an array whose brackets were left out (1, 2, 3 or {...}, {...}).
// It reports false, having written nothing, unless at least one comma
// separates two values and nothing else follows them.
func (r *repairer) list() bool {
	start := r.pos
	r.out = append(r.out, '[')
	items, lastComma := 0, -1 // lastComma: a comma no value followed yet
	for {
		r.skipBlanks()
		if r.eof() {
			break
		}
		if r.text[r.pos] == ',' {
			if items == 0 || lastComma >= 0 {
				r.fix(noteCommaNoValue, r.pos, ",", "")
			} else {
				lastComma = r.pos
			}
			r.pos++
			continue
		}
		if items > 0 && lastComma < 0 {
			return false // values side by side: alternatives, not a list
		}
		if items > 0 {
			r.out = append(r.out, ',')
		}
		if !r.value(roleElement) {
			return false
		}
		items++
		lastComma = -1
	}
	if items < 2 {
		return false
	}
	if lastComma >= 0 {
		r.fix(noteTrailingComma, lastComma, ",", "")
	}
	r.fix(noteBracketsAround, start, "", "[")
	r.out = append(r.out, ']')
	return true
}

// tuple repairs a parenthesised value at r.pos, as Python writes tuples:
// (1, 2) becomes [1, 2], () becomes [] and (1) becomes 1. Its elements
// must be values, not bare words: "(see below)" is text, which the caller
// reads as such. Otherwise it does not apply, having written nothing.
func (r *repairer) tuple(role) (read, applied bool) {
	if len(r.kinds) >= maxDepth || r.calls >= maxCalls || r.noCalls {
		return false, false
	}
	start, mark, fmark := r.pos, len(r.out), r.fixes.len()
	r.kinds = append(r.kinds, '(')
	r.calls++
	r.pos++
	r.out = append(r.out, '[')
	items, comma := 0, false
	ok := true
	for ok {
		r.skipBlanks()
		if r.eof() {
			ok = false
			break
		}
		c := r.text[r.pos]
		if c == ')' {
			break
		}
		if c == ',' {
			ok = items > 0 && !comma
			comma = true
			r.pos++
			continue
		}
		if items > 0 && !comma {
			ok = false
			break
		}
		if items > 0 {
			r.out = append(r.out, ',')
		}
		ok = r.value(roleElement)
		items++
		comma = false
	}
	r.calls--
	r.kinds = r.kinds[:len(r.kinds)-1]
	for i := fmark; i < r.fixes.len(); i++ {
		ok = ok && r.fixKind(i) != FixUnquotedString && r.fixKind(i) != FixTruncated
	}
	if !ok {
		r.pos, r.out = start, r.out[:mark]
		r.dropFixes(fmark)
		r.noCalls = true
		return false, false
	}
	r.pos++ // the ')'
	if items == 1 && !comma {
		r.out = append(r.out[:mark], r.out[mark+1:]...)
		r.fix(noteParentheses, start, "(", "")
		return true, true
	}
	r.out = append(r.out, ']')
	r.fix(noteTuple, start, "(", "[")
	return true, true
}

// followsComma reports whether a ',' comes after blanks from i.
func followsComma(text string, i int) bool {
	for i < len(text) && isSpace(text[i]) {
		i++
	}
	return i < len(text) && text[i] == ','
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

// earlyBrace drops the '}' at r.early, which closed an object too early
// ({"a": 1}, "b": 2}); the finder sets r.early where it saw one.
func (r *repairer) earlyBrace(byte, int, *int) (closed, applied bool) {
	if r.pos != r.early {
		return false, false
	}
	r.fix(noteBracketEarly, r.pos, "}", "")
	r.pos++
	return false, true
}

// closingBracket closes the open container at its own bracket, closer,
// dropping a comma before it.
func (r *repairer) closingBracket(closer byte, _ int, comma *int) (closed, applied bool) {
	if r.text[r.pos] != closer {
		return false, false
	}
	r.dropComma(*comma)
	r.pos++
	r.out = append(r.out, closer)
	return true, true
}

// mismatchedBracket reads a closing bracket at r.pos that does not match
// the open container, which closes with want. When an enclosing container
// matches the bracket, the current one was left open: it is closed and the
// bracket left to its owner. Otherwise the bracket was mistyped and is
// replaced.
//
// It reports whether the container was closed; when not, the bracket was
// dropped and reading goes on.
func (r *repairer) mismatchedBracket(want byte, _ int, comma *int) (closed, applied bool) {
	got := r.text[r.pos]
	if got == want {
		return false, false
	}
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
			r.dropComma(*comma)
			r.fix(noteBracketInserted, r.pos, "", string(want))
			r.out = append(r.out, want)
			return true, true
		}
	}
	if len(r.kinds) == 1 && followsComma(r.text, r.pos+1) && r.guess() {
		// [{...}}, {...}]: replacing the bracket would close the whole
		// value and leave the rest out; the second reading drops it.
		r.fix(noteBracketStray, r.pos, string(got), "")
		r.pos++
		return false, true
	}
	r.dropComma(*comma)
	r.fix(noteBracketReplaced, r.pos, string(got), string(want))
	r.pos++
	r.out = append(r.out, want)
	return true, true
}

// leftOpen closes the open container, which closes with closer, at the
// end of the text, dropping a comma (at offset comma, if any) before it.
func (r *repairer) leftOpen(closer byte, comma int) {
	r.dropComma(comma)
	r.fix(noteLeftOpen, r.pos, "", string(closer))
	r.out = append(r.out, closer)
}
