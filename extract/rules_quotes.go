package extract

import (
	"strings"
	"unicode/utf8"
)

// This file holds the string reader and its repair rules: strings in
// single, typographic or back quotes, quotes inside a string, a missing
// opening or closing quote, strings joined with +, and layout before a
// closing quote.

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
// (two, the same twice for straight quotes). It tells the quotes apart by
// their bytes: a straight one is one byte, a typographic one three, E2
// 80 and one of six (see [smartQuote]).
func closersOf(open string) [2]string {
	switch {
	case len(open) == 1:
		switch open[0] {
		case '"', '\'':
			return [2]string{open, open}
		case '`':
			return [2]string{"`", "´"}
		}
	case len(open) == 3 && open[0] == 0xe2 && open[1] == 0x80:
		switch open[2] {
		case 0x9c, 0x9d: // “ ”
			return [2]string{"”", "“"}
		case 0x98, 0x99: // ‘ ’
			return [2]string{"’", "‘"}
		case 0x9e: // „
			return [2]string{"“", "”"}
		}
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
	r.roomy()
	start, mark, fmark := r.pos, len(r.out), r.fixes.len()
	open := 1
	if r.text[start] >= 0x80 {
		open = len(smartQuote(r.text[start:]))
	}
	drive := drivePath(r.text, start+open)
	r.badEscape, r.raw = -1, drive
	if !drive && r.plainString(where, open) {
		return true
	}
	ok, cut := r.strUntil(where, -1)
	raw := drive || r.badEscape >= 0 && (cut < 0 || r.badEscape < cut)
	if ok && (cut >= 0 || raw && !drive) {
		// The string's closing quote was missing, or its backslashes are
		// raw: read it again, ending where it should have ended. This
		// happens once per string, but a string the text ends inside may
		// be cut short by a guess, and the next one run to the end
		// again: what is read twice is bounded (see [repairer.reread]).
		if !r.reread(start) {
			return false
		}
		r.out = r.out[:mark]
		r.dropFixes(fmark)
		r.raw = raw
		ok, _ = r.strUntil(where, cut)
	}
	r.raw = false
	return ok
}

// plainString reads at once, as [repairer.strUntil] would, a string of
// open bytes of quote at r.pos whose text is plain (see [plainInRepair])
// and whose closing quote is followed by the end of the text or by what
// ends a string wherever it stands: a ',', '}' or ']', or the ':' after a
// key. None of strUntil's rules but its quotes' applies to it. It reports
// false, having read nothing, for any other string.
func (r *repairer) plainString(where role, open int) bool {
	text, start := r.text, r.pos
	from := start + open
	end := from
	for end < len(text) && plainInRepair[text[end]] {
		end++
	}
	if end == len(text) {
		return false
	}
	c, after := text[start], end+1
	if c == '"' || c == '\'' {
		if text[end] != c {
			return false
		}
	} else if n := closerAt(text, end, text[start:from]); n > 0 {
		after = end + n
	} else {
		return false
	}
	if after < len(text) {
		switch text[after] {
		case ',', '}', ']':
		case ':':
			if where != roleKey && where != roleTop {
				return false
			}
		default:
			return false
		}
	}
	if c != '"' {
		n := noteSmartQuote
		if c == '\'' {
			n = noteSingleQuote
		}
		r.fix(n, start, text[start:from], `"`)
	}
	r.out = append(r.out, '"')
	r.out = append(r.out, text[from:end]...)
	r.out = append(r.out, '"')
	r.pos = after
	return true
}

// closerAt returns the length of the quote at j that closes a string
// opened by quote, or 0.
func closerAt(text string, j int, quote string) int {
	closers := closersOf(quote)
	return len(matchAny(text[j:], closers[:]))
}

// strUntil reads the string at r.pos, ending it at stop when stop >= 0. It
// returns a cut >= 0 when the string turns out to have lost its closing
// quote and should end at the cut instead.
func (r *repairer) strUntil(where role, stop int) (ok bool, cut int) {
	start := r.pos
	open := r.text[r.pos : r.pos+1]
	var closeWith [2]string
	switch open[0] {
	case '"':
		closeWith = [2]string{open, open}
	case '\'':
		r.fix(noteSingleQuote, start, open, `"`)
		closeWith = [2]string{open, open}
	default:
		if open[0] >= 0x80 {
			open = smartQuote(r.text[r.pos:])
		}
		r.fix(noteSmartQuote, start, open, `"`)
		closeWith = closersOf(open)
	}
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
			if c := missingQuoteAtEOF(r.text, contentStart, where, r.stops.of(dquotes)); c >= 0 {
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
		if plainInRepair[c] {
			// A run of bytes no rule looks at is copied at once.
			end := len(r.text)
			if stop >= 0 {
				end = stop
			}
			j := r.pos + 1
			for j < end && plainInRepair[r.text[j]] {
				j++
			}
			r.out = append(r.out, r.text[r.pos:j]...)
			r.pos = j
			continue
		}
		q := ""
		if c == closeWith[0][0] || c == closeWith[1][0] {
			// Only a byte a closer starts with may start one.
			q = matchAny(r.text[r.pos:], closeWith[:])
		}
		if q != "" {
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
				if c := commaBeforeKey(r.text, contentStart, r.pos, r.stops.of(dquotes)); c >= 0 {
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

// plainInRepair marks the bytes [repairer.strUntil] copies as they are:
// printable ASCII but for quotes and the backslash (a read-only table).
var plainInRepair = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = true
	}
	t['\\'], t['"'], t['\''], t['`'] = false, false, false, false
	return t
}()

// missingQuoteAtEOF decides where a string the text ends inside should have
// ended, or returns -1 when it was simply cut off. A member value holding
// ", key:" ended at that comma ({"a": "first, b: 1}); a string whose tail is
// closing brackets ended before them ({"a": "b}).
func missingQuoteAtEOF(text string, contentStart int, where role, q *quoteScan) int {
	if where == roleValue {
		for i := len(text) - 1; i > contentStart; i-- {
			if text[i] != ':' {
				continue
			}
			if c := commaBeforeKey(text, contentStart, i+1, q); c >= 0 {
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
func commaBeforeKey(text string, contentStart, end int, q *quoteScan) int {
	k := end
	for k > contentStart && text[k-1] == ' ' {
		k--
	}
	if k > contentStart && text[k-1] == ',' {
		if end < len(text) && !quotedKeyAt(text, end, q) {
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
// quote at i, as in "id": 2. It reads to the end of the key only. q, if
// not nil, remembers the search for the key's end (see [quoteScan]).
func quotedKeyAt(text string, i int, q *quoteScan) bool {
	j := closedOnLine(text, i, q)
	if j < 0 {
		return false
	}
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return j < len(text) && text[j] == ':'
}

// closedOnLine returns the offset after the quote that closes, on the same
// line, the string opened by the quote at i, or -1. q, if not nil,
// remembers the search (see [quoteScan]).
func closedOnLine(text string, i int, q *quoteScan) int {
	j := q.next(text, i+1, dquotes)
	if j >= len(text) || text[j] != '"' {
		return -1
	}
	return j + 1
}

// A quoteScan remembers the last search of a text for the next line
// break or closing quote of one kind, for [closedOnLine] and
// [quotedValueAt]: they run at quotes, and where the text holds no such
// quote each search would read to the same far line end again. The
// texts searched must be prefixes of one text: one is told from another
// by its length. The zero value holds nothing; a nil *quoteScan
// remembers nothing.
type quoteScan struct {
	valid    bool
	n        int // the length of the text searched
	from, at int // text[from:at] holds neither; at is one's offset, or n
}

// next returns the offset of the first '\n' in text from j, or of the
// first of closers, or len(text).
func (q *quoteScan) next(text string, j int, closers [2]string) int {
	if q != nil && q.valid && q.n == len(text) && q.from <= j && j <= q.at {
		return q.at
	}
	k := j
	if closers[0] == `"` {
		for k < len(text) && text[k] != '"' && text[k] != '\n' {
			k++
		}
	} else {
		// Only a byte a closer starts with may start one.
		a, b := closers[0][0], closers[1][0]
		for k < len(text) && text[k] != '\n' && (text[k] != a && text[k] != b || matchAny(text[k:], closers[:]) == "") {
			k++
		}
	}
	if q != nil {
		*q = quoteScan{valid: true, n: len(text), from: j, at: k}
	}
	return k
}

// dquotes are the closers of a string in '"'.
var dquotes = [2]string{`"`, `"`}

// quoteScans holds a quoteScan for each kind of closing quote: a search
// for one kind does not forget the others'.
type quoteScans [8]quoteScan

// of returns the quoteScan for strings closed by closers, told apart by
// the first closer's bytes, as [closersOf] tells the quotes.
func (qs *quoteScans) of(closers [2]string) *quoteScan {
	i := 7
	switch c := closers[0]; {
	case len(c) == 1:
		switch c[0] {
		case '"':
			i = 0
		case '\'':
			i = 1
		case '`':
			i = 2
		}
	case len(c) == 3 && c[0] == 0xe2 && c[1] == 0x80:
		switch c[2] {
		case 0x9d: // ”
			i = 3
		case 0x9c: // “
			i = 4
		case 0x99: // ’
			i = 5
		case 0x98: // ‘
			i = 6
		}
	}
	return &qs[i]
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
		if hasQuote(s, q) {
			return q
		}
	}
	return ""
}

// hasQuote reports whether s starts with the quote q, as
// [strings.HasPrefix] does, comparing the bytes of a quote (one to three)
// one by one rather than by a call.
func hasQuote(s, q string) bool {
	switch len(q) {
	case 1:
		return len(s) >= 1 && s[0] == q[0]
	case 2:
		return len(s) >= 2 && s[0] == q[0] && s[1] == q[1]
	case 3:
		return len(s) >= 3 && s[0] == q[0] && s[1] == q[1] && s[2] == q[2]
	}
	return strings.HasPrefix(s, q)
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

// doubleQuoted reads a string in double quotes, JSON's own, repairing
// what it holds ([repairer.str]).
func (r *repairer) doubleQuoted(where role) (ok, applied bool) { return r.str(where), true }

// singleQuoted reads a string in single quotes as one in double quotes.
func (r *repairer) singleQuoted(where role) (ok, applied bool) { return r.str(where), true }

// backtick reads a string in backticks as one in double quotes; two
// backticks open a code span or fence, not a string.
func (r *repairer) backtick(where role) (ok, applied bool) {
	if strings.HasPrefix(r.text[r.pos:], "``") {
		return false, false
	}
	return r.str(where), true
}

// smartQuoted reads a string in typographic quotes as one in double
// quotes.
func (r *repairer) smartQuoted(where role) (ok, applied bool) {
	if smartQuote(r.text[r.pos:]) == "" {
		return false, false
	}
	return r.str(where), true
}
