package extract

import "strings"

// A fence is one fenced code block.
type fence struct {
	start, end int  // the whole block, markers included
	content    span // between the markers (to the end of the text when unterminated)
	jsonLabel  bool // labelled json, jsonc, json5, ...
	labelled   bool // has any label
}

// findFences returns the fenced blocks of text[seg.start:seg.end] in order.
//
// An opening fence is a run of three or more backticks not right after a
// letter, digit, quote, backslash or closing bracket, then an
// optional label. When the rest of the label's line is blank the content
// starts on the next line; otherwise it starts right after the label, which
// admits inline blocks like ```json{"a":1}```. The closing fence is the first
// later run of three or more backticks that stands at the start of a line,
// ends a line, or touches whitespace or a closing bracket before it: backticks
// inside a JSON string ("```py") are none of these. A block without a closing
// fence runs to the end of the segment (the reply was cut off).
func findFences(text string, seg span, dst []fence) []fence {
	pos := seg.start
	for pos < seg.end {
		i := strings.Index(text[pos:seg.end], "```")
		if i < 0 {
			break
		}
		open := pos + i
		if open > seg.start && isWordOrQuote(text[open-1]) {
			// Backticks right after a word or a quote are inside a string
			// or inline code ("```json" in a JSON value), not a fence.
			pos = open + 3
			for pos < seg.end && text[pos] == '`' {
				pos++
			}
			continue
		}
		j := open
		for j < seg.end && text[j] == '`' {
			j++
		}
		for j < seg.end && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		labelStart := j
		for j < seg.end && isLabelByte(text[j]) {
			j++
		}
		label := text[labelStart:j]
		content := j
		if k, ok := blankToEOL(text, j, seg.end); ok {
			content = k
		} else {
			for content < seg.end && (text[content] == ' ' || text[content] == '\t') {
				content++
			}
		}
		f := fence{start: open, jsonLabel: isJSONLabel(label), labelled: label != ""}
		closeAt, closeEnd := findClosingFence(text, content, seg)
		if closeAt < 0 {
			f.content = span{content, seg.end}
			f.end = seg.end
		} else {
			f.content = span{content, closeAt}
			f.end = closeEnd
		}
		dst = append(dst, f)
		pos = f.end
	}
	return dst
}

// findClosingFence returns the start and end of the closing backtick run for
// content starting at from, or -1. A run on a line of its own (blanks
// aside), CommonMark's closing fence, always closes. A run elsewhere on a
// line closes under the looser rules of isFenceEdge, but not inside a
// double-quoted string of that line: "use ``` here" in a JSON value is
// text, not a fence.
func findClosingFence(text string, from int, seg span) (int, int) {
	pos := from
	scanned, inString := from, false
	for pos < seg.end {
		i := strings.Index(text[pos:seg.end], "```")
		if i < 0 {
			return -1, -1
		}
		at := pos + i
		end := at
		for end < seg.end && text[end] == '`' {
			end++
		}
		if lineStart(text, at, seg.start) {
			if _, blank := blankToEOL(text, end, seg.end); blank {
				return at, end // closes whatever the string state
			}
		}
		// The string state is wanted only now: the scan of a long
		// fenced reply that closes on a line of its own never reads it.
		scanned, inString = stringState(text, scanned, at, inString)
		if !inString && (lineStart(text, at, seg.start) || isFenceEdge(text, at, end, seg.end)) {
			return at, end
		}
		pos = end
	}
	return -1, -1
}

// stringState advances the double-quoted string state of a scan from from to
// to: whether to lies inside a string that opened on its own line (strings
// do not span lines in JSON, so a newline ends one).
func stringState(text string, from, to int, in bool) (int, bool) {
	for k := from; k < to; k++ {
		switch text[k] {
		case '\\':
			if in {
				k++
			}
		case '"':
			in = !in
		case '\n':
			in = false
		}
	}
	return max(from, to), in
}

// lineStart reports whether only spaces and tabs stand between the previous
// newline (or the segment start) and at.
func lineStart(text string, at, min int) bool {
	for k := at - 1; k >= min; k-- {
		switch text[k] {
		case ' ', '\t':
			continue
		case '\n', '\r':
			return true
		default:
			return false
		}
	}
	return true
}

// isFenceEdge reports whether the backtick run [at, end) ends its line, or
// follows whitespace or a closing bracket.
func isFenceEdge(text string, at, end, max int) bool {
	if _, ok := blankToEOL(text, end, max); ok {
		return true
	}
	if at > 0 {
		switch text[at-1] {
		case ' ', '\t', '\n', '\r', '}', ']':
			return true
		}
	}
	return false
}

// blankToEOL reports whether text[i:] holds only blanks up to a newline or
// max, and returns the offset after that newline.
func blankToEOL(text string, i, max int) (int, bool) {
	for i < max {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\n':
			return i + 1, true
		case c == 0xc2 && i+1 < max && text[i+1] == 0xa0: // no-break space
			i += 2
		default:
			return i, false
		}
	}
	return i, true
}

// isWordOrQuote reports a letter, a digit, a quote, a backslash or a
// closing bracket: what stands before backticks inside a string, never
// before a fence.
func isWordOrQuote(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '"' || c == '\'' || c == '\\' || c == '}' || c == ']'
}

// isLabelByte reports a byte allowed in a fence label.
func isLabelByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '+' || c == '.'
}

// isJSONLabel reports a label naming JSON or a dialect of it.
func isJSONLabel(label string) bool {
	return len(label) >= 4 && strings.EqualFold(label[:4], "json")
}
