package langchaingoagentio

import (
	"context"
	"fmt"

	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/memory"
	lcschema "github.com/tmc/langchaingo/schema"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/schema"
)

// ChainOptions configure a [Chain]. A nil *ChainOptions is the zero
// ChainOptions; [NewChain] copies it.
type ChainOptions struct {
	// InputKey is the input holding the prompt (default "input").
	InputKey string
	// OutputKey is the output holding the valid value (default "output");
	// the output also holds its JSON under OutputKey + "_json".
	OutputKey string
	// System is the system prompt of every call.
	System string
	// Provider configures the [Provider] the chain calls the model through.
	Provider *Options
	// Enforce are the options of each run (enforce.WithMaxRetries,
	// enforce.WithRepair, enforce.WithAttemptHook, ...).
	Enforce []enforce.Option
}

// A Chain is a LangChainGo chain (chains.Chain) whose output keeps a
// contract: it sends the prompt from its input with the schema's
// instructions, validates the reply, re-asks the model with every
// violation until the reply is valid or the re-asks are spent, and puts
// the valid value in its output. A run that ends without a valid value
// returns enforce's typed error (a *enforce.ValidationError, or one
// matching enforce.ErrRefused), never a value the model did not give.
//
// A Chain is safe for concurrent use when its model is.
type Chain struct {
	p         *Provider
	s         *schema.Schema
	opts      ChainOptions
	inputKey  string
	outputKey string
	mem       lcschema.Memory
}

var _ chains.Chain = (*Chain)(nil)

// NewChain returns a Chain over m for the schema s. It fails with an
// error matching [ErrInvalidOption] for a nil m or s, and with enforce's
// for a bad enforce option.
func NewChain(m llms.Model, s *schema.Schema, opts *ChainOptions) (*Chain, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil schema", ErrInvalidOption)
	}
	var o ChainOptions
	if opts != nil {
		o = *opts
		o.Enforce = append([]enforce.Option(nil), opts.Enforce...)
	}
	p, err := NewProvider(m, o.Provider)
	if err != nil {
		return nil, err
	}
	if _, err := enforce.New(s, o.Enforce...); err != nil {
		return nil, err
	}
	c := &Chain{p: p, s: s, opts: o, inputKey: o.InputKey, outputKey: o.OutputKey, mem: memory.NewSimple()}
	if c.inputKey == "" {
		c.inputKey = "input"
	}
	if c.outputKey == "" {
		c.outputKey = "output"
	}
	return c, nil
}

// Call runs the contract on inputs[InputKey], a string, and returns
// {OutputKey: value, OutputKey+"_json": its JSON as a string}. The
// chain call options are not used: the model is configured through
// ChainOptions.Provider.
func (c *Chain) Call(ctx context.Context, inputs map[string]any, _ ...chains.ChainCallOption) (map[string]any, error) {
	prompt, ok := inputs[c.inputKey].(string)
	if !ok {
		return nil, fmt.Errorf("%w: input %q: want a string, got %T", chains.ErrInvalidInputValues, c.inputKey, inputs[c.inputKey])
	}
	res, err := enforce.Run(ctx, c.p, enforce.Request{System: c.opts.System, Prompt: prompt}, c.s, c.opts.Enforce...)
	if err != nil {
		return nil, err
	}
	return map[string]any{c.outputKey: res.Value, c.outputKey + "_json": string(res.JSON)}, nil
}

// GetMemory returns the chain's memory, which keeps nothing.
func (c *Chain) GetMemory() lcschema.Memory { return c.mem }

// GetInputKeys returns the input key.
func (c *Chain) GetInputKeys() []string { return []string{c.inputKey} }

// GetOutputKeys returns the output keys.
func (c *Chain) GetOutputKeys() []string { return []string{c.outputKey, c.outputKey + "_json"} }
