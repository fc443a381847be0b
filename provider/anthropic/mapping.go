package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/agentio/agentio/provider"
)

// emptyObjectSchema is the input schema of a tool that declares none.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// params maps req to the SDK's request, the same for Generate and Stream.
func (p *Provider) params(req *provider.Request) (sdk.MessageNewParams, error) {
	params := sdk.MessageNewParams{Model: sdk.Model(p.model), MaxTokens: int64(p.maxTokens)}
	switch {
	case req == nil:
		return params, invalid("nil request")
	case req.MaxTokens < 0:
		return params, invalid(fmt.Sprintf("negative max tokens %d", req.MaxTokens))
	case req.MaxTokens > 0:
		params.MaxTokens = int64(req.MaxTokens)
	}
	if req.System != "" {
		params.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	msgs, err := messages(req.Messages)
	if err != nil {
		return params, err
	}
	params.Messages = msgs
	for _, t := range req.Tools {
		tool, err := toolParam(t)
		if err != nil {
			return params, err
		}
		params.Tools = append(params.Tools, sdk.ToolUnionParam{OfTool: tool})
	}
	choice, err := p.toolChoice(req.ToolChoice)
	if err != nil {
		return params, err
	}
	params.ToolChoice = choice
	if req.Output != nil {
		format, err := outputFormat(req.Output)
		if err != nil {
			return params, err
		}
		params.OutputConfig.Format = format
	}
	return params, nil
}

// messages maps the conversation. The Messages API has no tool role: a
// tool result is a tool_result block of a user turn, so consecutive tool
// and user messages become one user turn, the results first, as the API
// requires them to follow the assistant's tool_use turn directly.
func messages(in []provider.Message) ([]sdk.MessageParam, error) {
	var out []sdk.MessageParam
	appendUser := func(b sdk.ContentBlockParamUnion) {
		if n := len(out); n > 0 && out[n-1].OfUser != nil {
			out[n-1].OfUser.Content = append(out[n-1].OfUser.Content, b)
			return
		}
		out = append(out, sdk.NewUserMessage(b))
	}
	for i, m := range in {
		switch m.Role {
		case provider.RoleUser:
			appendUser(sdk.NewTextBlock(m.Content))
		case provider.RoleTool:
			if m.ToolCallID == "" {
				return nil, invalid(fmt.Sprintf("message %d: tool message without a tool call id", i))
			}
			appendUser(toolResult(m))
		case provider.RoleAssistant:
			if m.Content == "" && len(m.ToolCalls) == 0 {
				continue // the API refuses an empty text block; the turn says nothing
			}
			var blocks []sdk.ContentBlockParamUnion
			if m.Content != "" {
				blocks = append(blocks, sdk.NewTextBlock(m.Content))
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, sdk.NewToolUseBlock(c.ID, callInput(c.Arguments), c.Name))
			}
			out = append(out, sdk.NewAssistantMessage(blocks...))
		default:
			return nil, invalid(fmt.Sprintf("message %d: unknown role %q", i, string(m.Role)))
		}
	}
	return out, nil
}

// toolResult is the tool_result block of a tool message; is_error is sent
// only when set.
func toolResult(m provider.Message) sdk.ContentBlockParamUnion {
	r := sdk.ToolResultBlockParam{ToolUseID: m.ToolCallID}
	if m.Content != "" {
		r.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: m.Content}}}
	}
	if m.IsError {
		r.IsError = sdk.Bool(true)
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &r}
}

// callInput is a tool call's arguments as a tool_use block carries them,
// a JSON object: arguments that are not one (a truncated call the model
// made) are sent as {}, since the API refuses anything else.
func callInput(args json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(trimmed)
}

// toolParam maps one tool. The schema is sent as its raw bytes, which
// keeps the author's key order (the SDK's schema type is a map).
func toolParam(t provider.Tool) (*sdk.ToolParam, error) {
	if t.Name == "" {
		return nil, invalid("a tool has no name")
	}
	schema := json.RawMessage(t.InputSchema)
	if len(schema) == 0 {
		schema = emptyObjectSchema
	}
	tool := &sdk.ToolParam{Name: t.Name}
	if t.Description != "" {
		tool.Description = sdk.String(t.Description)
	}
	if t.Strict {
		tool.Strict = sdk.Bool(true)
	}
	tool.SetExtraFields(map[string]any{"input_schema": schema})
	return tool, nil
}

// toolChoice maps c: auto is left to the API's default, required is
// {"type":"any"}, a named tool {"type":"tool","name":...} (or "any" when
// the Provider declares no ForcedTool).
func (p *Provider) toolChoice(c provider.ToolChoice) (sdk.ToolChoiceUnionParam, error) {
	var u sdk.ToolChoiceUnionParam
	switch c.Mode {
	case provider.ToolChoiceAuto:
	case provider.ToolChoiceNone:
		u.OfNone = &sdk.ToolChoiceNoneParam{}
	case provider.ToolChoiceRequired:
		u.OfAny = &sdk.ToolChoiceAnyParam{}
	case provider.ToolChoiceTool:
		if c.Name == "" {
			return u, invalid("tool choice names no tool")
		}
		if !p.caps.ForcedTool {
			u.OfAny = &sdk.ToolChoiceAnyParam{}
			break
		}
		u.OfTool = &sdk.ToolChoiceToolParam{Name: c.Name}
	default:
		return u, invalid(fmt.Sprintf("unknown tool choice mode %q", string(c.Mode)))
	}
	return u, nil
}

// outputFormat maps the output spec to output_config.format, a
// json_schema format carrying the schema's raw bytes. The API has no
// schema-less JSON mode and no name, description or strict flag for the
// format (its output is always constrained), so a JSON-object spec is
// refused and the others are not sent.
func outputFormat(o *provider.OutputSpec) (sdk.JSONOutputFormatParam, error) {
	var f sdk.JSONOutputFormatParam
	switch o.Format {
	case provider.FormatJSONSchema:
		if len(o.Schema) == 0 {
			return f, invalid("output spec has no schema")
		}
	case provider.FormatJSONObject:
		return f, invalid("the Messages API has no JSON mode without a schema")
	default:
		return f, invalid(fmt.Sprintf("unknown output format %q", string(o.Format)))
	}
	f.SetExtraFields(map[string]any{"schema": json.RawMessage(o.Schema)})
	return f, nil
}

// response maps the SDK's reply: text blocks joined, tool_use blocks as
// calls, thinking blocks left out.
func response(out *sdk.Message) *provider.Response {
	resp := &provider.Response{
		RawStopReason: string(out.StopReason),
		Model:         string(out.Model),
		Usage:         usage(out.Usage),
	}
	var text strings.Builder
	for _, b := range out.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			args := json.RawMessage(bytes.Clone(b.Input))
			if len(args) == 0 {
				args = json.RawMessage(`{}`)
			}
			resp.ToolCalls = append(resp.ToolCalls, provider.ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	resp.Text = text.String()
	resp.StopReason = stopReason(out.StopReason, resp)
	if resp.StopReason == provider.StopRefusal {
		resp.Refusal = strings.TrimSpace(resp.Text)
	}
	return resp
}

// stopContextWindow is the stop reason of a reply that filled the model's
// context window (newer than the SDK version this module requires).
const stopContextWindow sdk.StopReason = "model_context_window_exceeded"

// stopReason normalises stop_reason. A reply that hit the context window
// is truncated like one that hit max_tokens.
func stopReason(r sdk.StopReason, resp *provider.Response) provider.StopReason {
	switch r {
	case sdk.StopReasonEndTurn, sdk.StopReasonStopSequence:
		if len(resp.ToolCalls) > 0 {
			return provider.StopToolUse
		}
		return provider.StopEnd
	case "":
		return ""
	case sdk.StopReasonMaxTokens, stopContextWindow:
		return provider.StopLength
	case sdk.StopReasonToolUse:
		return provider.StopToolUse
	case sdk.StopReasonRefusal:
		return provider.StopRefusal
	default: // pause_turn, and reasons added later
		return provider.StopOther
	}
}

// usage maps the token counts. The API's input_tokens leaves out the
// tokens written to and read from the prompt cache; agentio's InputTokens
// counts every input token, and CachedInputTokens the part read from the
// cache. Tokens written to the cache are in InputTokens only.
func usage(u sdk.Usage) provider.Usage {
	input := u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
	return provider.Usage{
		InputTokens:       int(input),
		OutputTokens:      int(u.OutputTokens),
		TotalTokens:       int(input + u.OutputTokens),
		CachedInputTokens: int(u.CacheReadInputTokens),
		ReasoningTokens:   int(u.OutputTokensDetails.ThinkingTokens),
	}
}
