package extract

import (
	"strings"
)

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
	closers := closersOf(open)
	var q *quoteScan
	if qs != nil {
		q = qs.of(closers)
	}
	j := q.next(text, i+len(open), closers)
	if j >= len(text) || text[j] == '\n' {
		return false
	}
	j += len(matchAny(text[j:], closers[:]))
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

// word repairs a bare word in a container: a literal, a Python or JavaScript
// literal, a number in a form JSON lacks, or an unquoted string.
func (r *repairer) word(where role) bool {
	start := r.pos
	c := r.text[start]
	if c == '/' && !commentAt(r.text, start) {
		return r.regexp()
	}
	if c < 0x20 || c == ',' || c == ':' || c == '}' || c == ']' || c == '/' || c == '#' {
		return false
	}
	// The first token: up to a blank or a delimiter; a '/' that starts no
	// comment (1/3) is part of it.
	end := start
	for end < len(r.text) && (!isTokenEnd(r.text[end]) || r.text[end] == '/' && !commentAt(r.text, end)) &&
		!(r.calls > 0 && r.text[end] == ')') {
		if r.text[end] == '(' && isIdentifier(r.text[start:end]) {
			if r.call(where) {
				return true
			}
		}
		end++
	}
	tok := r.text[start:end]
	if c == '-' || c >= '0' && c <= '9' {
		if n, ok := scanNumber(tok, 0); ok && n == len(tok) {
			// A JSON number, the commonest word, as it stands.
			r.pos = end
			r.out = append(r.out, tok...)
			return true
		}
	}
	if r.digitSeparators(start, tok) {
		r.pos = end
		return true
	}
	if lit, kind, ok := literal(tok); ok {
		r.pos = end
		if kind != "" {
			r.fix(literalNote(kind), start, tok, lit)
		}
		r.out = append(r.out, lit...)
		return true
	}
	if num, ok := number(tok); ok {
		r.pos = end
		r.writeNumber(start, tok, num)
		return true
	}
	// An unquoted string runs to the next delimiter, line end or comment
	// (a // comment after a blank: https://x.org is a string). A bracket
	// glued to a word opens a part of the text (f{x}, a[0]) that runs to
	// its own closing bracket, commas and all.
	end = start
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
		return false
	}
	r.pos = end
	appendQuotedInPlace(&r.out, val)
	// A closing quote without its opening one, as in [a",b"].
	if r.pos < len(r.text) && r.text[r.pos] == '"' && endsString(r.text, r.pos+1, where) {
		r.pos++
		r.fixQuoted(noteStringOpeningQuote, start, r.text[start:r.pos], val)
		return true
	}
	r.fixQuoted(noteUnquotedWord, start, val, val)
	return true
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

// A numberForm is a number as [number] reads it: its JSON form is made of
// parts of the token, so that reading one allocates nothing.
type numberForm struct {
	changed bool   // the JSON form differs from the token
	neg     bool   // a minus sign
	intPart string // the integer digits, "" for 0
	frac    string // the fraction's digits; "" with no point
	hasFrac bool   // a point, followed by digits or not (2.)
	exp     string // the exponent after its 'e', sign included; "" for none
}

// appendJSON appends the number's JSON form to dst.
func (n numberForm) appendJSON(dst []byte) []byte {
	if n.neg {
		dst = append(dst, '-')
	}
	if n.intPart == "" {
		dst = append(dst, '0')
	}
	dst = append(dst, n.intPart...)
	if n.hasFrac {
		dst = append(dst, '.')
		if n.frac == "" {
			dst = append(dst, '0')
		}
		dst = append(dst, n.frac...)
	}
	if n.exp != "" {
		dst = append(dst, 'e')
		dst = append(dst, n.exp...)
	}
	return dst
}

// writeNumber writes the number num, read from tok at offset start, to
// the output, recording a fix when its form changed.
func (r *repairer) writeNumber(start int, tok string, num numberForm) {
	if !num.changed {
		r.out = append(r.out, tok...)
		return
	}
	at := len(r.written)
	r.record(noteNumber, start, len(tok))
	r.written = num.appendJSON(room(r.written, len(tok)+2))
	r.out = append(r.out, r.written[at:]...)
}

// number reads tok as a number, JSON or a near miss (+1, .5, 1., 1e, a lone
// minus), and returns its form, whose changed says whether its JSON form
// differs from tok.
func number(tok string) (numberForm, bool) {
	if tok == "" {
		return numberForm{}, false
	}
	if tok[0] == '-' || tok[0] >= '0' && tok[0] <= '9' {
		if end, ok := scanNumber(tok, 0); ok && end == len(tok) {
			return numberForm{}, true
		}
	}
	i := 0
	var n numberForm
	if tok[0] == '+' || tok[0] == '-' {
		n.neg = tok[0] == '-'
		i++
	}
	intStart := i
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	n.intPart = tok[intStart:i]
	if i < len(tok) && tok[i] == '.' {
		n.hasFrac = true
		i++
		fs := i
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		n.frac = tok[fs:i]
	}
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		if n.intPart == "" && n.frac == "" {
			return numberForm{}, false
		}
		i++
		es := i
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			i++
		}
		ds := i
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		if i > ds {
			n.exp = tok[es:i]
		}
	}
	if i != len(tok) {
		return numberForm{}, false
	}
	if n.intPart == "" && n.frac == "" {
		if tok != "-" {
			return numberForm{}, false
		}
		return numberForm{changed: true}, true // a lone minus: 0
	}
	if len(n.intPart) > 1 && n.intPart[0] == '0' {
		// Leading zeros (0789) mark an identifier or a code, not a number:
		// the caller keeps the text as a string.
		return numberForm{}, false
	}
	n.changed = true
	return n, true
}
