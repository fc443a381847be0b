package openai

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openaicompat"
)

// generateChat calls the Chat Completions API.
func (p *Provider) generateChat(ctx context.Context, req *provider.Request, rec *recorder, opts []option.RequestOption) (*provider.Response, error) {
	params, err := p.chatParams(req)
	if err != nil {
		return nil, err
	}
	out, err := p.client.Chat.Completions.New(ctx, params, opts...)
	if err != nil {
		return nil, classify(err, rec)
	}
	return chatResponse(out)
}

// chatParams maps req to the SDK's request.
func (p *Provider) chatParams(req *provider.Request) (sdk.ChatCompletionNewParams, error) {
	params := sdk.ChatCompletionNewParams{Model: p.model}
	if req.System != "" {
		params.Messages = append(params.Messages, sdk.SystemMessage(req.System))
	}
	for i, m := range req.Messages {
		msg, err := chatMessage(m)
		if err != nil {
			return params, invalid(fmt.Sprintf("message %d: %s", i, err))
		}
		params.Messages = append(params.Messages, msg)
	}
	for _, t := range req.Tools {
		schema, err := toolParameters(t)
		if err != nil {
			return params, err
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fn.Description = param.NewOpt(t.Description)
		}
		if t.Strict {
			fn.Strict = param.NewOpt(true)
		}
		// The SDK's Parameters is a map and would sort the schema's keys;
		// OpenAI produces arguments in schema order, so send the raw bytes.
		fn.SetExtraFields(map[string]any{"parameters": json.RawMessage(schema)})
		params.Tools = append(params.Tools, sdk.ChatCompletionFunctionTool(fn))
		if t.Strict {
			// OpenAI: parallel calls may not match strict schemas.
			params.ParallelToolCalls = param.NewOpt(false)
		}
	}
	mode, forced, err := p.toolChoice(req.ToolChoice)
	if err != nil {
		return params, err
	}
	if mode != "" {
		params.ToolChoice.OfAuto = param.NewOpt(mode)
	}
	if forced != "" {
		params.ToolChoice.OfFunctionToolChoice = &sdk.ChatCompletionNamedToolChoiceParam{
			Function: sdk.ChatCompletionNamedToolChoiceFunctionParam{Name: forced},
		}
	}
	if req.Output != nil {
		format, err := chatResponseFormat(req.Output)
		if err != nil {
			return params, err
		}
		params.ResponseFormat = format
	}
	if req.MaxTokens > 0 {
		if p.maxTokens == MaxTokensLegacy {
			params.MaxTokens = param.NewOpt(int64(req.MaxTokens))
		} else {
			params.MaxCompletionTokens = param.NewOpt(int64(req.MaxTokens))
		}
	}
	return params, nil
}

// chatMessage maps one conversation message.
func chatMessage(m provider.Message) (sdk.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case provider.RoleUser:
		return sdk.UserMessage(m.Content), nil
	case provider.RoleAssistant:
		a := sdk.ChatCompletionAssistantMessageParam{}
		if m.Content != "" || len(m.ToolCalls) == 0 {
			a.Content.OfString = param.NewOpt(m.Content)
		}
		for _, c := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: callArguments(c)},
				},
			})
		}
		return sdk.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	case provider.RoleTool:
		if m.ToolCallID == "" {
			return sdk.ChatCompletionMessageParamUnion{}, fmt.Errorf("tool message without a tool call id")
		}
		return sdk.ToolMessage(toolContent(m), m.ToolCallID), nil
	default:
		return sdk.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown role %q", string(m.Role))
	}
}

// toolContent is a tool message's text; OpenAI has no error flag, so a
// failed call says so in words.
func toolContent(m provider.Message) string {
	if m.IsError {
		return "error: " + m.Content
	}
	return m.Content
}

// chatResponseFormat maps the output spec to response_format.
func chatResponseFormat(o *provider.OutputSpec) (sdk.ChatCompletionNewParamsResponseFormatUnion, error) {
	var f sdk.ChatCompletionNewParamsResponseFormatUnion
	if err := checkOutput(o); err != nil {
		return f, err
	}
	if o.Format == provider.FormatJSONObject {
		f.OfJSONObject = &shared.ResponseFormatJSONObjectParam{}
		return f, nil
	}
	js := shared.ResponseFormatJSONSchemaJSONSchemaParam{
		Name:   openaicompat.OutputName(o.Name),
		Schema: json.RawMessage(o.Schema),
	}
	if o.Description != "" {
		js.Description = param.NewOpt(o.Description)
	}
	if o.Strict {
		js.Strict = param.NewOpt(true)
	}
	f.OfJSONSchema = &shared.ResponseFormatJSONSchemaParam{JSONSchema: js}
	return f, nil
}

// chatResponse maps the SDK's reply.
func chatResponse(out *sdk.ChatCompletion) (*provider.Response, error) {
	if len(out.Choices) == 0 {
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: Name, Message: "the response has no choices"}
	}
	choice, u := out.Choices[0], out.Usage
	msg := choice.Message
	resp := &provider.Response{
		Text:          msg.Content,
		Refusal:       msg.Refusal,
		RawStopReason: choice.FinishReason,
		Model:         out.Model,
		Usage: usage(u.PromptTokens, u.CompletionTokens, u.TotalTokens,
			u.PromptTokensDetails.CachedTokens, u.CompletionTokensDetails.ReasoningTokens),
	}
	for _, c := range msg.ToolCalls {
		switch c.Type {
		case "function", "":
			resp.ToolCalls = append(resp.ToolCalls, provider.ToolCall{
				ID: c.ID, Name: c.Function.Name, Arguments: json.RawMessage(c.Function.Arguments),
			})
		case "custom":
			args, _ := json.Marshal(c.Custom.Input)
			resp.ToolCalls = append(resp.ToolCalls, provider.ToolCall{ID: c.ID, Name: c.Custom.Name, Arguments: args})
		}
	}
	resp.StopReason = openaicompat.StopReason(choice.FinishReason, resp)
	return resp, nil
}
