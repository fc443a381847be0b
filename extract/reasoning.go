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
// servers strip the opening tag. An unclosed opening tag elsewhere is text.
// The search is linear: each tag is looked for once per position.
func visibleSpans(text string) (spans []span, unterminated bool) {
	pos := 0
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	// A closing tag before any opening tag: everything up to it is reasoning.
	if first, tag, isClose := nextTag(text, 0); first >= 0 && isClose {
		pos = first + len(tag)
	}
	for pos <= len(text) {
		at, tag, isClose := nextTag(text, pos)
		if at < 0 {
			spans = append(spans, span{pos, len(text)})
			break
		}
		if isClose { // a stray closing tag is text
			spans = append(spans, span{pos, at + len(tag)})
			pos = at + len(tag)
			continue
		}
		closeTag := closingFor(tag)
		end := strings.Index(text[at+len(tag):], closeTag)
		if end < 0 {
			if at == lead && len(spans) == 0 && pos == 0 {
				return nil, true
			}
			// An unclosed opening tag in the middle of the text is text.
			spans = append(spans, span{pos, len(text)})
			break
		}
		if at > pos {
			spans = append(spans, span{pos, at})
		}
		pos = at + len(tag) + end + len(closeTag)
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

// closingFor returns the closing tag of an opening tag.
func closingFor(open string) string {
	for _, t := range reasoningTags {
		if t.open == open {
			return t.close
		}
	}
	return ""
}
