package extract

import (
	"strings"
)

// This file holds the repair rules that read a shape around a value
// rather than inside one: a reply that is one bare token or plain words,
// and a value wrapped in a function call or followed by a ';'.

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
		r.writeLiteral(start, tok, lit, kind)
		return true
	}
	var num numberForm
	if number(tok, &num) {
		r.pos = end
		if !r.restIsBlank() {
			return r.prose(start)
		}
		if tok == "-" && !r.guess() {
			return false // a lone minus is a dash as much as a number
		}
		r.writeNumber(start, tok, &num)
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

// callWord reads a value wrapped in a function call ([repairer.call]):
// a bare word whose first token holds a '(' after a name.
func (r *repairer) callWord(where role, w *bareToken) (ok, applied bool) {
	if w.paren < 0 || !isIdentifier(r.text[w.start:w.paren]) || !r.call(where) {
		return false, false
	}
	return true, true
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

// bareReply reads a whole reply that no other rule of [valueRules] reads
// ([repairer.topScalar]).
func (r *repairer) bareReply(role) (ok, applied bool) { return r.topScalar(), true }
