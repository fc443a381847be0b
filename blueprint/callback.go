package blueprint

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Callback renders the block a parent agent receives when a child session
// it started finishes:
//
//	<agent-callback session="ses_child123" status="completed">
//	## Child Result
//
//	{
//	  "verdict": "approve"
//	}
//	</agent-callback>
//
// A structured result is written as indented JSON with its keys in the
// model's order; a text result as its text. A nil result leaves out the
// "## Child Result" section (a failed child, say).
//
// session and status are escaped as XML attribute values (&, <, >, ", ' and
// control characters), so neither can end the attribute or the tag. The
// body cannot close the block early either: in JSON every "</agent-callback"
// becomes "\u003c/agent-callback" (the same JSON value); in text it becomes
// "&lt;/agent-callback".
func Callback(session, status string, r *Result) string {
	var b strings.Builder
	b.WriteString(`<agent-callback session="`)
	b.WriteString(escapeAttr(session))
	b.WriteString(`" status="`)
	b.WriteString(escapeAttr(status))
	b.WriteString("\">\n")
	if r != nil {
		b.WriteString("## Child Result\n\n")
		if r.data != nil {
			var pretty bytes.Buffer
			if json.Indent(&pretty, r.data, "", "  ") != nil {
				pretty.Reset()
				pretty.Write(r.data)
			}
			b.WriteString(strings.ReplaceAll(pretty.String(), closeTag, `\u003c`+closeTag[1:]))
		} else {
			b.WriteString(strings.ReplaceAll(strings.TrimRight(r.text, "\n"), closeTag, "&lt;"+closeTag[1:]))
		}
		b.WriteByte('\n')
	}
	b.WriteString(closeTag + ">")
	return b.String()
}

const closeTag = "</agent-callback"

// escapeAttr escapes s for a double-quoted XML attribute value.
func escapeAttr(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&apos;")
		case '\n':
			b.WriteString("&#10;")
		case '\r':
			b.WriteString("&#13;")
		case '\t':
			b.WriteString("&#9;")
		default:
			if r < 0x20 || r == 0x7f {
				continue // control characters have no place in an attribute
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
