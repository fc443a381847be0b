package extract

import (
	"strings"
	"unicode/utf8"
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
	pos     int
	out     []byte
	fixes   []fixRecord
	written []byte // what the fixes wrote (see [repairer.fix])
	kinds   []byte // open containers, '{' or '['
	reach   int    // how far reading got, also when it gave up
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
}

// reset prepares the repairer for text, keeping its buffers. The results
// of the previous run are overwritten.
func (r *repairer) reset(text string) {
	r.text, r.pos, r.reach, r.guesses, r.calls, r.early, r.badEscape = text, 0, 0, 0, 0, -1, -1
	r.noCalls = false
	r.out, r.fixes, r.written, r.kinds = r.out[:0], r.fixes[:0], r.written[:0], r.kinds[:0]
}

// run repairs the value starting at start. It returns the JSON (the
// repairer's buffer, valid until the next reset), the end of the value in
// the input, and false when the text cannot be read as a value.
func (r *repairer) run(start int) ([]byte, int, bool) {
	r.pos = start
	ok := r.value(roleTop) && !r.refused()
	r.reach = max(r.reach, r.pos)
	if !ok {
		return nil, 0, false
	}
	// The output is checked as a last line of defence: a candidate is
	// always valid JSON, whatever the input.
	if end, valid := r.v.value(string(r.out), 0); !valid || end != len(r.out) {
		return nil, 0, false
	}
	end := r.pos
	for end > start && isSpace(r.text[end-1]) {
		end--
	}
	return r.out, end, true
}

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

// value repairs one value at r.pos (after blanks).
func (r *repairer) value(where role) bool {
	r.skipBlanks()
	if r.eof() {
		return false
	}
	c := r.text[r.pos]
	switch {
	case c == '{':
		return r.object()
	case c == '[':
		return r.array()
	case c == '"' || c == '\'':
		return r.str(where)
	case c == '\\' && strings.HasPrefix(r.text[r.pos:], `\"`):
		return r.escapedStr() && (where != roleTop || r.restIsBlank())
	case c == '`' && !strings.HasPrefix(r.text[r.pos:], "``"):
		return r.str(where)
	case c == '(':
		if r.tuple() {
			return true
		}
	case c >= 0x80:
		if q := smartQuote(r.text[r.pos:]); q != "" {
			return r.str(where)
		}
	}
	if where == roleTop {
		return r.topScalar()
	}
	return r.word(where)
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
		mark, fmark := len(r.out), len(r.fixes)
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
		r.skipBlanks()
		if r.eof() {
			r.dropDanglingKey(mark, fmark, keyAt)
			return true
		}
		if c := r.text[r.pos]; c == '}' || c == ',' || c == ']' {
			r.fix(noteMissingValue, r.pos, "", "null")
			r.out = append(r.out, "null"...)
		} else if !r.value(roleValue) {
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
		if !r.value(roleElement) {
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

// between reads what may stand before the next item of the innermost open
// container, which closes with closer ('}' for an object, ']' for an
// array): blanks, commas, "..." placeholders, the end of the text or a
// closing bracket. count is the number of items read so far; *comma is the
// offset of a comma not yet followed by an item (-1 when there is none),
// kept up to date. It reports true when the container is closed (by its
// bracket, by another one, or because the text ended); otherwise r.pos is
// at the start of the next item.
func (r *repairer) between(closer byte, count int, comma *int) bool {
	noItem := noteCommaNoMember
	if closer == ']' {
		noItem = noteCommaNoElement
	}
	for {
		r.skipBlanks()
		if r.eof() {
			r.dropComma(*comma)
			r.fix(noteLeftOpen, r.pos, "", string(closer))
			r.out = append(r.out, closer)
			return true
		}
		switch c := r.text[r.pos]; {
		case r.pos == r.early:
			r.fix(noteBracketEarly, r.pos, "}", "")
			r.pos++
		case c == closer:
			r.dropComma(*comma)
			r.pos++
			r.out = append(r.out, closer)
			return true
		case c == '}' || c == ']':
			if r.closeMismatched(closer, *comma) {
				return true
			}
		case c == ',':
			if count == 0 || *comma >= 0 {
				r.fix(noItem, r.pos, ",", "")
			} else {
				*comma = r.pos
			}
			r.pos++
		case r.ellipsis():
		default:
			return false
		}
	}
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

// closeMismatched handles a closing bracket at r.pos that does not match the
// open container, which closes with want. When an enclosing container
// matches the bracket, the current one was left open: it is closed and the
// bracket left to its owner. Otherwise the bracket was mistyped and is
// replaced.
//
// It reports whether the container was closed; when not, the bracket was
// dropped and reading goes on.
func (r *repairer) closeMismatched(want byte, comma int) bool {
	got := r.text[r.pos]
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
			r.dropComma(comma)
			r.fix(noteBracketInserted, r.pos, "", string(want))
			r.out = append(r.out, want)
			return true
		}
	}
	if len(r.kinds) == 1 && followsComma(r.text, r.pos+1) && r.guess() {
		// [{...}}, {...}]: replacing the bracket would close the whole
		// value and leave the rest out; the second reading drops it.
		r.fix(noteBracketStray, r.pos, string(got), "")
		r.pos++
		return false
	}
	r.dropComma(comma)
	r.fix(noteBracketReplaced, r.pos, string(got), string(want))
	r.pos++
	r.out = append(r.out, want)
	return true
}

// ellipsis skips a "..." (or "…") placeholder at r.pos and reports whether
// there was one.
func (r *repairer) ellipsis() bool {
	rest := r.text[r.pos:]
	n := 0
	switch {
	case strings.HasPrefix(rest, "..."):
		n = 3
		for n < len(rest) && rest[n] == '.' {
			n++
		}
	case strings.HasPrefix(rest, "…"):
		n = len("…")
	default:
		return false
	}
	r.fix(noteEllipsis, r.pos, rest[:n], "")
	r.pos += n
	return true
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

// key repairs an object key: a string in any quotes, or a bare word.
func (r *repairer) key() bool {
	c := r.text[r.pos]
	if c == '"' || c == '\'' || c == '`' && !strings.HasPrefix(r.text[r.pos:], "``") || (c >= 0x80 && smartQuote(r.text[r.pos:]) != "") {
		return r.str(roleKey)
	}
	if c == '\\' && strings.HasPrefix(r.text[r.pos:], `\"`) {
		return r.escapedStr()
	}
	start := r.pos
	for !r.eof() && isBareByte(r.text[r.pos]) {
		r.pos++
	}
	end := r.pos
	if end == start {
		return false
	}
	// A bare key must be followed by its colon (after blanks, and after a
	// stray closing quote, as in {a":1}) or by a quoted string, its value
	// with the colon left out ({a 'b'}); anything else is not an object.
	if !r.eof() && r.text[r.pos] == '"' {
		r.pos++
		r.fixQuoted(noteKeyOpeningQuote, start, r.text[start:r.pos], r.text[start:end])
	} else {
		r.fixQuoted(noteUnquotedKey, start, r.text[start:end], r.text[start:end])
	}
	save := r.pos
	for !r.eof() && isSpace(r.text[r.pos]) {
		r.pos++
	}
	if r.eof() || r.text[r.pos] != ':' && !quotedValueAt(r.text, r.pos) {
		return false
	}
	r.pos = save
	r.out = appendQuoted(r.out, r.text[start:end])
	return true
}

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

// smartQuote returns the typographic quote at the start of s, or "". All of
// them are three bytes in UTF-8, E2 80 and one of six.
func smartQuote(s string) string {
	if len(s) < 3 || s[0] != 0xe2 || s[1] != 0x80 {
		return ""
	}
	switch s[2] {
	case 0x9c, 0x9d, 0x98, 0x99, 0x9e, 0x9a: // “ ” ‘ ’ „ ‚
		return s[:3]
	}
	return ""
}

// closersOf returns the quotes that may close a string opened with open
// (two, the same twice for straight quotes).
func closersOf(open string) [2]string {
	switch open {
	case `"`, "'":
		return [2]string{open, open}
	case "“", "”":
		return [2]string{"”", "“"}
	case "‘", "’":
		return [2]string{"’", "‘"}
	case "„":
		return [2]string{"“", "”"}
	case "`":
		return [2]string{"`", "´"}
	}
	return [2]string{"‘", "’"} // after ‚
}

// str repairs a string opened by a straight, single or typographic quote at
// r.pos. A quote that matches the opening one ends the string only when what
// follows it can follow a string; otherwise it is taken as a quote the model
// forgot to escape.
//
// A string holding a backslash that starts no JSON escape (C:\Users,
// \d+) was written with raw backslashes: every backslash in it is then
// literal, \n and \t included (C:\new\data), save \" and \\; so is
// every backslash of a string that starts with a drive (C:\users\u1).
func (r *repairer) str(where role) bool {
	start, mark, fmark := r.pos, len(r.out), len(r.fixes)
	open := 1
	if r.text[start] >= 0x80 {
		open = len(smartQuote(r.text[start:]))
	}
	drive := drivePath(r.text, start+open)
	r.badEscape, r.raw = -1, drive
	ok, cut := r.strUntil(where, -1)
	raw := drive || r.badEscape >= 0 && (cut < 0 || r.badEscape < cut)
	if ok && (cut >= 0 || raw && !drive) {
		// The string's closing quote was missing, or its backslashes are
		// raw: read it again, ending where it should have ended. This
		// happens once per string.
		r.pos, r.out = start, r.out[:mark]
		r.dropFixes(fmark)
		r.raw = raw
		ok, _ = r.strUntil(where, cut)
	}
	r.raw = false
	return ok
}

// strUntil reads the string at r.pos, ending it at stop when stop >= 0. It
// returns a cut >= 0 when the string turns out to have lost its closing
// quote and should end at the cut instead.
func (r *repairer) strUntil(where role, stop int) (ok bool, cut int) {
	start := r.pos
	open := r.text[r.pos : r.pos+1]
	if open[0] >= 0x80 {
		open = smartQuote(r.text[r.pos:])
	}
	switch open {
	case `"`:
	case "'":
		r.fix(noteSingleQuote, start, open, `"`)
	default:
		r.fix(noteSmartQuote, start, open, `"`)
	}
	closeWith := closersOf(open)
	r.pos += len(open)
	contentStart := r.pos
	r.out = append(r.out, '"')
	kept, firstKept := 0, -1 // quotes like the closing one read as content
	lineEnd := -1            // where in r.out the last raw line break went
	for {
		if stop >= 0 && r.pos >= stop {
			if q := matchAny(r.text[r.pos:], closeWith[:]); q != "" {
				// The second reading of a guess: this quote closes.
				r.pos += len(q)
				r.out = append(r.out, '"')
				return true, -1
			}
			r.fix(noteStringClosingQuote, r.pos, "", `"`)
			r.out = append(r.out, '"')
			return true, -1
		}
		if r.eof() {
			if c := r.oddQuotes(contentStart, kept, firstKept, stop); c >= 0 {
				return true, c
			}
			if c := missingQuoteAtEOF(r.text, contentStart, where); c >= 0 {
				if d := firstDelimiter(r.text, contentStart, c); d >= 0 && r.guess() {
					// "a, b] may be one string or two: the second reading
					// ends the string at the first delimiter.
					return true, d
				}
				return true, c
			}
			if where == roleTop && r.pos == contentStart {
				return false, -1 // a lone quote holds no value
			}
			r.dropLayout(lineEnd, r.pos)
			r.fix(noteStringLeftOpen, r.pos, "", `"`)
			r.out = append(r.out, '"')
			return true, -1
		}
		c := r.text[r.pos]
		if c >= 0x20 && c != '\\' && c != '"' && c != '\'' && c != '`' && c < 0x80 {
			r.out = append(r.out, c)
			r.pos++
			continue
		}
		if q := matchAny(r.text[r.pos:], closeWith[:]); q != "" {
			after := r.pos + len(q)
			if next := concatenation(r.text, after, open); next >= 0 {
				r.fix(noteConcatenation, r.pos, r.text[r.pos:next], "")
				r.pos = next
				continue
			}
			if endsString(r.text, after, where) || r.calls > 0 && closesCall(r.text, after) ||
				where == roleKey && literalAt(r.text, after) {
				if c := r.oddQuotes(contentStart, kept, firstKept, stop); c >= 0 {
					return true, c
				}
				r.dropLayout(lineEnd, r.pos)
				r.pos = after
				r.out = append(r.out, '"')
				return true, -1
			}
			if where == roleValue {
				if c := commaBeforeKey(r.text, contentStart, r.pos); c >= 0 {
					return true, c
				}
			}
			if c, ok := r.quoteGuess(where, contentStart, after); ok {
				return ok, c
			}
			if q == `"` {
				r.fix(noteEscapedQuote, r.pos, `"`, `\"`)
			}
			if kept++; firstKept < 0 {
				firstKept = r.pos
			}
			r.out = appendEscaped(r.out, q)
			r.pos = after
			continue
		}
		switch {
		case c == '"':
			r.out = append(r.out, '\\', '"')
			r.pos++
		case c == '\'':
			r.out = append(r.out, '\'')
			r.pos++
		case c == '\\':
			if !r.escape() {
				return false, -1
			}
		case c < 0x20:
			esc, ok := controlEscape(c)
			if !ok {
				return false, -1
			}
			if c == '\n' {
				lineEnd = len(r.out)
			}
			r.fix(noteRawControl, r.pos, r.text[r.pos:r.pos+1], esc)
			r.out = append(r.out, esc...)
			r.pos++
		default: // a multi-byte character
			_, n := utf8.DecodeRuneInString(r.text[r.pos:])
			r.out = append(r.out, r.text[r.pos:r.pos+n]...)
			r.pos += n
		}
	}
}

// missingQuoteAtEOF decides where a string the text ends inside should have
// ended, or returns -1 when it was simply cut off. A member value holding
// ", key:" ended at that comma ({"a": "first, b: 1}); a string whose tail is
// closing brackets ended before them ({"a": "b}).
func missingQuoteAtEOF(text string, contentStart int, where role) int {
	if where == roleValue {
		for i := len(text) - 1; i > contentStart; i-- {
			if text[i] != ':' {
				continue
			}
			if c := commaBeforeKey(text, contentStart, i+1); c >= 0 {
				return c
			}
		}
	}
	k := len(text)
	brackets := false
	for k > contentStart {
		b := text[k-1]
		if b == ']' || b == '}' {
			brackets = true
		} else if !isSpace(b) {
			break
		}
		k--
	}
	if !brackets {
		return -1
	}
	return k
}

// commaBeforeKey reports where a string that runs from contentStart to end
// should have ended when its text so far ends with a comma and blanks and
// the quote at end opens the next key ("a": "b,"c": 1), or with a comma, a
// bare key and a colon ("a": "b, c: "d").
// It returns the comma's offset, or -1. It reads back over one word only.
func commaBeforeKey(text string, contentStart, end int) int {
	k := end
	for k > contentStart && text[k-1] == ' ' {
		k--
	}
	if k > contentStart && text[k-1] == ',' {
		if end < len(text) && !quotedKeyAt(text, end) {
			return -1
		}
		return k - 1
	}
	if k <= contentStart || text[k-1] != ':' {
		return -1
	}
	k--
	for k > contentStart && text[k-1] == ' ' {
		k--
	}
	w := k
	for w > contentStart && isKeyWordByte(text[w-1]) {
		w--
	}
	if w == k {
		return -1
	}
	for w > contentStart && text[w-1] == ' ' {
		w--
	}
	if w > contentStart && text[w-1] == ',' {
		return w - 1
	}
	return -1
}

// quotedKeyAt reports whether a quoted key and its colon start at the
// quote at i, as in "id": 2. It reads to the end of the key only.
func quotedKeyAt(text string, i int) bool {
	j := closedOnLine(text, i)
	if j < 0 {
		return false
	}
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return j < len(text) && text[j] == ':'
}

// closedOnLine returns the offset after the quote that closes, on the same
// line, the string opened by the quote at i, or -1.
func closedOnLine(text string, i int) int {
	j := i + 1
	for j < len(text) && text[j] != '"' && text[j] != '\n' {
		j++
	}
	if j >= len(text) || text[j] != '"' {
		return -1
	}
	return j + 1
}

// isKeyWordByte reports a byte of a bare key seen inside a string.
func isKeyWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// endsString reports whether a quote just before at can close a string
// standing where the role says: what follows it (after blanks) is the end of the text, a delimiter,
// another quote or a comment; or, past a blank, something that can only
// start the next value, such as a number or a bracket (["a" 2]), or past a
// line break, a bare key and its colon. Anything else, as in "say "hi" now",
// makes the quote part of the string.
func endsString(text string, at int, where role) bool {
	start := at
	newline := false
	for at < len(text) && isSpace(text[at]) {
		newline = newline || text[at] == '\n'
		at++
	}
	if at >= len(text) {
		return true
	}
	switch c := text[at]; c {
	case ',', '}', ']', '"', '#', '\'':
		return true
	case ':':
		return where == roleKey || where == roleTop
	case '/':
		return at+1 < len(text) && (text[at+1] == '/' || text[at+1] == '*')
	case '{', '[', '-':
		return at > start
	default:
		if c >= '0' && c <= '9' {
			return at > start
		}
		if newline && where == roleValue && bareKeyAt(text, at) {
			return true
		}
	}
	return smartQuote(text[at:]) != ""
}

// bareKeyAt reports whether a bare key and its colon start at i.
func bareKeyAt(text string, i int) bool {
	j := i
	for j < len(text) && isKeyWordByte(text[j]) {
		j++
	}
	if j == i {
		return false
	}
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return j < len(text) && text[j] == ':'
}

// matchAny returns the element of qs that s starts with, or "".
func matchAny(s string, qs []string) string {
	for _, q := range qs {
		if strings.HasPrefix(s, q) {
			return q
		}
	}
	return ""
}

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

// skipBlanks skips whitespace, comments and the space characters JSON does
// not allow, recording what it dropped.
func (r *repairer) skipBlanks() {
	for !r.eof() {
		c := r.text[r.pos]
		switch {
		case isSpace(c):
			r.pos++
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

// appendQuoted appends s as a JSON string.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s)
	return append(dst, '"')
}

// appendEscaped appends s escaped for the inside of a JSON string.
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c < 0x20:
			const hex = "0123456789abcdef"
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
