package extract

import (
	"strings"

	"github.com/agentio/agentio/internal/clip"
)

// This file holds the repair rules that read a shape around a value
// rather than inside one: a reply that is a bare scalar, a list of values
// without its brackets, a value wrapped in a function call, strings joined
// with +, and numbers with digit separators. Each is a small function the
// repairer calls at one place; the package documentation lists them all.

// topScalar repairs a reply that is one bare token, at r.pos: a literal
// of Python or JavaScript (True, None, undefined, NaN), a number in a form
// JSON lacks (2., .5, 1e, 1_000), or a value wrapped in a function call
// (callback(...), NumberLong("2")). The token must fill the rest of the
// text, up to blanks and a final ';' or trailing commas. Any other word is
// prose: it is read as a string only as a guess (see [repairer.guess]),
// which a caller's validator must confirm.
func (r *repairer) topScalar() bool {
	start := r.pos
	end := start
	for end < len(r.text) && !isTokenEnd(r.text[end]) && r.text[end] != '(' && r.text[end] != ';' {
		end++
	}
	if end > start && end < len(r.text) && r.text[end] == '(' && isIdentifier(r.text[start:end]) {
		if r.call(roleTop) && r.restIsBlank() {
			return true
		}
		return r.prose(start)
	}
	tok := r.text[start:end]
	if lit, kind, ok := literal(tok); ok {
		r.pos = end
		if !r.restIsBlank() {
			return r.prose(start)
		}
		if kind == FixPythonLiteral && tok != "undefined" && !r.guess() {
			// A reply that is only True or None may be the word, not the
			// literal; the suites disagree, a schema can tell.
			return false
		}
		if kind != "" {
			r.fix(literalNote(kind), start, tok, lit)
		}
		r.out = append(r.out, lit...)
		return true
	}
	if num, ok := number(tok); ok {
		r.pos = end
		if !r.restIsBlank() {
			return r.prose(start)
		}
		if tok == "-" && !r.guess() {
			return false // a lone minus is a dash as much as a number
		}
		r.writeNumber(start, tok, num)
		return true
	}
	if numberLike(tok) {
		r.pos = end
		if r.restIsBlank() {
			r.fixQuoted(noteNumberLike, start, tok, tok)
			r.out = appendQuoted(r.out, tok)
			return true
		}
	}
	return r.prose(start)
}

// numberLike reports a token that starts like a number but is not one
// JSON or repair can read (0789, 0.0.1, a UUID): a code or an
// identifier, kept as text.
func numberLike(tok string) bool {
	t := strings.TrimPrefix(tok, "-")
	return t != "" && isDigit(t[0])
}

// restIsBlank reports whether only blanks, comments, a ';' and trailing
// commas follow r.pos, recording the commas and the ';' it drops.
func (r *repairer) restIsBlank() bool {
	for {
		r.skipBlanks()
		if r.eof() {
			return true
		}
		switch r.text[r.pos] {
		case ',':
			r.fix(noteTrailingComma, r.pos, ",", "")
		case ';':
			r.fix(noteSemicolon, r.pos, ";", "")
		default:
			return false
		}
		r.pos++
	}
}

// prose reads the text from start to its end as one string, as a guess:
// a reply in plain words is prose, a string only when the caller's
// validator says a string is what it wants.
func (r *repairer) prose(start int) bool {
	if !r.guess() {
		return false
	}
	r.out = r.out[:0]
	val := strings.TrimRight(r.text[start:], " \t\r\n")
	if strings.IndexByte(val, '\n') >= 0 {
		return false // several lines of prose are not one value
	}
	r.fixQuoted(noteProse, start, val, val)
	r.out = appendQuoted(r.out, val)
	r.pos = len(r.text)
	return true
}

// call repairs a value wrapped in a function call at r.pos, such as a
// JSONP callback(...) or MongoDB's ObjectId("..."), NumberLong(2): the
// name and parentheses are dropped and the argument kept. It reports
// false, having read nothing, when the call does not hold one value.
func (r *repairer) call(where role) bool {
	if r.calls >= maxCalls || r.noCalls {
		return false
	}
	start, mark, fmark := r.pos, len(r.out), r.fixes.len()
	open := strings.IndexByte(r.text[start:], '(')
	r.pos = start + open + 1
	r.skipBlanks()
	r.calls++
	ok := !r.eof() && r.text[r.pos] != ')' && r.value(roleElement)
	r.calls--
	if ok {
		r.skipBlanks()
		ok = !r.eof() && r.text[r.pos] == ')'
	}
	if !ok {
		r.pos, r.out = start, r.out[:mark]
		r.dropFixes(fmark)
		r.noCalls = true
		return false
	}
	r.pos++
	r.fix(noteCall, start, r.text[start:start+open+1], "")
	return true
}

// closesCall reports whether blanks and a ')' follow at.
func closesCall(text string, at int) bool {
	for at < len(text) && isSpace(text[at]) {
		at++
	}
	return at < len(text) && text[at] == ')'
}

// maxCalls bounds how many function calls and tuples may nest. A call or
// tuple that fails is read again as text by each enclosing one; so that no
// text is read more than maxCalls times, a failed one also stops the
// repairer trying others (noCalls). Models nest them a few levels at most.
const maxCalls = 16

// isIdentifier reports whether s is a name a function call may have.
func isIdentifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '-' || !isKeyWordByte(c) && c != '.' && c != '$' {
			return false
		}
	}
	return true
}

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

// concatenation reports where the next string starts when the quote just
// before at closes a string joined to another with + ("a" + "b"), or -1.
// Blanks and comments may stand around the +.
func concatenation(text string, at int, quote string) int {
	if at >= len(text) || text[at] != '+' && text[at] != '/' && !isSpace(text[at]) {
		return -1 // neither a '+' nor what may stand before one
	}
	// Only a short stretch is read: this runs at every quote inside a
	// string, and must not read the same text again at each.
	text = text[:min(len(text), at+concatWindow)]
	i := skipSpaceAndComments(text, at)
	if i >= len(text) || text[i] != '+' {
		return -1
	}
	i = skipSpaceAndComments(text, i+1)
	if !strings.HasPrefix(text[i:], quote) {
		return -1
	}
	return i + len(quote)
}

// concatWindow is how far past a closing quote concatenation looks for a
// '+' and the next string, comments included.
const concatWindow = 256

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

// literalAt reports whether, after blanks from i, a literal or a plain
// number stands alone up to a ',' '}' or ']' or the end of the text, as
// the true of {"a" true}. It runs at quotes inside strings, so it reads
// no further than a token can be either: a token longer than every
// literal that holds a byte no number has is neither.
func literalAt(text string, i int) bool {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	j := i
	numeric := true
	for j < len(text) && !isTokenEnd(text[j]) {
		numeric = numeric && isNumberByte(text[j])
		if !numeric && j-i >= maxLiteralLen {
			return false
		}
		j++
	}
	if j == i {
		return false
	}
	tok := text[i:j]
	if _, _, ok := literal(tok); !ok {
		if end, ok := scanNumber(tok, 0); !ok || end != len(tok) {
			return false
		}
	}
	for j < len(text) && isSpace(text[j]) {
		j++
	}
	return j == len(text) || text[j] == ',' || text[j] == '}' || text[j] == ']'
}

// maxLiteralLen is the length of the longest token [literal] reads.
const maxLiteralLen = len("+Infinity")

// isNumberByte reports a byte a JSON number may hold.
func isNumberByte(c byte) bool {
	return isDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// quotedElementAt reports whether the quote at i opens a string that
// closes on the same line and is followed by a ',' or ']' (or the end of
// the text): an element of its own, as the "def" of ["abc,"def"].
func quotedElementAt(text string, i int, q *quoteScan) bool {
	j := closedOnLine(text, i, q)
	if j < 0 {
		return false
	}
	for j < len(text) && isSpace(text[j]) {
		j++
	}
	return j == len(text) || text[j] == ',' || text[j] == ']'
}

// commaEnds reports the offset of the comma the text from contentStart to
// end finishes with, blanks aside, or -1.
func commaEnds(text string, contentStart, end int) int {
	k := end
	for k > contentStart && isSpace(text[k-1]) {
		k--
	}
	if k > contentStart && text[k-1] == ',' {
		return k - 1
	}
	return -1
}

// firstDelimiter returns the first ',' '}' or ']' in text[from:to], or -1.
func firstDelimiter(text string, from, to int) int {
	if i := strings.IndexAny(text[from:to], ",}]"); i >= 0 {
		return from + i
	}
	return -1
}

// digitSeparators reads tok, at offset start, as a number written with _
// between digits (1_000, 1_234.5_6) and writes it without them, recording
// the fix. It reports false, having written nothing, for anything else.
func (r *repairer) digitSeparators(start int, tok string) bool {
	if strings.IndexByte(tok, '_') < 0 {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] != '_' {
			continue
		}
		if i == 0 || i == len(tok)-1 || !isDigit(tok[i-1]) || !isDigit(tok[i+1]) {
			return false
		}
	}
	at := len(r.written)
	r.written = room(r.written, len(tok))
	for i := 0; i < len(tok); i++ {
		if tok[i] != '_' {
			r.written = append(r.written, tok[i])
		}
	}
	plain := stringView(r.written[at:])
	if end, ok := scanNumber(plain, 0); !ok || end != len(plain) {
		r.written = r.written[:at]
		return false
	}
	r.fixes.push(noteDigitSeparators, start, len(tok), at)
	r.out = append(r.out, plain...)
	return true
}

// isDigit reports an ASCII digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// clipWord shortens a token quoted in a fix's detail.
func clipWord(s string) string {
	return clip.Ellipsis(s, 24)
}

// quoteGuess weighs a quote inside a string that the string's own rules
// keep as content (it is followed by neither a delimiter nor the next
// item), at a place where ending the string there is as plausible:
//
//   - in an array, after a comma, when the quote opens a string that is an
//     element of its own: ["abc,"def"] may be one string or two;
//   - in a member's value, when a lone literal or number follows the
//     quote: {"b": "x" true} may hold "x\" true" or "x" and a stray word.
//
// Either way the repair is a guess (see [repairer.guess]). The second
// reading ends the string at the comma, or at the quote. ok is false when
// the quote is not such a place or the first reading is kept.
func (r *repairer) quoteGuess(where role, contentStart, after int) (cut int, ok bool) {
	quote := after - 1
	if where == roleElement || where == roleTop {
		if c := commaEnds(r.text, contentStart, quote); c >= 0 && quotedElementAt(r.text, quote, r.stops.of(dquotes)) {
			if r.guess() {
				return c, true
			}
			return 0, false
		}
	}
	switch where {
	case roleElement:
		if after < len(r.text) && r.text[after] == ':' {
			// ["key":"value"] may be an object without its braces.
			if r.guess() {
				return quote, true
			}
		}
	case roleValue:
		if !literalAt(r.text, after) {
			return 0, false
		}
		if r.guess() {
			return quote, true
		}
	}
	return 0, false
}

// oddQuotes weighs a string, about to close, that holds quotes like its
// closing one read as content: in pairs ("say "hi" now") they quote a
// word, and one glued to a word ("v"alue", 24" screen, it's) or answering
// a typographic opening quote („word") is part of the text. Any other odd
// one ("value1" value2") may as well have closed the string early, before
// a word the model forgot to quote. That is a guess (see
// [repairer.guess]) whose second reading ends the string at the first
// such quote. It returns that quote's offset for the second reading,
// else -1.
func (r *repairer) oddQuotes(contentStart, kept, firstKept, stop int) int {
	if stop >= 0 || kept%2 == 0 {
		return -1 // small enough to be inlined at every closing quote
	}
	return r.oddQuote(contentStart, firstKept)
}

// oddQuote is [repairer.oddQuotes] for an odd count of quotes kept, the
// first at firstKept, in a first reading.
func (r *repairer) oddQuote(contentStart, firstKept int) int {
	if r.text[contentStart-1] == '\'' {
		return -1 // in single quotes, a kept quote is an apostrophe
	}
	if n := firstKept + 1; n < len(r.text) && (isKeyWordByte(r.text[n]) || r.text[n] >= 0x80) {
		return -1
	}
	if firstKept > contentStart && isDigit(r.text[firstKept-1]) {
		return -1
	}
	if strings.Contains(r.text[contentStart:firstKept], "„") || strings.Contains(r.text[contentStart:firstKept], "“") {
		return -1
	}
	if r.guess() {
		return firstKept
	}
	return -1
}

// dropLayout removes a raw line break and the indentation after it from
// the end of a string about to close at quote ("text\n  "): the model
// put the closing quote on a line of its own, and the break is layout,
// not content. lineEnd is where in r.out the last raw line break was
// written, or -1.
func (r *repairer) dropLayout(lineEnd, quote int) {
	if lineEnd >= 0 { // small enough to be inlined at every closing quote
		r.dropLayoutAt(lineEnd, quote)
	}
}

// dropLayoutAt is [repairer.dropLayout] once a raw line break was
// written.
func (r *repairer) dropLayoutAt(lineEnd, quote int) {
	k := quote
	for k > 0 && (r.text[k-1] == ' ' || r.text[k-1] == '\t' || r.text[k-1] == '\r') {
		k--
	}
	if k == 0 || r.text[k-1] != '\n' {
		return
	}
	r.out = r.out[:lineEnd]
	// The break was escaped as it was read; it is dropped instead.
	n := r.fixes.len()
	for n > 0 && r.fixes.at(n-1).offset() >= k-1 {
		n--
	}
	r.dropFixes(n)
	r.fix(noteLayoutBreak, k-1, r.text[k-1:quote], "")
}

// tuple repairs a parenthesised value at r.pos, as Python writes tuples:
// (1, 2) becomes [1, 2], () becomes [] and (1) becomes 1. Its elements
// must be values, not bare words: "(see below)" is text, which the caller
// reads as such. It reports false, having written nothing, otherwise.
func (r *repairer) tuple() bool {
	if len(r.kinds) >= maxDepth || r.calls >= maxCalls || r.noCalls {
		return false
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
		return false
	}
	r.pos++ // the ')'
	if items == 1 && !comma {
		r.out = append(r.out[:mark], r.out[mark+1:]...)
		r.fix(noteParentheses, start, "(", "")
		return true
	}
	r.out = append(r.out, ']')
	r.fix(noteTuple, start, "(", "[")
	return true
}

// followsComma reports whether a ',' comes after blanks from i.
func followsComma(text string, i int) bool {
	for i < len(text) && isSpace(text[i]) {
		i++
	}
	return i < len(text) && text[i] == ','
}
