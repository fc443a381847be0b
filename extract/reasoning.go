package extract

import "strings"

// A span is a half-open byte range [start, end) of the input.
type span struct{ start, end int }

// reasoningTags are the reasoning-block tags skipped before searching.
var reasoningTags = [...]struct{ open, close string }{
	{"<think>", "</think>"},
	{"<thinking>", "</thinking>"},
}

// visibleSpans returns the parts of text outside reasoning blocks, in order,
// and whether the text ends inside an unterminated leading block.
//
// A block runs from an opening tag to the next matching closing tag. An
// opening tag that is the first non-space text and is never closed makes the
// rest of the text reasoning (the reply was cut off while thinking). A closing
// tag seen before any opening tag makes everything before it reasoning: some
// servers strip the opening tag. Other unmatched tags are text.
//
// The search is linear: the text is read once for tags, and once more for
// each kind of closing tag that turns out to be missing.
func visibleSpans(text string) (spans []span, unterminated bool) {
	segStart, search := 0, 0
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	if first, tag, isClose := nextTag(text, 0); first >= 0 && isClose {
		segStart, search = first+len(tag), first+len(tag)
	}
	var noClose [len(reasoningTags)]bool // a closing tag absent from the rest of the text
	for {
		at, tag, isClose := nextTag(text, search)
		if at < 0 {
			break
		}
		search = at + len(tag)
		if isClose {
			continue // a stray closing tag is text
		}
		k := tagIndex(tag)
		end := -1
		if !noClose[k] {
			end = strings.Index(text[search:], reasoningTags[k].close)
			noClose[k] = end < 0
		}
		if end < 0 {
			if at == lead && segStart == 0 {
				return nil, true
			}
			continue // an unclosed opening tag in the middle is text
		}
		if at > segStart {
			spans = append(spans, span{segStart, at})
		}
		segStart = search + end + len(reasoningTags[k].close)
		search = segStart
	}
	if segStart < len(text) || len(spans) == 0 {
		spans = append(spans, span{segStart, len(text)})
	}
	return spans, false
}

// nextTag finds the first reasoning tag, opening or closing, at or after from.
func nextTag(text string, from int) (at int, tag string, isClose bool) {
	for {
		i := strings.IndexByte(text[from:], '<')
		if i < 0 {
			return -1, "", false
		}
		i += from
		for _, t := range reasoningTags {
			if strings.HasPrefix(text[i:], t.open) {
				return i, t.open, false
			}
			if strings.HasPrefix(text[i:], t.close) {
				return i, t.close, true
			}
		}
		from = i + 1
	}
}

// tagIndex returns the index in reasoningTags of an opening tag.
func tagIndex(open string) int {
	for i, t := range reasoningTags {
		if t.open == open {
			return i
		}
	}
	return 0
}
