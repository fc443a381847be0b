package extract

import (
	"strings"
)

// This file holds the repair rules of backslashes: escapes inside a
// string (invalid, raw, cut off) and values written as escaped JSON.

// drivePath reports whether a Windows path written with raw backslashes,
// a letter, ':' and one '\', starts at i. A path written C:\\ has its
// backslashes escaped: its other escapes (\n, \u00e9) are JSON's.
func drivePath(text string, i int) bool {
	if i+3 > len(text) || text[i+1] != ':' || text[i+2] != '\\' || i+3 < len(text) && text[i+3] == '\\' {
		return false
	}
	c := text[i] | 0x20
	return c >= 'a' && c <= 'z'
}

// escape copies or repairs the backslash escape at r.pos.
func (r *repairer) escape() bool {
	if r.pos+1 >= len(r.text) {
		r.fix(noteBackslashAtEnd, r.pos, `\`, "")
		r.pos++
		return true
	}
	c := r.text[r.pos+1]
	if r.raw && c != '"' && c != '\\' && c != '\'' && c != '\n' && smartQuote(r.text[r.pos+1:]) == "" {
		r.loneBackslash()
		return true
	}
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		r.out = append(r.out, '\\', c)
		r.pos += 2
	case 'u':
		for k := 2; k < 6; k++ {
			if r.pos+k >= len(r.text) {
				r.fix(noteEscapeAtEnd, r.pos, r.text[r.pos:], "")
				r.pos = len(r.text)
				return true
			}
			if !isHex(r.text[r.pos+k]) {
				return false
			}
		}
		r.out = append(r.out, r.text[r.pos:r.pos+6]...)
		r.pos += 6
	case '\'':
		r.fix(noteInvalidEscape, r.pos, `\'`, "'")
		r.pos++
	case '\n':
		r.fix(noteBackslashLineEnd, r.pos, "\\\n", `\n`)
		r.out = append(r.out, '\\', 'n')
		r.pos += 2
	default:
		if smartQuote(r.text[r.pos+1:]) != "" {
			r.fix(noteBackslashSmartQuote, r.pos, `\`, "")
			r.pos++
			break
		}
		// A lone backslash, as in C:\Users or a regular expression's \d:
		// keep it.
		r.loneBackslash()
	}
	return true
}

// loneBackslash keeps the backslash at r.pos as a character of the string,
// noting where the string's first such backslash is.
func (r *repairer) loneBackslash() {
	if r.badEscape < 0 {
		r.badEscape = r.pos
	}
	r.fix(noteLoneBackslash, r.pos, `\`, `\\`)
	r.out = append(r.out, '\\', '\\')
	r.pos++
}

// escapedStr repairs a string written as escaped JSON, \"like this\", in a
// value that is itself escaped JSON text.
func (r *repairer) escapedStr() bool {
	r.fix(noteEscapedJSON, r.pos, `\"`, `"`)
	r.pos += 2
	r.out = append(r.out, '"')
	for !r.eof() {
		rest := r.text[r.pos:]
		switch {
		case strings.HasPrefix(rest, `\\\"`):
			// An escaped quote of the inner text.
			r.out = append(r.out, '\\', '"')
			r.pos += 4
		case strings.HasPrefix(rest, `\\"`):
			r.out = append(r.out, '\\', '"')
			r.pos += 3
		case strings.HasPrefix(rest, `\"`):
			r.pos += 2
			r.out = append(r.out, '"')
			return true
		case strings.HasPrefix(rest, `\\`):
			r.out = append(r.out, '\\', '\\')
			r.pos += 2
		case rest[0] == '"':
			r.out = append(r.out, '\\', '"')
			r.pos++
		case rest[0] < 0x20:
			esc, ok := controlEscape(rest[0])
			if !ok {
				return false
			}
			r.out = append(r.out, esc...)
			r.pos++
		case rest[0] == '\\':
			if !r.escape() {
				return false
			}
		default:
			r.out = append(r.out, rest[0])
			r.pos++
		}
	}
	r.fix(noteStringLeftOpen, r.pos, "", `"`)
	r.out = append(r.out, '"')
	return true
}

// controlEscape returns the JSON escape of a control character allowed to
// appear raw in a model's string (newline, tab, ...).
func controlEscape(c byte) (string, bool) {
	switch c {
	case '\n':
		return `\n`, true
	case '\r':
		return `\r`, true
	case '\t':
		return `\t`, true
	case '\b':
		return `\b`, true
	case '\f':
		return `\f`, true
	}
	return "", false
}

// controlName names a control character for a fix detail.
func controlName(c byte) string {
	switch c {
	case '\n':
		return "newline"
	case '\t':
		return "tab"
	case '\r':
		return "carriage return"
	}
	return "control character"
}

// escapedJSON reads a string written as escaped JSON, \"like this\"
// ([repairer.escapedStr]); a whole reply must end after it.
func (r *repairer) escapedJSON(where role) (ok, applied bool) {
	if !strings.HasPrefix(r.text[r.pos:], `\"`) {
		return false, false
	}
	return r.escapedStr() && (where != roleTop || r.restIsBlank()), true
}
