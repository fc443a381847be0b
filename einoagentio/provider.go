package einoagentio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"

	"github.com/agentio/agentio/provider"
)

// Options configure a [Provider]. A nil *Options is the zero Options;
// [NewProvider] copies it.
type Options struct {
	// Name is the provider's name in errors and recordings (default
	// "eino").
	Name string
	// Capabilities say what the model supports, for enforce's choice of
	// mode. The zero value is a text model: the schema goes into the
	// prompt. Set Tools and ForcedTool for a model that takes tools (a
	// model.ToolCallingChatModel, or one that reads model.WithTools) and
	// a forced tool choice. Eino's options carry no output schema, so
	// NativeSchema is refused by NewProvider.
	Capabilities provider.Capabilities
	// CallOptions are added to every call, before the request's own
	// (model.WithModel, model.WithTemperature, ...).
	CallOptions []model.Option
	// Classify returns the kind of an error of the model, which Eino
	// passes on from the model's client as it is. nil classifies an error
	// holding a *provider.Error by its kind, and any other as
	// provider.ErrOther; the loop then ends the run with it.
	Classify func(error) provider.ErrorKind
}

// A Provider is a [provider.Provider] and [provider.Streamer] over an Eino
// chat model (model.BaseChatModel): enforce, blueprint, eval and record
// then run on any model Eino reaches. It maps the request's system
// prompt, messages, tools, forced tool choice and token limit to Eino's
// messages and options, and the reply's content, tool calls, finish
// reason and usage back. A model.ToolCallingChatModel is given the tools
// through WithTools, per call, so the model itself is never changed.
//
// A Provider is safe for concurrent use when its model is.
type Provider struct {
	m    model.BaseChatModel
	opts Options
}

var (
	_ provider.Provider = (*Provider)(nil)
	_ provider.Streamer = (*Provider)(nil)
)

// NewProvider returns a Provider over m. It fails with an error matching
// [ErrInvalidOption] for a nil m or for Capabilities.NativeSchema.
func NewProvider(m model.BaseChatModel, opts *Options) (*Provider, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil model", ErrInvalidOption)
	}
	var o Options
	if opts != nil {
		o = *opts
		o.CallOptions = append([]model.Option(nil), opts.CallOptions...)
	}
	if o.Name == "" {
		o.Name = "eino"
	}
	if o.Capabilities.NativeSchema || o.Capabilities.StrictSchema {
		return nil, fmt.Errorf("%w: Eino's model options carry no output schema (NativeSchema)", ErrInvalidOption)
	}
	return &Provider{m: m, opts: o}, nil
}

// Capabilities returns Options.Capabilities.
func (p *Provider) Capabilities() provider.Capabilities { return p.opts.Capabilities }

// Generate sends req to the model.
func (p *Provider) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	m, msgs, opts, err := p.prepare(req)
	if err != nil {
		return nil, err
	}
	ctx, report := p.callbacks(ctx, msgs)
	msg, err := m.Generate(ctx, msgs, opts...)
	if err == nil && msg == nil {
		err = &provider.Error{Kind: provider.ErrOther, Provider: p.opts.Name, Message: "the model returned no message"}
	}
	report(msg, err)
	if err != nil {
		return nil, p.providerError(ctx, err)
	}
	return response(msg), nil
}

// callbacks tells the Eino callback handlers in ctx of one call of the
// model, as a chat model component does, unless the model tells them
// itself (components.Checker): it returns the context of the call and the
// function that reports its end.
func (p *Provider) callbacks(ctx context.Context, msgs []*schema.Message) (context.Context, func(*schema.Message, error)) {
	if c, ok := p.m.(components.Checker); ok && c.IsCallbacksEnabled() {
		return ctx, func(*schema.Message, error) {}
	}
	ctx = callbacks.ReuseHandlers(ctx, &callbacks.RunInfo{Name: p.opts.Name, Type: "agentio", Component: components.ComponentOfChatModel})
	ctx = callbacks.OnStart(ctx, &model.CallbackInput{Messages: msgs})
	return ctx, func(msg *schema.Message, err error) {
		if err != nil {
			callbacks.OnError(ctx, err)
			return
		}
		out := &model.CallbackOutput{Message: msg}
		if msg.ResponseMeta != nil && msg.ResponseMeta.Usage != nil {
			u := msg.ResponseMeta.Usage
			out.TokenUsage = &model.TokenUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
		}
		callbacks.OnEnd(ctx, out)
	}
}

// Stream sends req to the model's Stream and yields each chunk's content
// and tool-call pieces as they come, then the whole reply. A consumer that
// stops iterating, or a context cancelled mid-stream, closes the model's
// stream.
func (p *Provider) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		m, msgs, opts, err := p.prepare(req)
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		ctx, report := p.callbacks(ctx, msgs)
		sr, err := m.Stream(ctx, msgs, opts...)
		if err != nil {
			report(nil, err)
			yield(provider.Chunk{}, p.providerError(ctx, err))
			return
		}
		defer sr.Close()
		var parts []*schema.Message
		nextCall := 0 // the index of a call streamed whole
		for {
			// An Eino stream's sender need not watch the context: a call
			// cancelled mid-stream ends here, and the deferred Close
			// tells the sender.
			if ctxErr := ctx.Err(); ctxErr != nil {
				report(nil, ctxErr)
				yield(provider.Chunk{}, fmt.Errorf("%s: %w", p.opts.Name, ctxErr))
				return
			}
			msg, err := sr.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				report(nil, err)
				yield(provider.Chunk{}, p.providerError(ctx, err))
				return
			}
			if msg == nil {
				continue
			}
			parts = append(parts, msg)
			if msg.Content != "" && !yield(provider.Chunk{Text: msg.Content}, nil) {
				report(nil, errStopped)
				return
			}
			for _, tc := range msg.ToolCalls {
				// A call with an Index is a piece of that call; one
				// without is a whole call (schema.ConcatMessages), the
				// next of the reply's.
				index := nextCall
				if tc.Index != nil {
					index = *tc.Index
				}
				nextCall = max(nextCall, index+1)
				d := &provider.ToolCallDelta{Index: index, ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
				if !yield(provider.Chunk{ToolCall: d}, nil) {
					report(nil, errStopped)
					return
				}
			}
		}
		whole, err := schema.ConcatMessages(parts)
		if len(parts) == 0 {
			whole, err = &schema.Message{Role: schema.Assistant}, nil
		}
		if err != nil {
			report(nil, err)
			yield(provider.Chunk{}, &provider.Error{Kind: provider.ErrOther, Provider: p.opts.Name, Message: err.Error(), Err: err})
			return
		}
		report(whole, nil)
		yield(provider.Chunk{Response: response(whole)}, nil)
	}
}

// prepare maps req to the model to call, its messages and options.
func (p *Provider) prepare(req *provider.Request) (model.BaseChatModel, []*schema.Message, []model.Option, error) {
	if req == nil {
		return nil, nil, nil, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.opts.Name, Message: "nil request"}
	}
	msgs, err := messages(req)
	if err != nil {
		return nil, nil, nil, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.opts.Name, Message: err.Error(), Err: err}
	}
	tools, err := toolInfos(req.Tools)
	if err != nil {
		return nil, nil, nil, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.opts.Name, Message: err.Error(), Err: err}
	}
	opts := append([]model.Option(nil), p.opts.CallOptions...)
	if req.MaxTokens > 0 {
		opts = append(opts, model.WithMaxTokens(req.MaxTokens))
	}
	m := p.m
	if len(tools) > 0 {
		if tm, ok := m.(model.ToolCallingChatModel); ok {
			bound, err := tm.WithTools(tools)
			if err != nil {
				return nil, nil, nil, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.opts.Name, Message: "binding tools: " + err.Error(), Err: err}
			}
			m = bound
		} else {
			opts = append(opts, model.WithTools(tools))
		}
	}
	switch req.ToolChoice.Mode {
	case provider.ToolChoiceTool:
		opts = append(opts, model.WithToolChoice(schema.ToolChoiceForced, req.ToolChoice.Name))
	case provider.ToolChoiceRequired:
		opts = append(opts, model.WithToolChoice(schema.ToolChoiceForced))
	case provider.ToolChoiceNone:
		opts = append(opts, model.WithToolChoice(schema.ToolChoiceForbidden))
	}
	return m, msgs, opts, nil
}

// messages maps the request's conversation to Eino's.
func messages(req *provider.Request) ([]*schema.Message, error) {
	var out []*schema.Message
	if req.System != "" {
		out = append(out, schema.SystemMessage(req.System))
	}
	for i, m := range req.Messages {
		switch m.Role {
		case provider.RoleUser:
			out = append(out, schema.UserMessage(m.Content))
		case provider.RoleAssistant:
			var calls []schema.ToolCall
			for _, tc := range m.ToolCalls {
				calls = append(calls, schema.ToolCall{ID: tc.ID, Type: "function", Function: schema.FunctionCall{Name: tc.Name, Arguments: string(tc.Arguments)}})
			}
			out = append(out, schema.AssistantMessage(m.Content, calls))
		case provider.RoleTool:
			out = append(out, schema.ToolMessage(m.Content, m.ToolCallID))
		default:
			return nil, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	return out, nil
}

// toolInfos maps tools to Eino's, each input schema as its parameters.
func toolInfos(tools []provider.Tool) ([]*schema.ToolInfo, error) {
	var out []*schema.ToolInfo
	for _, t := range tools {
		info := &schema.ToolInfo{Name: t.Name, Desc: t.Description}
		if len(t.InputSchema) > 0 {
			js := new(jsonschema.Schema)
			if err := json.Unmarshal(t.InputSchema, js); err != nil {
				return nil, fmt.Errorf("tool %q: input schema: %w", t.Name, err)
			}
			info.ParamsOneOf = schema.NewParamsOneOfByJSONSchema(js)
		}
		out = append(out, info)
	}
	return out, nil
}

// response maps a message to a Response.
func response(msg *schema.Message) *provider.Response {
	resp := &provider.Response{Text: msg.Content}
	for _, tc := range msg.ToolCalls {
		resp.ToolCalls = append(resp.ToolCalls, provider.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)})
	}
	if meta := msg.ResponseMeta; meta != nil {
		resp.RawStopReason = meta.FinishReason
		if u := meta.Usage; u != nil {
			resp.Usage = provider.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, TotalTokens: u.TotalTokens,
				CachedInputTokens: u.PromptTokenDetails.CachedTokens, ReasoningTokens: u.CompletionTokensDetails.ReasoningTokens}
			if resp.Usage.TotalTokens == 0 {
				resp.Usage.TotalTokens = resp.Usage.InputTokens + resp.Usage.OutputTokens
			}
		}
	}
	resp.StopReason = stopReason(resp.RawStopReason)
	if len(resp.ToolCalls) > 0 && resp.StopReason == provider.StopEnd {
		resp.StopReason = provider.StopToolUse
	}
	if resp.StopReason == provider.StopRefusal {
		resp.Refusal = msg.Content
	}
	return resp
}

// stopReason maps the finish reasons Eino's models report (each
// provider's own word, Gemini's in capitals or as "FinishReasonMaxTokens")
// to agentio's; "" is a reply that ended.
func stopReason(raw string) provider.StopReason {
	word := strings.ToLower(strings.TrimPrefix(raw, "FinishReason"))
	if word == "maxtokens" {
		word = "max_tokens"
	}
	switch word {
	case "", "stop", "end_turn", "stop_sequence", "eos", "null":
		return provider.StopEnd
	case "length", "max_tokens", "max_output_tokens":
		return provider.StopLength
	case "tool_calls", "tool_use", "function_call":
		return provider.StopToolUse
	case "refusal":
		return provider.StopRefusal
	case "content_filter", "safety", "sensitive", "prohibited_content", "blocklist", "spii", "recitation", "image_safety":
		return provider.StopContentFilter
	}
	return provider.StopOther
}

// providerError wraps an error of the model. Eino's models return their
// clients' errors as they are: a *provider.Error in the chain keeps its
// kind, the context's error is the context's, any other is classified by
// Options.Classify (ErrOther without it).
func (p *Provider) providerError(ctx context.Context, err error) error {
	var pe *provider.Error
	if errors.As(err, &pe) {
		return err
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("%s: %w", p.opts.Name, ctxErr)
	}
	kind := provider.ErrOther
	if p.opts.Classify != nil {
		if k := p.opts.Classify(err); k != "" {
			kind = k
		}
	}
	return &provider.Error{Kind: kind, Provider: p.opts.Name, Message: err.Error(), Err: err}
}

// errStopped is reported to the callbacks of a streamed call whose reader
// stopped reading: the call ends there, without a reply.
var errStopped = errors.New("einoagentio: the stream's reader stopped reading")
