package langchaingoagentio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/tmc/langchaingo/llms"

	"github.com/agentio/agentio/provider"
)

// Options configure a [Provider]. A nil *Options is the zero Options;
// [NewProvider] copies it.
type Options struct {
	// Name is the provider's name in errors and recordings (default
	// "langchaingo").
	Name string
	// Capabilities say what the model behind the llms.Model supports, for
	// enforce's choice of mode. The zero value is a text model: the schema
	// goes into the prompt. Set Tools and ForcedTool for a model whose
	// LangChainGo client passes tools and a forced tool choice on, and
	// JSONMode for one that honours llms.WithJSONMode. LangChainGo carries
	// no output schema, so NativeSchema is refused by NewProvider.
	Capabilities provider.Capabilities
	// CallOptions are added to every call, before the request's own
	// (llms.WithModel, llms.WithTemperature, ...).
	CallOptions []llms.CallOption
}

// A Provider is a [provider.Provider] and [provider.Streamer] over a
// LangChainGo llms.Model: enforce, blueprint, eval and record then run on
// any model LangChainGo reaches. It maps the request's system prompt,
// messages, tools, forced tool choice and token limit to the model's
// messages and call options, and the reply's text, tool calls, stop reason
// and usage back; an error of the model is returned as a
// [*provider.Error] of the kind its llms.Error code says.
//
// A Provider is safe for concurrent use when its llms.Model is.
type Provider struct {
	m    llms.Model
	opts Options
}

var (
	_ provider.Provider = (*Provider)(nil)
	_ provider.Streamer = (*Provider)(nil)
)

// NewProvider returns a Provider over m. It fails with an error matching
// [ErrInvalidOption] for a nil m or for Capabilities.NativeSchema, which
// LangChainGo cannot carry.
func NewProvider(m llms.Model, opts *Options) (*Provider, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil llms.Model", ErrInvalidOption)
	}
	var o Options
	if opts != nil {
		o = *opts
		o.CallOptions = append([]llms.CallOption(nil), opts.CallOptions...)
	}
	if o.Name == "" {
		o.Name = "langchaingo"
	}
	if o.Capabilities.NativeSchema || o.Capabilities.StrictSchema {
		return nil, fmt.Errorf("%w: LangChainGo's call options carry no output schema (NativeSchema)", ErrInvalidOption)
	}
	return &Provider{m: m, opts: o}, nil
}

// Capabilities returns Options.Capabilities.
func (p *Provider) Capabilities() provider.Capabilities { return p.opts.Capabilities }

// Generate sends req to the model.
func (p *Provider) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	return p.call(ctx, req, nil)
}

// Stream sends req to the model with llms.WithStreamingFunc and yields
// each chunk of text as the model writes it, then the whole reply. A
// consumer that stops iterating cancels the call's context and waits for
// the call to return. Tool calls come whole, in the last chunk's Response,
// as LangChainGo streams text only.
func (p *Provider) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return provider.StreamCall(ctx, func(ctx context.Context, send func(string) error) (*provider.Response, error) {
		return p.call(ctx, req, func(_ context.Context, chunk []byte) error { return send(string(chunk)) })
	})
}

// call makes one GenerateContent call, streaming to stream when not nil.
func (p *Provider) call(ctx context.Context, req *provider.Request, stream func(context.Context, []byte) error) (*provider.Response, error) {
	if req == nil {
		return nil, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.opts.Name, Message: "nil request"}
	}
	msgs, err := messages(req)
	if err != nil {
		return nil, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.opts.Name, Message: err.Error(), Err: err}
	}
	opts := append([]llms.CallOption(nil), p.opts.CallOptions...)
	opts = append(opts, callOptions(req)...)
	if stream != nil {
		opts = append(opts, llms.WithStreamingFunc(stream))
	}
	resp, err := p.m.GenerateContent(ctx, msgs, opts...)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.As(err, new(*llms.Error)) {
			return nil, fmt.Errorf("%s: %w", p.opts.Name, ctxErr)
		}
		return nil, p.providerError(err)
	}
	if resp == nil || len(resp.Choices) == 0 || resp.Choices[0] == nil {
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: p.opts.Name, Message: "the model returned no choice"}
	}
	return response(resp.Choices[0]), nil
}

// messages maps the request's conversation to LangChainGo's.
func messages(req *provider.Request) ([]llms.MessageContent, error) {
	var out []llms.MessageContent
	if req.System != "" {
		out = append(out, llms.TextParts(llms.ChatMessageTypeSystem, req.System))
	}
	for i, m := range req.Messages {
		switch m.Role {
		case provider.RoleUser:
			out = append(out, llms.TextParts(llms.ChatMessageTypeHuman, m.Content))
		case provider.RoleAssistant:
			mc := llms.MessageContent{Role: llms.ChatMessageTypeAI}
			if m.Content != "" {
				mc.Parts = append(mc.Parts, llms.TextContent{Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				mc.Parts = append(mc.Parts, llms.ToolCall{ID: tc.ID, Type: "function",
					FunctionCall: &llms.FunctionCall{Name: tc.Name, Arguments: string(tc.Arguments)}})
			}
			out = append(out, mc)
		case provider.RoleTool:
			out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeTool,
				Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: m.ToolCallID, Content: m.Content}}})
		default:
			return nil, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	return out, nil
}

// callOptions maps the request's tools, tool choice, JSON mode and token
// limit to call options.
func callOptions(req *provider.Request) []llms.CallOption {
	var opts []llms.CallOption
	if req.MaxTokens > 0 {
		opts = append(opts, llms.WithMaxTokens(req.MaxTokens))
	}
	if len(req.Tools) > 0 {
		tools := make([]llms.Tool, len(req.Tools))
		for i, t := range req.Tools {
			var params any
			if len(t.InputSchema) > 0 {
				params = json.RawMessage(t.InputSchema)
			}
			tools[i] = llms.Tool{Type: "function", Function: &llms.FunctionDefinition{
				Name: t.Name, Description: t.Description, Parameters: params, Strict: t.Strict}}
		}
		opts = append(opts, llms.WithTools(tools))
	}
	switch req.ToolChoice.Mode {
	case provider.ToolChoiceTool:
		opts = append(opts, llms.WithToolChoice(llms.ToolChoice{Type: "function", Function: &llms.FunctionReference{Name: req.ToolChoice.Name}}))
	case provider.ToolChoiceRequired:
		opts = append(opts, llms.WithToolChoice("required"))
	case provider.ToolChoiceNone:
		opts = append(opts, llms.WithToolChoice("none"))
	}
	if req.Output != nil && req.Output.Format == provider.FormatJSONObject {
		opts = append(opts, llms.WithJSONMode())
	}
	return opts
}

// response maps a choice to a Response.
func response(c *llms.ContentChoice) *provider.Response {
	resp := &provider.Response{Text: c.Content, RawStopReason: c.StopReason, StopReason: stopReason(c.StopReason)}
	for _, tc := range c.ToolCalls {
		if tc.FunctionCall == nil {
			continue
		}
		resp.ToolCalls = append(resp.ToolCalls, provider.ToolCall{ID: tc.ID, Name: tc.FunctionCall.Name, Arguments: json.RawMessage(tc.FunctionCall.Arguments)})
	}
	if c.FuncCall != nil && len(resp.ToolCalls) == 0 {
		resp.ToolCalls = append(resp.ToolCalls, provider.ToolCall{Name: c.FuncCall.Name, Arguments: json.RawMessage(c.FuncCall.Arguments)})
	}
	if len(resp.ToolCalls) > 0 && resp.StopReason == provider.StopEnd {
		resp.StopReason = provider.StopToolUse
	}
	if resp.StopReason == provider.StopRefusal && resp.Refusal == "" {
		resp.Refusal = c.Content
	}
	resp.Usage = usage(c.GenerationInfo)
	return resp
}

// stopReason maps the stop reasons LangChainGo's clients pass on (each
// provider's own word) to agentio's; "" is a reply that ended. The googleai
// and vertex clients pass on genai.FinishReason.String(), the word prefixed
// with "FinishReason" ("FinishReasonMaxTokens").
func stopReason(raw string) provider.StopReason {
	word := strings.ToLower(raw)
	if w, ok := strings.CutPrefix(word, "finishreason"); ok && w != "" {
		word = w
	}
	switch word {
	case "", "stop", "end_turn", "stop_sequence", "eos", "complete", "end":
		return provider.StopEnd
	case "length", "max_tokens", "maxtokens", "max_output_tokens", "model_length":
		return provider.StopLength
	case "tool_calls", "tool_use", "function_call":
		return provider.StopToolUse
	case "refusal":
		return provider.StopRefusal
	case "content_filter", "safety", "blocklist", "prohibited_content", "spii", "recitation":
		return provider.StopContentFilter
	}
	return provider.StopOther
}

// usage reads the token counts LangChainGo's clients put in
// GenerationInfo, under the names each uses.
func usage(info map[string]any) provider.Usage {
	n := func(keys ...string) int {
		for _, k := range keys {
			switch v := info[k].(type) {
			case int:
				return v
			case int32:
				return int(v)
			case int64:
				return int(v)
			case float64:
				return int(v)
			}
		}
		return 0
	}
	u := provider.Usage{
		InputTokens:     n("PromptTokens", "InputTokens", "input_tokens", "prompt_tokens"),
		OutputTokens:    n("CompletionTokens", "OutputTokens", "output_tokens", "completion_tokens"),
		TotalTokens:     n("TotalTokens", "total_tokens"),
		ReasoningTokens: n("ReasoningTokens", "CompletionReasoningTokens", "reasoning_tokens"),
		// openai, anthropic, googleai
		CachedInputTokens: n("PromptCachedTokens", "CacheReadInputTokens", "CachedTokens"),
	}
	if u.TotalTokens == 0 {
		u.TotalTokens = u.InputTokens + u.OutputTokens
	}
	return u
}

// providerError classifies an error of the model by its llms.Error code.
func (p *Provider) providerError(err error) error {
	kind := provider.ErrOther
	var le *llms.Error
	if errors.As(err, &le) {
		switch le.Code {
		case llms.ErrCodeRateLimit, llms.ErrCodeQuotaExceeded:
			kind = provider.ErrRateLimited
		case llms.ErrCodeAuthentication:
			kind = provider.ErrAuth
		case llms.ErrCodeInvalidRequest, llms.ErrCodeResourceNotFound, llms.ErrCodeTokenLimit, llms.ErrCodeNotImplemented:
			kind = provider.ErrInvalidRequest
		case llms.ErrCodeProviderUnavailable, llms.ErrCodeTimeout:
			kind = provider.ErrOverloaded
		}
	}
	return &provider.Error{Kind: kind, Provider: p.opts.Name, Message: err.Error(), Err: err}
}
