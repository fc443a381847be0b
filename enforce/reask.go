package enforce

import (
	"fmt"
	"strings"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/schema"
)

// reaskOutputCap is the size in bytes above which the previous output shown
// in a re-ask is cut in the middle, with a marker.
const reaskOutputCap = 4096

// reaskListed is how many violations a re-ask lists before "and N more".
const reaskListed = 50

// A Reask is what a re-ask is built from: the attempt that failed and what
// was wrong with it, in the terms the model knows.
type Reask struct {
	// Attempt is the number of the failed attempt, from 1.
	Attempt int
	// Outcome says why it failed: [OutcomeInvalid], [OutcomeNoJSON],
	// [OutcomeNonJSONText], [OutcomeNoToolCall] or [OutcomeTruncated].
	Outcome Outcome
	// Mode is the attempt's mode; in [ModeTool] the re-ask answers the
	// submit_result call.
	Mode Mode
	// Violations are every violation, with paths into the value as the model
	// wrote it (inside the wrapping object when the root was wrapped).
	Violations []schema.Violation
	// Output is the failed output (the reply's text, or the submit_result
	// input in ModeTool), cut in the middle with a marker beyond 4 KB.
	Output string
	// Schema is the schema as the model was given it, minified when larger
	// than 2 KB; empty when an earlier re-ask of the same conversation
	// already showed it ([WithFullHistory]).
	Schema string
}

// A ReaskFunc renders the text of a re-ask (see [WithReask]).
type ReaskFunc func(r Reask) string

// DefaultReask renders the standard re-ask. For invalid output, it lists
// every violation with its path, shows the previous output and the schema,
// and asks for the corrected JSON only; a truncated reply is asked for a
// shorter answer; a missing submit_result call is asked for the call.
func DefaultReask(r Reask) string {
	tool := r.Mode == ModeTool
	var b strings.Builder
	switch r.Outcome {
	case OutcomeTruncated:
		b.WriteString("Your previous response was cut off at the length limit before its JSON was complete.\n\n")
		if tool {
			b.WriteString("Call " + ToolName + " again with a shorter input: the same result, complete, with less text in its values.")
		} else {
			b.WriteString("Answer again with a shorter response: the same JSON, complete, with less text in its values. ")
			b.WriteString("Output ONLY the JSON value, with no text before or after it.")
		}
		return b.String()
	case OutcomeNoToolCall:
		b.WriteString("You did not call the " + ToolName + " tool.\n\n")
		b.WriteString("Call " + ToolName + " now, with your complete answer as its input. Do not write the answer as text.")
		return b.String()
	}
	if tool {
		b.WriteString("Your " + ToolName + " input did not match the required JSON schema.\n\n")
	} else {
		b.WriteString("Your previous response did not match the required JSON schema.\n\n")
	}
	b.WriteString("## Validation errors\n")
	for i, v := range r.Violations {
		if i == reaskListed {
			fmt.Fprintf(&b, "- ... and %d more\n", len(r.Violations)-i)
			break
		}
		b.WriteString("- ")
		b.WriteString(v.Path)
		b.WriteString(": ")
		b.WriteString(v.Message)
		b.WriteByte('\n')
	}
	if tool {
		b.WriteString("\n## Your previous input\n")
	} else {
		b.WriteString("\n## Your previous response\n")
	}
	if strings.TrimSpace(r.Output) == "" {
		b.WriteString("(empty)")
	} else {
		b.WriteString(r.Output)
	}
	b.WriteString("\n\n")
	if r.Schema != "" {
		b.WriteString("## Required schema\n```json\n")
		b.WriteString(r.Schema)
		b.WriteString("\n```\n\n")
	}
	if tool {
		b.WriteString("Call " + ToolName + " again with the corrected JSON as its input.")
	} else {
		b.WriteString("Answer with the corrected JSON only, with no text before or after it.")
	}
	return b.String()
}

// modelPaths returns vs with paths moved inside the wrapping property key,
// as the model wrote the value; vs itself when key is empty.
func modelPaths(vs []schema.Violation, key string) []schema.Violation {
	if key == "" {
		return vs
	}
	out := make([]schema.Violation, len(vs))
	for i, v := range vs {
		v.Path = string(jsonpath.AppendKey([]byte("$"), key)) + strings.TrimPrefix(v.Path, "$")
		v.Pointer = "/" + jsonpath.EscapeToken(key) + v.Pointer
		out[i] = v
	}
	return out
}
