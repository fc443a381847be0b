package openai

import (
	"encoding/json"
	"fmt"

	"github.com/agentio/agentio/provider"
)

// The checks, defaults and normalisations that Chat Completions and the
// Responses API share. chat.go and responses.go only build their own SDK
// shapes from what these return.

// emptyObjectSchema is the input schema of a tool that declares none.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// toolParameters returns the input schema t is declared with: its own, or
// emptyObjectSchema when it has none. A tool without a name is refused.
func toolParameters(t provider.Tool) (json.RawMessage, error) {
	if t.Name == "" {
		return nil, invalid("a tool has no name")
	}
	if len(t.InputSchema) == 0 {
		return emptyObjectSchema, nil
	}
	return t.InputSchema, nil
}

// toolChoice resolves c into what both APIs send: a mode, "none" or
// "required" ("" leaves the API's default, auto), or the name of the
// function to force. A named tool on an endpoint that does not declare
// ForcedTool is sent as "required".
func (p *Provider) toolChoice(c provider.ToolChoice) (mode, forced string, err error) {
	switch c.Mode {
	case provider.ToolChoiceAuto:
		return "", "", nil
	case provider.ToolChoiceNone, provider.ToolChoiceRequired:
		return string(c.Mode), "", nil
	case provider.ToolChoiceTool:
		if c.Name == "" {
			return "", "", invalid("tool choice names no tool")
		}
		if !p.caps.ForcedTool {
			return string(provider.ToolChoiceRequired), "", nil
		}
		return "", c.Name, nil
	}
	return "", "", invalid(fmt.Sprintf("unknown tool choice mode %q", string(c.Mode)))
}

// checkOutput refuses an output spec neither API can carry: an unknown
// format, or a JSON schema format without a schema.
func checkOutput(o *provider.OutputSpec) error {
	switch o.Format {
	case provider.FormatJSONObject:
		return nil
	case provider.FormatJSONSchema:
		if len(o.Schema) == 0 {
			return invalid("output spec has no schema")
		}
		return nil
	}
	return invalid(fmt.Sprintf("unknown output format %q", string(o.Format)))
}

// callArguments returns a tool call's arguments as both APIs carry them,
// a JSON string; "{}" for a call without arguments.
func callArguments(c provider.ToolCall) string {
	if len(c.Arguments) == 0 {
		return "{}"
	}
	return string(c.Arguments)
}

// usage returns a reply's token counts; a total the server leaves out is
// the sum of input and output.
func usage(input, output, total, cached, reasoning int64) provider.Usage {
	if total == 0 {
		total = input + output
	}
	return provider.Usage{
		InputTokens:       int(input),
		OutputTokens:      int(output),
		TotalTokens:       int(total),
		CachedInputTokens: int(cached),
		ReasoningTokens:   int(reasoning),
	}
}
