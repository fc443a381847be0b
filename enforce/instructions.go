package enforce

import (
	"bytes"
	"encoding/json"
	"strings"
)

// largeSchema is the size in bytes above which prompts show the schema
// minified rather than as its author wrote it.
const largeSchema = 2048

// displaySchema returns the schema as prompts show it: src as written when
// small, minified when larger than largeSchema. min is src minified.
func displaySchema(src, min []byte) string {
	if len(src) <= largeSchema {
		return string(bytes.TrimSpace(src))
	}
	return string(min)
}

// indentSchema returns a small minified schema indented for reading, or the
// minified bytes when large (or not JSON).
func indentSchema(min []byte) string {
	if len(min) > largeSchema {
		return string(min)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, min, "", "  "); err != nil {
		return string(min)
	}
	return b.String()
}

// renderInstructions renders the text that asks for JSON matching the
// schema, shown in [ModePrompt] and [ModeSystem].
func renderInstructions(schemaText string) string {
	var b strings.Builder
	b.WriteString("## Output format (required)\n\n")
	b.WriteString("Your response MUST be a single JSON value that conforms to this JSON Schema:\n\n")
	b.WriteString("```json\n")
	b.WriteString(schemaText)
	b.WriteString("\n```\n\n")
	b.WriteString("Output ONLY the JSON value, with no text before or after it.")
	return b.String()
}

// toolInstructions is appended to the system prompt in [ModeTool].
const toolInstructions = "## Output (required)\n\n" +
	"When your answer is ready, call the " + ToolName + " tool with the complete answer as its input. " +
	"Do not write the answer as text."

// toolDescription describes the submit_result tool to the model.
const toolDescription = "Submit the final result. Call this tool exactly once, with the complete result as its input."

// appendSection returns text followed by a blank line and section, or
// section alone when text is blank.
func appendSection(text, section string) string {
	if strings.TrimSpace(text) == "" {
		return section
	}
	return strings.TrimRight(text, " \t\r\n") + "\n\n" + section
}

// Instructions returns the text that asks the model for JSON matching the
// schema: the schema (minified when larger than 2 KB) and the demand for the
// JSON alone. [ModePrompt] appends it to the prompt, [ModeSystem] to the
// system prompt.
func (e *Enforcer) Instructions() string { return e.instructions }

// EnrichPrompt returns prompt followed by a blank line and [Enforcer.Instructions].
func (e *Enforcer) EnrichPrompt(prompt string) string {
	return appendSection(prompt, e.instructions)
}

// EnrichSystem returns system followed by a blank line and
// [Enforcer.Instructions].
func (e *Enforcer) EnrichSystem(system string) string {
	return appendSection(system, e.instructions)
}
