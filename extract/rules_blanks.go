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

// lineComment drops a // or # comment, up to the end of its line.
func (r *repairer) lineComment() bool {
	c := r.text[r.pos]
	if c != '#' && (c != '/' || r.pos+1 >= len(r.text) || r.text[r.pos+1] != '/') {
		return false
	}
	start := r.pos
	for !r.eof() && r.text[r.pos] != '\n' {
		r.pos++
	}
	r.fix(noteLineComment, start, strings.TrimRight(r.text[start:r.pos], "\r"), "")
	return true
}

// blockComment drops a /* */ comment, or the rest of the text when it
// is not closed.
func (r *repairer) blockComment() bool {
	if r.text[r.pos] != '/' || r.pos+1 >= len(r.text) || r.text[r.pos+1] != '*' {
		return false
	}
	start := r.pos
	end := strings.Index(r.text[r.pos+2:], "*/")
	if end < 0 {
		r.pos = len(r.text)
	} else {
		r.pos += 2 + end + 2
	}
	r.fix(noteBlockComment, start, r.text[start:r.pos], "")
	return true
}

// oddSpace drops a Unicode space or invisible character JSON does not
// allow between tokens ([isOddSpace]).
func (r *repairer) oddSpace() bool {
	// A typographic quote, which starts as some of those spaces do, is
	// told apart without decoding it.
	if smartQuote(r.text[r.pos:]) != "" {
		return false
	}
	ch, n := utf8.DecodeRuneInString(r.text[r.pos:])
	if !isOddSpace(ch) {
		return false
	}
	r.fix(noteWhitespace, r.pos, r.text[r.pos:r.pos+n], "")
	r.pos += n
	return true
}
