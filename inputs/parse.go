package inputs

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads back text written by [Format] or [FormatJSON]: it returns
// every parameter's value as the text that was rendered and the prompt.
// String values come back exactly as given (the escaping and indentation
// that Format adds are undone); other values come back as their rendered
// JSON or literal text, so "300" does not tell a number from a string.
//
// Text that does not begin with the line `<inputs>` has no block: Parse
// returns an empty map and the whole text as the prompt. Otherwise the block
// must be well formed, or Parse returns a [*SyntaxError] with the line; a
// parameter named twice gives a SyntaxError wrapping a [*KeyError] with
// [ErrDuplicateKey]. The block ends at the first line that is exactly
// `</inputs>`, which no value can produce, so a prompt holding its own
// `</inputs>` still splits correctly. The map is new and owned by the
// caller; nil is never returned with a nil error.
//
// Parse is meant for debugging and tests, not for reading model output.
func Parse(text string) (map[string]string, string, error) {
	params := make(map[string]string)
	if !strings.HasPrefix(text, openTag+"\n") {
		return params, text, nil
	}
	rest := text[len(openTag)+1:]
	line := 2
	for {
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			if rest == closeTag {
				return nil, "", &SyntaxError{Line: line, Msg: "missing empty line after " + closeTag}
			}
			return nil, "", &SyntaxError{Line: line, Msg: "missing " + closeTag + " line"}
		}
		cur := rest[:nl]
		if cur == closeTag {
			after := rest[nl+1:]
			if !strings.HasPrefix(after, "\n") {
				return nil, "", &SyntaxError{Line: line + 1, Msg: "missing empty line after " + closeTag}
			}
			return params, after[1:], nil
		}
		if strings.HasPrefix(cur, " ") {
			return nil, "", &SyntaxError{Line: line, Msg: "indented line outside a multi-line value"}
		}
		colon := strings.IndexByte(cur, ':')
		if colon < 0 {
			return nil, "", &SyntaxError{Line: line, Msg: "expected \"key: value\", \"key:\" or " + closeTag}
		}
		key := cur[:colon]
		if !validKey(key) {
			kerr := &KeyError{Key: key, Err: ErrInvalidKey}
			return nil, "", &SyntaxError{Line: line, Msg: "invalid parameter name " + strconv.Quote(shorten(key)), Err: kerr}
		}
		if _, dup := params[key]; dup {
			kerr := &KeyError{Key: key, Err: ErrDuplicateKey}
			return nil, "", &SyntaxError{Line: line, Msg: "duplicate parameter name " + strconv.Quote(shorten(key)), Err: kerr}
		}
		first := line
		rest = rest[nl+1:]
		line++
		switch v := cur[colon+1:]; {
		case strings.HasPrefix(v, " "):
			params[key] = unescapeTags(v[1:])
		case v == "":
			// A multi-line value: every following line indented by two
			// spaces. Format never writes "key:" without such a line, but a
			// tool that strips trailing spaces turns "key: " into "key:",
			// so none means the empty string.
			var lines []string
			for strings.HasPrefix(rest, indent) {
				nl := strings.IndexByte(rest, '\n')
				if nl < 0 {
					return nil, "", &SyntaxError{Line: line, Msg: "missing " + closeTag + " line"}
				}
				lines = append(lines, rest[len(indent):nl])
				rest = rest[nl+1:]
				line++
			}
			// Rejoined with their indentation, the lines are what
			// appendIndented wrote; unindent undoes it for every break.
			val, ok := unindent(strings.Join(lines, "\n"+indent))
			if !ok {
				return nil, "", &SyntaxError{Line: first, Msg: fmt.Sprintf("value of %q: line break not followed by two spaces", shorten(key))}
			}
			params[key] = unescapeTags(val)
		default:
			return nil, "", &SyntaxError{Line: first, Msg: fmt.Sprintf("expected a space or the end of the line after %q", shorten(key)+":")}
		}
	}
}
