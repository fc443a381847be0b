package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openaicompat"
)

// generateResponses calls the Responses API. Nothing is stored on
// OpenAI's side (store: false): every request carries the whole
// conversation, as with Chat Completions.
func (p *Provider) generateResponses(ctx context.Context, req *provider.Request, rec *recorder, opts []option.RequestOption) (*provider.Response, error) {
	params, err := p.responsesParams(req)
	if err != nil {
		return nil, err
	}
	out, err := p.client.Responses.New(ctx, params, opts...)
	if err != nil {
		return nil, classify(err, rec)
	}
	return responsesResponse(out), nil
}

// responsesParams maps req to the SDK's request.
func (p *Provider) responsesParams(req *provider.Request) (responses.ResponseNewParams, error) {
	params := responses.ResponseNewParams{Model: p.model, Store: param.NewOpt(false)}
	if req.System != "" {
		params.Instructions = param.NewOpt(req.System)
	}
	var input responses.ResponseInputParam
	for i, m := range req.Messages {
		items, err := responsesItems(m)
		if err != nil {
			return params, invalid(fmt.Sprintf("message %d: %s", i, err))
		}
		input = append(input, items...)
	}
	params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: input}
	for _, t := range req.Tools {
		schema, err := toolParameters(t)
		if err != nil {
			return params, err
		}
		fn := responses.FunctionToolParam{Name: t.Name, Strict: param.NewOpt(t.Strict)}
		if t.Description != "" {
			fn.Description = param.NewOpt(t.Description)
		}
		fn.SetExtraFields(map[string]any{"parameters": json.RawMessage(schema)}) // keeps key order
		params.Tools = append(params.Tools, responses.ToolUnionParam{OfFunction: &fn})
		if t.Strict {
			params.ParallelToolCalls = param.NewOpt(false)
		}
	}
	mode, forced, err := p.toolChoice(req.ToolChoice)
	if err != nil {
		return params, err
	}
	if mode != "" {
		params.ToolChoice.OfToolChoiceMode = param.NewOpt(responses.ToolChoiceOptions(mode))
	}
	if forced != "" {
		params.ToolChoice.OfFunctionTool = &responses.ToolChoiceFunctionParam{Name: forced}
	}
	if o := req.Output; o != nil {
		if err := checkOutput(o); err != nil {
			return params, err
		}
		if o.Format == provider.FormatJSONObject {
			params.Text.Format.OfJSONObject = &shared.ResponseFormatJSONObjectParam{}
		} else {
			js := responses.ResponseFormatTextJSONSchemaConfigParam{Name: openaicompat.OutputName(o.Name)}
			if o.Description != "" {
				js.Description = param.NewOpt(o.Description)
			}
			if o.Strict {
				js.Strict = param.NewOpt(true)
			}
			js.SetExtraFields(map[string]any{"schema": json.RawMessage(o.Schema)})
			params.Text.Format.OfJSONSchema = &js
		}
	}
	if req.MaxTokens > 0 {
		params.MaxOutputTokens = param.NewOpt(int64(req.MaxTokens))
	}
	return params, nil
}

// responsesItems maps one conversation message to input items: a message,
// plus one function_call item per tool call of an assistant message.
func responsesItems(m provider.Message) ([]responses.ResponseInputItemUnionParam, error) {
	message := func(role responses.EasyInputMessageRole, text string) responses.ResponseInputItemUnionParam {
		return responses.ResponseInputItemUnionParam{OfMessage: &responses.EasyInputMessageParam{
			Role: role, Content: responses.EasyInputMessageContentUnionParam{OfString: param.NewOpt(text)},
		}}
	}
	switch m.Role {
	case provider.RoleUser:
		return []responses.ResponseInputItemUnionParam{message(responses.EasyInputMessageRoleUser, m.Content)}, nil
	case provider.RoleAssistant:
		var items []responses.ResponseInputItemUnionParam
		if m.Content != "" || len(m.ToolCalls) == 0 {
			items = append(items, message(responses.EasyInputMessageRoleAssistant, m.Content))
		}
		for _, c := range m.ToolCalls {
			items = append(items, responses.ResponseInputItemParamOfFunctionCall(callArguments(c), c.ID, c.Name))
		}
		return items, nil
	case provider.RoleTool:
		if m.ToolCallID == "" {
			return nil, fmt.Errorf("tool message without a tool call id")
		}
		// Written as raw JSON: the SDK's types for this item changed
		// between v3 minor versions, the wire format did not.
		item, err := json.Marshal(map[string]string{"type": "function_call_output", "call_id": m.ToolCallID, "output": toolContent(m)})
		if err != nil {
			return nil, err
		}
		return []responses.ResponseInputItemUnionParam{param.Override[responses.ResponseInputItemUnionParam](json.RawMessage(item))}, nil
	default:
		return nil, fmt.Errorf("unknown role %q", string(m.Role))
	}
}

// responsesResponse maps the SDK's reply.
func responsesResponse(out *responses.Response) *provider.Response {
	resp := &provider.Response{Model: string(out.Model), RawStopReason: string(out.Status)}
	var text, refusal strings.Builder
	for _, item := range out.Output {
		switch item.Type {
		case "message":
			for _, c := range item.Content {
				switch c.Type {
				case "output_text":
					text.WriteString(c.Text)
				case "refusal":
					refusal.WriteString(c.Refusal)
				}
			}
		case "function_call":
			resp.ToolCalls = append(resp.ToolCalls, provider.ToolCall{
				ID: item.CallID, Name: item.Name, Arguments: json.RawMessage(item.Arguments.OfString),
			})
		}
	}
	resp.Text, resp.Refusal = text.String(), refusal.String()
	if reason := out.IncompleteDetails.Reason; reason != "" {
		resp.RawStopReason = reason
	}
	switch {
	case out.Status == responses.ResponseStatusIncomplete && out.IncompleteDetails.Reason == "content_filter":
		resp.StopReason = provider.StopContentFilter
	case out.Status == responses.ResponseStatusIncomplete:
		resp.StopReason = provider.StopLength
	case out.Status == responses.ResponseStatusCompleted || out.Status == "":
		resp.StopReason = openaicompat.EndReason(resp, provider.StopEnd)
	default: // failed, cancelled, ...
		resp.StopReason = openaicompat.EndReason(resp, provider.StopOther)
	}
	u := out.Usage
	resp.Usage = usage(u.InputTokens, u.OutputTokens, u.TotalTokens, u.InputTokensDetails.CachedTokens, u.OutputTokensDetails.ReasoningTokens)
	return resp
}
