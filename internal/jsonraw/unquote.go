package jsonraw

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote returns the text of raw, a valid JSON string with its quotes (as
// [Members] and [json.Valid] accept it), decoded as encoding/json decodes
// it: escapes resolved, a lone surrogate escape or an invalid UTF-8 byte as
// U+FFFD. A string without escapes that is valid UTF-8 is copied as is.
// Unquote does not check raw again: it is for strings that [Members] or
// [json.Valid] have already checked.
func Unquote(raw []byte) string {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body)
	}
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		var r rune
		r, i = DecodeRune(body, i)
		out = utf8.AppendRune(out, r) // a surrogate is written as U+FFFD
	}
	return string(out)
}

// DecodeRune decodes the character at s[i], where s is the content of a
// valid JSON string (the bytes between its quotes), and returns it with the
// index of the next character. An escape gives its character, an escaped
// surrogate pair the character it encodes; a lone escaped surrogate gives
// the surrogate itself (so that a caller can keep it, as Python's json.dumps
// does; utf8.AppendRune writes it as U+FFFD), and an invalid UTF-8 byte
// utf8.RuneError. Like [Unquote], it does not check s again.
func DecodeRune(s []byte, i int) (rune, int) {
	if s[i] != '\\' {
		r, n := utf8.DecodeRune(s[i:])
		return r, i + n
	}
	switch esc := s[i+1]; esc {
	case 'u':
		r := hex4(s[i+2 : i+6])
		i += 6
		if r >= 0xd800 && r < 0xdc00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
			if lo := hex4(s[i+2 : i+6]); lo >= 0xdc00 && lo < 0xe000 {
				return utf16.DecodeRune(r, lo), i + 6
			}
		}
		return r, i
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	default: // '"', '\\', '/'
		return rune(esc), i + 2
	}
}

// hex4 decodes four hex digits, already checked by the JSON syntax.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case '0' <= c && c <= '9':
			r |= rune(c - '0')
		case 'a' <= c && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}
