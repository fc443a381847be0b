package extract

import (
	"strings"

	"github.com/agentio/agentio/internal/clip"
)

// This file holds the repair rules of bare words: keys without quotes,
// literals of Python and JavaScript, unquoted strings and regular
// expressions.

// quotedValueAt reports whether a string in any quotes opens at i and
// closes on the same line, followed by the end of its member: a ',', a '}'
// or the end of the line. Followed by a ':', it is a key. qs, if not nil,
// remember the searches for the closing quote (see [quoteScan]).
func quotedValueAt(text string, i int, qs *quoteScans) bool {
	open := text[i : i+1]
	if open[0] >= 0x80 {
		if open = smartQuote(text[i:]); open == "" {
			return false
		}
	} else if open != `"` && open != "'" && open != "`" {
		return false
	}
	// A plain text (see [plainInRepair]) holds no closing quote nor line
	// break: past it, a closing quote is the first.
	from := i + len(open)
	j := from
	for j < len(text) && plainInRepair[text[j]] {
		j++
	}
	closer := ""
	if c := open[0]; j < len(text) && (c == '"' || c == '\'') && text[j] == c {
		closer = open // a straight quote closes its string
	} else if c == '`' || c >= 0x80 {
		if j < len(text) {
			closers := closersOf(open)
			closer = matchAny(text[j:], closers[:])
		}
	}
	if closer == "" {
		closers := closersOf(open)
		var q *quoteScan
		if qs != nil {
			q = qs.of(closers)
		}
		j = q.next(text, from, closers)
		if j >= len(text) || text[j] == '\n' {
			return false
		}
		closer = matchAny(text[j:], closers[:])
	}
	j += len(closer)
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return j == len(text) || text[j] == ',' || text[j] == '}' || text[j] == '\n' || text[j] == '\r'
}

// isBareByte reports a byte that may appear in a bare key.
func isBareByte(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '{', '}', '[', ']', '"', '\'', '/', '#':
		return false
	}
	return c >= 0x20
}

// bareBytes marks the bytes [isBareByte] reports (a read-only table).
var bareBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = isBareByte(byte(c))
	}
	return t
}()

// A bareToken is the first token of a bare word, which the rules of
// [wordRules] read: from r.pos up to a blank or a delimiter ([isTokenEnd]),
// a '/' that starts no comment being part of it (1/3), or up to a ')'
// inside a call. It is read in one pass, which sorts its bytes into
// classes.
type bareToken struct {
	read       bool // the token was read: the fields below hold it
	start, end int
	classes    wordClass // the classes of its bytes
	paren      int       // the offset of its first '(', or -1
}

// A wordClass is a set of classes of bytes, those a bare word's first
// token holds (see [bareToken]) or a form of [wordRules] may hold.
type wordClass uint8

// The classes of bytes.
const (
	classDigit      wordClass = 1 << iota // 0 to 9
	classSign                             // + and -
	classPoint                            // .
	classExp                              // e and E
	classUnderscore                       // _
	classLetter                           // the other ASCII letters
	classOther                            // every other byte
	// classStop marks, in byteClasses, the bytes that may end the token
	// or open a call: the token ends ([isTokenEnd]), '(' and ')'.
	classStop

	numeric  = classDigit | classSign | classPoint | classExp // a number's bytes
	anyClass = classStop - 1                                  // every class
)

// byteClasses gives the class of each byte, and classStop for the bytes
// that may end a token or open a call (a read-only table).
var byteClasses = func() (t [256]wordClass) {
	for c := range t {
		b := byte(c)
		switch {
		case isDigit(b):
			t[c] = classDigit
		case b == '+' || b == '-':
			t[c] = classSign
		case b == '.':
			t[c] = classPoint
		case b == 'e' || b == 'E':
			t[c] = classExp
		case b == '_':
			t[c] = classUnderscore
		case b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z':
			t[c] = classLetter
		default:
			t[c] = classOther
		}
		if isTokenEnd(b) || b == '(' || b == ')' {
			t[c] |= classStop
		}
	}
	return t
}()

// readToken reads the first token of the bare word at r.pos into w.
func (r *repairer) readToken(w *bareToken) {
	w.read, w.start, w.paren = true, r.pos, -1
	end := r.pos
	for ; end < len(r.text); end++ {
		c := r.text[end]
		k := byteClasses[c]
		if k&classStop != 0 {
			if isTokenEnd(c) && (c != '/' || commentAt(r.text, end)) || c == ')' && r.calls > 0 {
				break
			}
			if c == '(' && w.paren < 0 {
				w.paren = end
			}
			k &^= classStop
		}
		w.classes |= k
	}
	w.end = end
}

// regexpWord reads a regular expression literal ([repairer.regexp]) at a
// '/' that starts no comment.
func (r *repairer) regexpWord(role, *bareToken) (ok, applied bool) {
	if r.text[r.pos] != '/' || commentAt(r.text, r.pos) || !r.regexp() {
		return false, false
	}
	return true, true
}

// literalWord reads a literal, JSON's or one of Python or JavaScript
// ([literal]).
func (r *repairer) literalWord(_ role, w *bareToken) (ok, applied bool) {
	tok := r.text[w.start:w.end]
	lit, kind, ok := literal(tok)
	if !ok {
		return false, false
	}
	r.pos = w.end
	r.writeLiteral(w.start, tok, lit, kind)
	return true, true
}

// unquotedWord reads a bare word that is no other form as an unquoted
// string, or one that lost its opening quote. A control character, a
// delimiter that ends a value, or the '/' or '#' of a comment starts
// none ([unquotedStarts]).
func (r *repairer) unquotedWord(where role, w *bareToken) (ok, applied bool) {
	start := w.start
	if c := r.text[start]; c < 0x20 || strings.IndexByte(unquotedNever, c) >= 0 {
		return false, false
	}
	// An unquoted string runs to the next delimiter, line end or comment
	// (a // comment after a blank: https://x.org is a string). A bracket
	// glued to a word opens a part of the text (f{x}, a[0]) that runs to
	// its own closing bracket, commas and all.
	end := start
	depth := 0
scan:
	for ; end < len(r.text); end++ {
		switch b := r.text[end]; {
		case (b == '{' || b == '[') && end > start && !isSpace(r.text[end-1]):
			depth++
		case depth > 0 && (b == '}' || b == ']'):
			depth--
		case depth > 0 && b == ',':
			// a comma inside the bracketed part is text
		case b == ',' || b == '}' || b == ']' || b == '"' || b == '\n' || b == '\r' || b == ')' && r.calls > 0,
			commentAt(r.text, end) && (r.text[end+1] == '*' || end > start && isSpace(r.text[end-1])):
			break scan
		}
	}
	val := strings.TrimRight(r.text[start:end], " \t")
	if val == "" {
		return false, true
	}
	r.pos = end
	appendQuotedInPlace(&r.out, val)
	// A closing quote without its opening one, as in [a",b"].
	if r.pos < len(r.text) && r.text[r.pos] == '"' && endsString(r.text, r.pos+1, where) {
		r.pos++
		r.fixQuoted(noteStringOpeningQuote, start, r.text[start:r.pos], val)
		return true, true
	}
	r.fixQuoted(noteUnquotedWord, start, val, val)
	return true, true
}

// regexp repairs a JavaScript regular expression literal at r.pos,
// /pattern/flags, as a string holding its text: the pattern runs to a '/'
// that no backslash escapes and no [...] class holds, on one line, and
// the token must end after its flags. It reports false, having read
// nothing, for anything else, and for a pattern longer than
// maxRegexpLen: each '/' begins a scan, so the bound keeps a reply of
// many unclosed ones linear.
func (r *repairer) regexp() bool {
	start := r.pos
	i, class := start+1, false
	for ; i < len(r.text); i++ {
		c := r.text[i]
		if c == '\n' || c == '\r' || i-start > maxRegexpLen {
			return false
		}
		if c == '\\' {
			i++
			continue
		}
		if c == '[' {
			class = true
		} else if c == ']' {
			class = false
		} else if c == '/' && !class {
			break
		}
	}
	if i >= len(r.text) || i == start+1 {
		return false
	}
	i++
	for i < len(r.text) && r.text[i] >= 'a' && r.text[i] <= 'z' {
		i++
	}
	if i < len(r.text) && !isTokenEnd(r.text[i]) {
		return false
	}
	tok := r.text[start:i]
	r.pos = i
	r.fixQuoted(noteRegexp, start, tok, tok)
	appendQuotedInPlace(&r.out, tok)
	return true
}

// maxRegexpLen bounds the pattern of a regular expression literal
// [repairer.regexp] reads.
const maxRegexpLen = 512

// commentAt reports whether a // or /* comment starts at i.
func commentAt(text string, i int) bool {
	return text[i] == '/' && i+1 < len(text) && (text[i+1] == '/' || text[i+1] == '*')
}

// isTokenEnd reports a byte that ends a bare token.
func isTokenEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', '{', '[', '}', ']', '"', ':', '/', '#':
		return true
	}
	return false
}

// literal maps a bare token to a JSON literal, with the kind of fix made.
func literal(tok string) (lit string, kind FixKind, ok bool) {
	switch tok {
	case "true", "false", "null":
		return tok, "", true
	case "True", "TRUE":
		return "true", FixPythonLiteral, true
	case "False", "FALSE":
		return "false", FixPythonLiteral, true
	case "None", "undefined", "Null", "NULL":
		return "null", FixPythonLiteral, true
	case "NaN", "Infinity", "+Infinity", "-Infinity", "inf", "-inf", "nan":
		return "null", FixNonFinite, true
	}
	return "", "", false
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

// clipWord shortens a token quoted in a fix's detail.
func clipWord(s string) string {
	return clip.Ellipsis(s, 24)
}

// bareWord reads a value in a container that no other rule of
// [valueRules] reads ([repairer.word]).
func (r *repairer) bareWord(where role) (ok, applied bool) { return r.word(where), true }

// unquotedKey reads a key without quotes, a bare word, or with only its
// closing quote ({a":1}).
func (r *repairer) unquotedKey(role) (ok, applied bool) {
	start, end := r.pos, r.pos
	for end < len(r.text) && bareBytes[r.text[end]] {
		end++
	}
	r.pos = end
	if end == start {
		return false, true
	}
	// A bare key must be followed by its colon (after blanks, and after a
	// stray closing quote, as in {a":1}) or by a quoted string, its value
	// with the colon left out ({a 'b'}); anything else is not an object.
	key, at := r.text[start:end], len(r.written)
	if end < len(r.text) && r.text[end] == '"' {
		r.pos++
		r.fixQuoted(noteKeyOpeningQuote, start, r.text[start:r.pos], key)
	} else {
		r.fixQuoted(noteUnquotedKey, start, key, key)
	}
	next := r.pos
	for next < len(r.text) && isSpace(r.text[next]) {
		next++
	}
	if next == len(r.text) || r.text[next] != ':' && !quotedValueAt(r.text, next, &r.stops) {
		r.pos = next
		return false, true
	}
	// Either fix wrote the key quoted: the output copies it.
	r.out = append(r.out, r.written[at:]...)
	return true, true
}

// writeLiteral writes lit, the JSON literal the token tok at start stands
// for, recording the fix of its kind when it is not JSON's own ("").
func (r *repairer) writeLiteral(start int, tok, lit string, kind FixKind) {
	if kind != "" {
		r.fix(literalNote(kind), start, tok, lit)
	}
	r.out = append(r.out, lit...)
}
