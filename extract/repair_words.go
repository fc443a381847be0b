package extract

import (
	"strings"
)

// quotedValueAt reports whether a string in any quotes opens at i and
// closes on the same line, followed by the end of its member: a ',', a '}'
// or the end of the line. Followed by a ':', it is a key.
func quotedValueAt(text string, i int) bool {
	open := text[i : i+1]
	if open[0] >= 0x80 {
		if open = smartQuote(text[i:]); open == "" {
			return false
		}
	} else if open != `"` && open != "'" && open != "`" {
		return false
	}
	j := i + len(open)
	closers := closersOf(open)
	for j < len(text) && text[j] != '\n' {
		if q := matchAny(text[j:], closers[:]); q != "" {
			j += len(q)
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			return j == len(text) || text[j] == ',' || text[j] == '}' || text[j] == '\n' || text[j] == '\r'
		}
		j++
	}
	return false
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
	if num, ok := digitSeparators(tok); ok {
		r.pos = end
		r.fix(noteDigitSeparators, start, tok, num)
		r.out = append(r.out, num...)
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
	if num, changed, ok := number(tok); ok {
		r.pos = end
		if changed {
			r.fix(noteNumber, start, tok, num)
		}
		r.out = append(r.out, num...)
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
	r.out = appendQuoted(r.out, val)
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
	r.out = appendQuoted(r.out, tok)
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
	case "True", "False", "TRUE", "FALSE":
		return strings.ToLower(tok), FixPythonLiteral, true
	case "None", "undefined", "Null", "NULL":
		return "null", FixPythonLiteral, true
	case "NaN", "Infinity", "+Infinity", "-Infinity", "inf", "-inf", "nan":
		return "null", FixNonFinite, true
	}
	return "", "", false
}

// number reads tok as a number, JSON or a near miss (+1, .5, 1., 1e, a lone
// minus), and returns its JSON form and whether that differs.
func number(tok string) (string, bool, bool) {
	if tok == "" {
		return "", false, false
	}
	if tok[0] == '-' || tok[0] >= '0' && tok[0] <= '9' {
		if end, ok := scanNumber(tok, 0); ok && end == len(tok) {
			return tok, false, true
		}
	}
	i := 0
	neg := false
	if tok[0] == '+' || tok[0] == '-' {
		neg = tok[0] == '-'
		i++
	}
	intStart := i
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	intPart := tok[intStart:i]
	frac, hasFrac := "", false
	if i < len(tok) && tok[i] == '.' {
		hasFrac = true
		i++
		fs := i
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		frac = tok[fs:i]
	}
	exp := ""
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		if intPart == "" && frac == "" {
			return "", false, false
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
			exp = "e" + tok[es:i]
		}
	}
	if i != len(tok) {
		return "", false, false
	}
	if intPart == "" && frac == "" {
		if tok != "-" {
			return "", false, false
		}
		return "0", true, true
	}
	if len(intPart) > 1 && intPart[0] == '0' {
		// Leading zeros (0789) mark an identifier or a code, not a number:
		// the caller keeps the text as a string.
		return "", false, false
	}
	if intPart == "" {
		intPart = "0"
	}
	if hasFrac && frac == "" {
		frac = "0"
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(intPart)
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	b.WriteString(exp)
	return b.String(), true, true
}
