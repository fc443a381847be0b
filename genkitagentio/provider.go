package genkitagentio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/core"

	"github.com/agentio/agentio/provider"
)

// Options configure a [Provider]. A nil *Options is the zero Options;
// [NewProvider] copies it.
type Options struct {
	// Name is the provider's name in errors and recordings (default: the
	// model's name).
	Name string
	// Capabilities say what the model supports, for enforce's choice of
	// mode. The zero value is a text model: the schema goes into the
	// prompt. Genkit carries an output schema (ModelRequest.Output), so a
	// model that constrains its output to one takes NativeSchema; Tools
	// for one that takes tools. Genkit's tool choice has no named tool, so
	// a forced tool is sent as "required" with that tool alone.
	Capabilities provider.Capabilities
	// Config is the model's configuration, sent as ModelRequest.Config.
	// A request's MaxTokens is set in it when it is an
	// ai.GenerationCommonConfig (or a pointer to one; the Provider's copy
	// is never changed) or nil; a plugin's own config type carries its own
	// token limit, which MaxTokens does not reach.
	Config any
}

// A Provider is a [provider.Provider] and [provider.Streamer] over a
// Genkit model (ai.Model): enforce, blueprint, eval and record then run on
// any model Genkit reaches. It maps the request's system prompt, messages,
// tools, tool choice and output schema to a ModelRequest, and the
// response's text, tool requests, finish reason and usage back; an error
// of the model is a [*provider.Error] of the kind its Genkit status says.
//
// A Provider is safe for concurrent use when its model is.
type Provider struct {
	m    ai.Model
	opts Options
}

var (
	_ provider.Provider = (*Provider)(nil)
	_ provider.Streamer = (*Provider)(nil)
)

// NewProvider returns a Provider over m. It fails with an error matching
// [ErrInvalidOption] for a nil m.
func NewProvider(m ai.Model, opts *Options) (*Provider, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil model", ErrInvalidOption)
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = m.Name()
	}
	return &Provider{m: m, opts: o}, nil
}

// Capabilities returns Options.Capabilities.
func (p *Provider) Capabilities() provider.Capabilities { return p.opts.Capabilities }

// Generate sends req to the model.
func (p *Provider) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	mr, err := p.request(req)
	if err != nil {
		return nil, err
	}
	resp, err := p.m.Generate(ctx, mr, nil)
	if err != nil {
		return nil, p.providerError(ctx, err)
	}
	return response(resp), nil
}

// Stream sends req with a stream callback and yields each chunk's text as
// the model writes it, then the whole reply. A consumer that stops
// iterating makes the callback return an error, which ends the model's
// call, and waits for the call to return.
func (p *Provider) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	mr, err := p.request(req)
	if err != nil {
		return func(yield func(provider.Chunk, error) bool) { yield(provider.Chunk{}, err) }
	}
	return provider.StreamCall(ctx, func(ctx context.Context, send func(string) error) (*provider.Response, error) {
		resp, err := p.m.Generate(ctx, mr, func(_ context.Context, c *ai.ModelResponseChunk) error {
			var text strings.Builder
			for _, part := range c.Content {
				if part.IsText() {
					text.WriteString(part.Text)
				}
			}
			return send(text.String())
		})
		if err != nil {
			return nil, p.providerError(ctx, err)
		}
		return response(resp), nil
	})
}

// request maps req to a ModelRequest.
func (p *Provider) request(req *provider.Request) (*ai.ModelRequest, error) {
	if req == nil {
		return nil, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.opts.Name, Message: "nil request"}
	}
	mr := &ai.ModelRequest{Config: p.opts.Config}
	if req.System != "" {
		mr.Messages = append(mr.Messages, ai.NewSystemTextMessage(req.System))
	}
	for i, m := range req.Messages {
		switch m.Role {
		case provider.RoleUser:
			mr.Messages = append(mr.Messages, ai.NewUserTextMessage(m.Content))
		case provider.RoleAssistant:
			var parts []*ai.Part
			if m.Content != "" {
				parts = append(parts, ai.NewTextPart(m.Content))
			}
			for _, tc := range m.ToolCalls {
				var input any
				if len(tc.Arguments) > 0 {
					if err := json.Unmarshal(tc.Arguments, &input); err != nil {
						input = string(tc.Arguments) // not JSON: kept as the model wrote it
					}
				}
				parts = append(parts, ai.NewToolRequestPart(&ai.ToolRequest{Ref: tc.ID, Name: tc.Name, Input: input}))
			}
			mr.Messages = append(mr.Messages, ai.NewModelMessage(parts...))
		case provider.RoleTool:
			mr.Messages = append(mr.Messages, ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Ref: m.ToolCallID, Output: m.Content})))
		default:
			return nil, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.opts.Name, Message: fmt.Sprintf("message %d: unknown role %q", i, m.Role)}
		}
	}
	for _, t := range req.Tools {
		if req.ToolChoice.Mode == provider.ToolChoiceTool && t.Name != req.ToolChoice.Name {
			continue // Genkit cannot name the tool: offer it alone
		}
		var input map[string]any
		if len(t.InputSchema) > 0 {
			if err := json.Unmarshal(t.InputSchema, &input); err != nil {
				return nil, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.opts.Name, Message: fmt.Sprintf("tool %q: input schema: %v", t.Name, err), Err: err}
			}
		}
		mr.Tools = append(mr.Tools, &ai.ToolDefinition{Name: t.Name, Description: t.Description, InputSchema: input})
	}
	switch req.ToolChoice.Mode {
	case provider.ToolChoiceTool, provider.ToolChoiceRequired:
		mr.ToolChoice = ai.ToolChoiceRequired
	case provider.ToolChoiceNone:
		mr.ToolChoice = ai.ToolChoiceNone
	}
	if out := req.Output; out != nil {
		oc := &ai.ModelOutputConfig{Format: "json", ContentType: "application/json"}
		if len(out.Schema) > 0 && out.Format != provider.FormatJSONObject {
			if err := json.Unmarshal(out.Schema, &oc.Schema); err != nil {
				return nil, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.opts.Name, Message: "output schema: " + err.Error(), Err: err}
			}
			oc.Constrained = true
		}
		mr.Output = oc
	}
	if req.MaxTokens > 0 {
		switch c := mr.Config.(type) {
		case nil:
			mr.Config = &ai.GenerationCommonConfig{MaxOutputTokens: req.MaxTokens}
		case *ai.GenerationCommonConfig:
			withMax := *c
			withMax.MaxOutputTokens = req.MaxTokens
			mr.Config = &withMax
		case ai.GenerationCommonConfig:
			c.MaxOutputTokens = req.MaxTokens
			mr.Config = &c
		}
	}
	return mr, nil
}

// response maps a ModelResponse.
func response(mr *ai.ModelResponse) *provider.Response {
	resp := &provider.Response{}
	if mr == nil {
		resp.StopReason = provider.StopOther
		return resp
	}
	if mr.Message != nil {
		var text strings.Builder
		for _, part := range mr.Message.Content {
			switch {
			case part.IsText():
				text.WriteString(part.Text)
			case part.IsToolRequest() && part.ToolRequest != nil:
				args, err := json.Marshal(part.ToolRequest.Input)
				if s, ok := part.ToolRequest.Input.(string); ok && !json.Valid([]byte(s)) || err != nil {
					args = []byte(fmt.Sprint(part.ToolRequest.Input)) // not JSON: as the model wrote it
				}
				resp.ToolCalls = append(resp.ToolCalls, provider.ToolCall{ID: part.ToolRequest.Ref, Name: part.ToolRequest.Name, Arguments: args})
			}
		}
		resp.Text = text.String()
	}
	resp.RawStopReason = string(mr.FinishReason)
	switch mr.FinishReason {
	case ai.FinishReasonStop, "":
		resp.StopReason = provider.StopEnd
		if len(resp.ToolCalls) > 0 {
			resp.StopReason = provider.StopToolUse
		}
	case ai.FinishReasonLength:
		resp.StopReason = provider.StopLength
	case ai.FinishReasonBlocked:
		resp.StopReason = provider.StopContentFilter
		resp.Refusal = mr.FinishMessage
	default:
		resp.StopReason = provider.StopOther
	}
	if u := mr.Usage; u != nil {
		resp.Usage = provider.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens,
			CachedInputTokens: u.CachedContentTokens, ReasoningTokens: u.ThoughtsTokens}
		if resp.Usage.TotalTokens == 0 {
			resp.Usage.TotalTokens = resp.Usage.InputTokens + resp.Usage.OutputTokens
		}
	}
	return resp
}

// providerError classifies an error of the model by its Genkit status.
func (p *Provider) providerError(ctx context.Context, err error) error {
	var pe *provider.Error
	if errors.As(err, &pe) {
		return err
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("%s: %w", p.opts.Name, ctxErr)
	}
	kind := provider.ErrOther
	var ge *core.GenkitError
	if errors.As(err, &ge) {
		switch ge.Status {
		case core.RESOURCE_EXHAUSTED:
			kind = provider.ErrRateLimited
		case core.UNAUTHENTICATED, core.PERMISSION_DENIED:
			kind = provider.ErrAuth
		case core.INVALID_ARGUMENT, core.NOT_FOUND, core.FAILED_PRECONDITION, core.OUT_OF_RANGE, core.UNIMPLEMENTED:
			kind = provider.ErrInvalidRequest
		case core.UNAVAILABLE, core.DEADLINE_EXCEEDED, core.INTERNAL:
			kind = provider.ErrOverloaded
		}
	}
	return &provider.Error{Kind: kind, Provider: p.opts.Name, Message: err.Error(), Err: err}
}
