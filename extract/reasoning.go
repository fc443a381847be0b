package extract

import "strings"

// A span is a half-open byte range [start, end) of the input.
type span struct{ start, end int }

// reasoningTags are the reasoning-block tags skipped before searching. It is
// a read-only table.
var reasoningTags = [...]struct{ open, close string }{
	{"<think>", "</think>"},
	{"<thinking>", "</thinking>"},
}

// visibleSpans appends to spans the parts of text outside reasoning
// blocks, in order, and reports whether the text ends inside an
// unterminated leading block (then it returns spans as it was).
//
// A block runs from an opening tag to the next matching closing tag. An
// opening tag that is the first non-space text and is never closed makes the
// rest of the text reasoning (the reply was cut off while thinking). A closing
// tag seen before any opening tag makes everything before it reasoning: some
// servers strip the opening tag. Other unmatched tags are text.
//
// The search is linear: the text is read once for tags, and once more for
// each kind of closing tag that turns out to be missing.
func visibleSpans(text string, spans []span) (_ []span, unterminated bool) {
	n0 := len(spans)
	segStart, search := 0, 0
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	if at, n, isClose, _ := nextTag(text, 0); at >= 0 && isClose {
		segStart, search = at+n, at+n
	}
	var noClose [len(reasoningTags)]bool // a closing tag absent from the rest of the text
	for {
		at, n, isClose, k := nextTag(text, search)
		if at < 0 {
			break
		}
		search = at + n
		if isClose {
			continue // a stray closing tag is text
		}
		end := -1
		if !noClose[k] {
			end = strings.Index(text[search:], reasoningTags[k].close)
			noClose[k] = end < 0
		}
		if end < 0 {
			if at == lead && segStart == 0 {
				return spans[:n0], true
			}
			continue // an unclosed opening tag in the middle is text
		}
		if at > segStart {
			spans = append(spans, span{segStart, at})
		}
		segStart = search + end + len(reasoningTags[k].close)
		search = segStart
	}
	if segStart < len(text) || len(spans) == n0 {
		spans = append(spans, span{segStart, len(text)})
	}
	return spans, false
}

// nextTag finds the first reasoning tag, opening or closing, at or after
// from: its offset (or -1), its length, whether it closes, and its index in
// reasoningTags.
func nextTag(text string, from int) (at, n int, isClose bool, k int) {
	for {
		i := strings.IndexByte(text[from:], '<')
		if i < 0 {
			return -1, 0, false, 0
		}
		i += from
		for k, t := range reasoningTags {
			if strings.HasPrefix(text[i:], t.open) {
				return i, len(t.open), false, k
			}
			if strings.HasPrefix(text[i:], t.close) {
				return i, len(t.close), true, k
			}
		}
		from = i + 1
	}
}
