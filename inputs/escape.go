package inputs

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// validKey reports whether k is a simple identifier: a letter or '_', then
// letters, combining marks, decimal digits, '_', '-' or '.'. Such a name
// holds no space, line break, colon or '<', so its line cannot be mistaken
// for anything but the start of one parameter.
func validKey(k string) bool {
	if k == "" {
		return false
	}
	ascii := true
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_':
		case c >= utf8.RuneSelf:
			ascii = false
		case i == 0:
			return false
		case '0' <= c && c <= '9' || c == '-' || c == '.':
		default:
			return false
		}
	}
	if ascii {
		return true
	}
	if !utf8.ValidString(k) {
		return false
	}
	for i, r := range k {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case i == 0:
			return false
		case r == '-' || r == '.' || unicode.IsDigit(r) || unicode.IsMark(r):
		default:
			return false
		}
	}
	return true
}

// tagName is the block's element name; tagAt compares it ignoring ASCII case.
const tagName = "inputs"

// tagAt reports whether s[i] is a '<' that, after any run of backslashes,
// starts something a reader could take for the block's own tag: an optional
// '/', "inputs" in any ASCII letter case, then the end of s or a character
// that cannot continue an XML name (so `</inputs>`, `<INPUTS >`,
// `<inputs id="x">` and a trailing `</inputs` all count; `<inputs2>` does
// not). It is the single predicate behind the escaping, so Format and Parse
// agree on it by construction.
func tagAt(s string, i int) bool {
	if s[i] != '<' {
		return false
	}
	j := i + 1
	for j < len(s) && s[j] == '\\' {
		j++
	}
	if j < len(s) && s[j] == '/' {
		j++
	}
	if len(s)-j < len(tagName) {
		return false
	}
	for k := 0; k < len(tagName); k++ {
		if s[j+k]|0x20 != tagName[k] {
			return false
		}
	}
	j += len(tagName)
	return j == len(s) || !isNameByte(s[j])
}

// isNameByte reports whether b continues an ASCII XML name. Any other byte,
// including every byte of a non-ASCII character, ends the tag name, which
// errs on the side of escaping.
func isNameByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
		b == '-' || b == '_' || b == '.' || b == ':'
}

// hasTag reports whether s holds any position where tagAt is true.
func hasTag(s string) bool {
	for i := strings.IndexByte(s, '<'); i >= 0; {
		if tagAt(s, i) {
			return true
		}
		n := strings.IndexByte(s[i+1:], '<')
		if n < 0 {
			break
		}
		i += 1 + n
	}
	return false
}

// escapeTags inserts one backslash after every '<' where tagAt holds:
// `</inputs>` becomes `<\/inputs>` and `<\/inputs>` becomes `<\\/inputs>`.
// Because tagAt looks past the backslashes, the escaped text has no bare
// tag and unescapeTags restores the original exactly.
func escapeTags(s string) string {
	if !hasTag(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	last := 0
	for i := 0; i < len(s); i++ {
		if tagAt(s, i) {
			b.WriteString(s[last : i+1])
			b.WriteByte('\\')
			last = i + 1
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// unescapeTags undoes escapeTags: it removes one backslash after every '<'
// that is followed by at least one backslash and where tagAt holds.
func unescapeTags(s string) string {
	if !hasTag(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i := 0; i+1 < len(s); i++ {
		if s[i+1] == '\\' && tagAt(s, i) {
			b.WriteString(s[last : i+1])
			last = i + 2
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// escapeJSONTags rewrites, in the JSON text dst[start:] written by
// appendPython, every '<' where tagAt holds as the JSON escape \u003c, and
// returns the extended dst. Such a '<' can only sit inside a JSON string,
// where \u003c means the same character, so the text stays valid JSON with
// the same value and holds no tag for unescapeTags to act on.
func escapeJSONTags(dst []byte, start int) []byte {
	if bytes.IndexByte(dst[start:], '<') < 0 {
		return dst
	}
	js := string(dst[start:])
	if !hasTag(js) {
		return dst
	}
	dst = dst[:start]
	for i := 0; i < len(js); i++ {
		if tagAt(js, i) {
			dst = append(dst, `\u003c`...)
			continue
		}
		dst = append(dst, js[i])
	}
	return dst
}

// breakLen returns the length of the line break starting at s[i], or 0.
// Line breaks are those of Python's str.splitlines: \n, \r, \v, \f,
// \x1c, \x1d, \x1e, U+0085, U+2028 and U+2029. A "\r\n" pair counts as the
// single break "\r\n".
func breakLen(s string, i int) int {
	switch c := s[i]; c {
	case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e:
		return 1
	case '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		return 1
	case 0xc2:
		if i+1 < len(s) && s[i+1] == 0x85 {
			return 2
		}
	case 0xe2:
		if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9) {
			return 3
		}
	}
	return 0
}

// nextBreak returns the index just past the first line break (in the
// sense of breakLen) of s at or after i, or -1 when there is none.
func nextBreak(s string, i int) int {
	for ; i < len(s); i++ {
		if n := breakLen(s, i); n > 0 {
			return i + n
		}
	}
	return -1
}

// hasBreak reports whether s holds a line break in the sense of breakLen.
func hasBreak(s string) bool { return nextBreak(s, 0) >= 0 }

// indent is what follows every line break of a multi-line value.
const indent = "  "

// appendIndented appends s with indent after every line break, so that no
// line of s can start at the block's left margin.
func appendIndented(dst []byte, s string) []byte {
	last := 0
	for end := nextBreak(s, 0); end >= 0; end = nextBreak(s, end) {
		dst = append(dst, s[last:end]...)
		dst = append(dst, indent...)
		last = end
	}
	return append(dst, s[last:]...)
}

// unindent undoes appendIndented: it removes the indent after every line
// break of s. It reports false when a break is not followed by the indent.
func unindent(s string) (string, bool) {
	if !hasBreak(s) {
		return s, true
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for end := nextBreak(s, 0); end >= 0; end = nextBreak(s, end) {
		if !strings.HasPrefix(s[end:], indent) {
			return "", false
		}
		b.WriteString(s[last:end])
		last = end + len(indent)
	}
	b.WriteString(s[last:])
	return b.String(), true
}
