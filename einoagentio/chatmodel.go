package einoagentio

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	agentschema "github.com/agentio/agentio/schema"
)

// ChatModelOptions configure a [ChatModel] and a node ([NewNode]). A nil
// *ChatModelOptions is the zero ChatModelOptions; the constructors copy it.
type ChatModelOptions struct {
	// Provider configures the [Provider] the model is called through.
	Provider *Options
	// Enforce are the options of each run (enforce.WithMaxRetries,
	// enforce.WithRepair, enforce.WithAttemptHook, ...).
	Enforce []enforce.Option
}

// A ChatModel is an Eino chat model (model.BaseChatModel) that answers
// only with output valid against its schema: each Generate is an
// enforce.Run over the wrapped model, re-asking it with every violation
// until a reply is valid or the re-asks are spent, and the message it
// returns holds the valid JSON. A run that ends without a valid output
// returns enforce's typed error (a *enforce.ValidationError, or one
// matching enforce.ErrRefused), never a message the model did not give.
// Each of the wrapped model's calls is told to the Eino callbacks in the
// context, as a chat model's own call is, so a graph's handlers see every
// attempt.
//
// The input's system messages become the system prompt and the others the
// conversation, the last of which is the user's turn. A ChatModel is safe
// for concurrent use when the wrapped model is.
type ChatModel struct {
	p    *Provider
	s    *agentschema.Schema
	opts []enforce.Option
}

var _ model.BaseChatModel = (*ChatModel)(nil)

// NewChatModel returns a ChatModel over m for the schema s. It fails with
// an error matching [ErrInvalidOption] for a nil m or s, and with
// enforce's for a bad enforce option.
func NewChatModel(m model.BaseChatModel, s *agentschema.Schema, opts *ChatModelOptions) (*ChatModel, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil schema", ErrInvalidOption)
	}
	var o ChatModelOptions
	if opts != nil {
		o = *opts
	}
	p, err := NewProvider(m, o.Provider)
	if err != nil {
		return nil, err
	}
	eopts := append([]enforce.Option(nil), o.Enforce...)
	if _, err := enforce.New(s, eopts...); err != nil {
		return nil, err
	}
	return &ChatModel{p: p, s: s, opts: eopts}, nil
}

// Generate runs the contract on input and returns the valid output as an
// assistant message: its JSON as Content, finish reason "stop", and the
// usage of every attempt. opts are the wrapped model's call options,
// added to those of ChatModelOptions.Provider.
func (c *ChatModel) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	res, err := c.run(ctx, input, opts, nil)
	if err != nil {
		return nil, err
	}
	return validMessage(res), nil
}

// Stream is Generate, streamed the way the contract allows: the wrapped
// model is streamed, so a reply that goes wrong is stopped early and
// re-asked, and the stream then gives the valid output, in one message.
// Nothing the model wrote before it was valid reaches the stream; use a
// node ([NewNode]) for the partial values as they complete.
func (c *ChatModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	res, err := c.run(ctx, input, opts, func(enforce.Partial) {})
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{validMessage(res)}), nil
}

// run runs the contract on input, streaming when partial is set.
func (c *ChatModel) run(ctx context.Context, input []*schema.Message, callOpts []model.Option, partial func(enforce.Partial)) (*enforce.Result, error) {
	req, err := request(input)
	if err != nil {
		return nil, err
	}
	p := c.p
	if len(callOpts) > 0 {
		withCall := *p
		withCall.opts.CallOptions = append(append([]model.Option(nil), p.opts.CallOptions...), callOpts...)
		p = &withCall
	}
	opts := c.opts
	if partial != nil {
		opts = append(opts[:len(opts):len(opts)], enforce.WithPartials(partial))
	}
	return enforce.Run(ctx, p, req, c.s, opts...)
}

// request maps an Eino conversation to an enforce request.
func request(input []*schema.Message) (enforce.Request, error) {
	var req enforce.Request
	var system []string
	for i, m := range input {
		if m == nil {
			return req, fmt.Errorf("%w: message %d is nil", ErrInvalidOption, i)
		}
		switch m.Role {
		case schema.System:
			system = append(system, m.Content)
		case schema.User:
			req.Messages = append(req.Messages, provider.UserMessage(m.Content))
		case schema.Assistant:
			pm := provider.Message{Role: provider.RoleAssistant, Content: m.Content}
			for _, tc := range m.ToolCalls {
				pm.ToolCalls = append(pm.ToolCalls, provider.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)})
			}
			req.Messages = append(req.Messages, pm)
		case schema.Tool:
			req.Messages = append(req.Messages, provider.Message{Role: provider.RoleTool, ToolCallID: m.ToolCallID, Content: m.Content})
		default:
			return req, fmt.Errorf("%w: message %d: unknown role %q", ErrInvalidOption, i, m.Role)
		}
	}
	req.System = strings.Join(system, "\n\n")
	if len(req.Messages) == 0 || req.Messages[len(req.Messages)-1].Role != provider.RoleUser {
		return req, fmt.Errorf("%w: the conversation must end with the user's turn", ErrInvalidOption)
	}
	return req, nil
}

// validMessage is the assistant message of a valid run.
func validMessage(res *enforce.Result) *schema.Message {
	msg := schema.AssistantMessage(string(res.JSON), nil)
	msg.ResponseMeta = &schema.ResponseMeta{FinishReason: "stop", Usage: &schema.TokenUsage{
		PromptTokens: res.Usage.InputTokens, CompletionTokens: res.Usage.OutputTokens, TotalTokens: res.Usage.TotalTokens}}
	return msg
}

// An Output is what a node of [NewNode] emits: a partial value while the model
// writes (Partial true), then the valid output.
type Output struct {
	// Partial reports a value still being written: its complete parts,
	// the open objects and arrays closed (see enforce.Partial). The
	// partials of a re-asked attempt follow those of the failed one.
	Partial bool
	// Attempt is the attempt the value comes from, from 1.
	Attempt int
	// Value is the value, decoded; JSON its text.
	Value any
	JSON  json.RawMessage
	// Result is the run's record, on the valid output only.
	Result *enforce.Result
}

// NewNode returns a node for an Eino graph or chain (a compose.Lambda)
// that takes a conversation ([]*schema.Message) and emits only the output
// valid against s: invoked, the valid [Output]; streamed, an Output per
// partial value as the model writes, then the valid Output last; a
// reader closed before the end stops the run and the model's call. A run
// that ends without a valid output ends the node with enforce's typed
// error. Each attempt is told to the graph's callbacks as a chat model
// call. Streamed into a node that is invoked, the outputs are joined by
// [LastOutput], which Eino needs registered once:
//
//	compose.RegisterStreamChunkConcatFunc(einoagentio.LastOutput)
func NewNode(m model.BaseChatModel, s *agentschema.Schema, opts *ChatModelOptions) (*compose.Lambda, error) {
	c, err := NewChatModel(m, s, opts)
	if err != nil {
		return nil, err
	}
	invoke := func(ctx context.Context, input []*schema.Message, _ ...struct{}) (Output, error) {
		res, err := c.run(ctx, input, nil, nil)
		if err != nil {
			return Output{}, err
		}
		return Output{Attempt: len(res.Attempts), Value: res.Value, JSON: res.JSON, Result: res}, nil
	}
	stream := func(ctx context.Context, input []*schema.Message, _ ...struct{}) (*schema.StreamReader[Output], error) {
		sr, sw := schema.Pipe[Output](16)
		go func() {
			defer sw.Close()
			// A reader closed early stops the run: its context is
			// cancelled, which stops the model's call and any re-ask.
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			res, err := c.run(ctx, input, nil, func(p enforce.Partial) {
				if closed := sw.Send(Output{Partial: true, Attempt: p.Attempt, Value: p.Value, JSON: p.JSON}, nil); closed {
					cancel()
				}
			})
			if err != nil {
				sw.Send(Output{}, err)
				return
			}
			sw.Send(Output{Attempt: len(res.Attempts), Value: res.Value, JSON: res.JSON, Result: res}, nil)
		}()
		return sr, nil
	}
	return compose.AnyLambda(invoke, stream, nil, nil)
}

// LastOutput joins a node's streamed outputs: the last one, the valid
// output, stands for the stream.
func LastOutput(outs []Output) (Output, error) {
	if len(outs) == 0 {
		return Output{}, fmt.Errorf("einoagentio: no output in the stream")
	}
	return outs[len(outs)-1], nil
}
