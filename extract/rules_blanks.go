package extract

import (
	"strings"
	"unicode/utf8"
)

// This file holds the repair rules of the blanks between tokens:
// comments and the space characters JSON does not allow.

// skipSpaceAndComments returns the first offset from i that is neither a
// blank nor inside a /* */ or // comment.
func skipSpaceAndComments(text string, i int) int {
	for i < len(text) {
		switch {
		case isSpace(text[i]):
			i++
		case strings.HasPrefix(text[i:], "/*"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return len(text)
			}
			i += 2 + end + 2
		case strings.HasPrefix(text[i:], "//"):
			for i < len(text) && text[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
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
