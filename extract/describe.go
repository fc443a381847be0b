package extract

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentio/agentio/internal/clip"
)

// snippetLen is how many bytes of the reply an error quotes, at most.
const snippetLen = 40

// noJSON builds the error for a reply without an acceptable value, saying
// what the reply held instead, in words fit to show the model.
func (f *finder) noJSON() error {
	what := "JSON value"
	if f.cfg.objectsOnly {
		what = "JSON object"
	}
	if f.sideBySide {
		return &ReplyError{
			Err:         ErrNoJSON,
			Description: "the reply holds several JSON values side by side; it should hold one",
			Offset:      -1,
		}
	}
	if fl, ok := f.worstFailure(); ok {
		return &ReplyError{
			Err:         ErrNoJSON,
			Description: fmt.Sprintf("the %s at byte %d does not parse: %s", what, fl.start, f.stopReason(fl)),
			Offset:      fl.stop,
		}
	}
	if f.unterminated {
		return &ReplyError{
			Err:         ErrNoJSON,
			Description: fmt.Sprintf("no %s found; the reply ended inside an unclosed reasoning block", what),
			Offset:      len(f.text),
		}
	}
	s, e := 0, 0
	for _, seg := range f.segs {
		if s, e = trimSpan(f.text, seg); s < e {
			break
		}
	}
	if s == e {
		if !blankText(f.text) {
			return &ReplyError{Err: ErrNoJSON, Description: fmt.Sprintf("no %s found; the reply held nothing but reasoning", what), Offset: -1}
		}
		return &ReplyError{Err: ErrNoJSON, Description: fmt.Sprintf("no %s found; the reply was empty", what), Offset: -1}
	}
	return &ReplyError{
		Err:         ErrNoJSON,
		Description: fmt.Sprintf("no %s found; the reply began with %q", what, head(f.text[s:e])),
		Offset:      -1,
	}
}

// worstFailure picks the failure to tell the model about: a json fence
// first, then another fence, then a whole reply, then the scanned value that
// looked most like JSON.
func (f *finder) worstFailure() (failure, bool) {
	best, found := f.scanFail, f.hasScanFail
	for _, fl := range f.failures {
		if !fl.quiet && (!found || fl.tier < best.tier) {
			best, found = fl, true
		}
	}
	return best, found
}

// looksLikeJSON reports whether the container opening at start continues
// the way JSON, or a near miss of it, would: a key (quoted in any quotes) or
// a closing brace for an object, a value or a closing bracket for an array.
// Prose like "{curly}" does not.
func (f *finder) looksLikeJSON(start, limit int) bool {
	i := start + 1
	for i < limit && isSpace(f.text[i]) {
		i++
	}
	if i >= limit {
		return true
	}
	c := f.text[i]
	if f.text[start] == '{' {
		return c == '"' || c == '\'' || c == '}' || smartQuote(f.text[i:limit]) != ""
	}
	return strings.IndexByte("\"'{[]-0123456789tfn", c) >= 0
}

// stopReason says where and why strict parsing of a failure stopped, with
// the text just before that point and, for common mistakes, what to do.
func (f *finder) stopReason(fl failure) string {
	if fl.stop >= fl.limit {
		return "the text ends before the value is complete (the reply may have been cut off)"
	}
	r, _ := utf8.DecodeRuneInString(f.text[fl.stop:fl.limit])
	from := max(fl.start, fl.stop-20)
	for from < fl.stop && !utf8.RuneStart(f.text[from]) {
		from++ // not half a character
	}
	msg := fmt.Sprintf("unexpected %q at byte %d, after %q", r, fl.stop, tail(f.text[from:fl.stop]))
	if hint := f.hint(fl, r); hint != "" {
		msg += " (" + hint + ")"
	}
	return msg
}

// hint names the usual cause of a syntax error at fl.stop, or returns "".
func (f *finder) hint(fl failure, r rune) string {
	prev := byte(0)
	for i := fl.stop - 1; i >= fl.start; i-- {
		if !isSpace(f.text[i]) {
			prev = f.text[i]
			break
		}
	}
	switch {
	case r == '\'' || r == '‘' || r == '’' || r == '“' || r == '”':
		return "JSON strings and keys take straight double quotes"
	case (r == '}' || r == ']') && prev == ',':
		return "remove the trailing comma"
	case r == '/' || r == '#':
		return "JSON has no comments"
	case r == '\n' || r == '\t' || r == '\r':
		return `write line breaks and tabs inside strings as \n and \t`
	case r < 0x20:
		return "escape control characters inside strings"
	case (prev == '{' || prev == ',') && (unicode.IsLetter(r) || r == '_'):
		return "keys take double quotes"
	case prev == ':' && unicode.IsLetter(r):
		return "strings take double quotes; literals are true, false and null"
	case prev == '"' || prev == '}' || prev == ']' || unicode.IsDigit(rune(prev)):
		if r == '"' || r == '{' || r == '[' {
			return "a comma is missing"
		}
	}
	return ""
}

// strictCheck returns an error unless c is the reply's only content:
// reasoning blocks and blanks aside, the reply holds c alone or one json (or
// unlabelled) fence holding c.
func (f *finder) strictCheck(c Candidate) error {
	allowed := span{c.Start, c.End}
	if c.Source != SourceWhole {
		for _, fc := range f.fences {
			cs, ce := trimSpan(f.text, fc.content)
			if cs == c.Start && ce == c.End && (fc.jsonLabel || !fc.labelled) {
				allowed = span{fc.start, fc.end}
				break
			}
		}
	}
	before, after := "", ""
	offset := -1
	for _, seg := range f.segs {
		if s, e := trimSpan(f.text, span{seg.start, min(seg.end, allowed.start)}); s < e {
			before = tail(f.text[s:e])
			if offset < 0 {
				offset = s
			}
		}
		if s, e := trimSpan(f.text, span{max(seg.start, allowed.end), seg.end}); s < e && after == "" {
			after = head(f.text[s:e])
			if offset < 0 {
				offset = s
			}
		}
	}
	var d string
	switch {
	case before == "" && after == "":
		return nil
	case after == "":
		d = fmt.Sprintf("the reply must be JSON alone, but text precedes the value at byte %d: %q", c.Start, before)
	case before == "":
		d = fmt.Sprintf("the reply must be JSON alone, but text follows the value at byte %d: %q", c.Start, after)
	default:
		d = fmt.Sprintf("the reply must be JSON alone, but text surrounds the value at byte %d: %q before it, %q after it", c.Start, before, after)
	}
	return &ReplyError{Err: ErrNonJSONText, Description: d, Offset: offset}
}

// blankText reports whether text holds only blanks.
func blankText(text string) bool {
	s, e := trimSpan(text, span{0, len(text)})
	return s == e
}

// head returns the start of s, cut at a rune boundary, with blanks folded.
func head(s string) string {
	if h, ok := clip.Head(s, snippetLen); ok {
		s = h + "..."
	}
	return strings.Join(strings.Fields(s), " ")
}

// tail returns the end of s, cut at a rune boundary, with blanks folded.
func tail(s string) string {
	if t, ok := clip.Tail(s, snippetLen); ok {
		s = "..." + t
	}
	return strings.Join(strings.Fields(s), " ")
}
