package blueprint

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/registry"
)

// ErrInvalidOption is returned, wrapped with what was wrong, by [Run] when
// one of its options was given a bad value. No model is called.
var ErrInvalidOption = errors.New("blueprint: invalid option")

// An Option adjusts one call of [Run]. Options are values, safe to share
// between calls and goroutines. A nil Option or a bad value makes Run fail
// with an error matching [ErrInvalidOption] before anything else happens.
type Option func(*runConfig) error

type runConfig struct {
	registry  registry.Registry
	enforce   []enforce.Option
	maxTokens int
}

// WithRegistry sets the registry in which a run's named output schema
// (RunSpec.Name) is looked up. Without it a named schema is not found.
func WithRegistry(r registry.Registry) Option {
	return func(c *runConfig) error {
		if r == nil {
			return fmt.Errorf("%w: nil registry", ErrInvalidOption)
		}
		c.registry = r
		return nil
	}
}

// WithEnforceOptions adds options for the enforcement loop: the mode, a
// validator, an attempt hook, a logger, a token budget. They are applied
// after the options derived from the effective output options, so they win
// over them (an explicit enforce.WithMaxRetries overrides max_retries).
// Several calls add up; the slice is copied. They apply only when an output schema applies: a
// free-text run is a single provider call, with no hooks or validators.
func WithEnforceOptions(opts ...enforce.Option) Option {
	opts = slices.Clone(opts)
	return func(c *runConfig) error {
		c.enforce = append(c.enforce, opts...)
		return nil
	}
}

// WithMaxTokens caps each reply's length in tokens; n must be positive.
// Without it the provider's default applies.
func WithMaxTokens(n int) Option {
	return func(c *runConfig) error {
		if n <= 0 {
			return fmt.Errorf("%w: max tokens must be positive, got %d", ErrInvalidOption, n)
		}
		c.maxTokens = n
		return nil
	}
}

// Run is the one-call path for an orchestrator: it runs an autonomous
// agent once, from its parameters to its [Result].
//
//  1. b.ValidateParameters(params): a mismatch is a [*ParameterError];
//  2. [ResolveOutputSchema] with spec and the registry of [WithRegistry];
//  3. the user prompt by [Blueprint.Prompt], the system prompt by
//     [Blueprint.Instructions];
//  4. with an output schema, enforce.Run with the effective options (then
//     the options of [WithEnforceOptions]: enforce.WithPartials streams
//     the run and shows its partial values); the schema reaches the model as
//     the enforcement mode says (enforce.ModeAuto by default; pass
//     enforce.WithMode(enforce.ModeSystem) for a system-prompt section as
//     [Blueprint.SystemPrompt] renders it). The blueprint's invariants
//     are checked on every schema-valid output, the grounding ones
//     against the prompt and params ([Resolution.WithInputs]). The Result
//     holds result_data.
//  5. without one, a single call of p; the Result holds result_text.
//
// On failure the Result is nil, except for a truncated free-text reply
// (below), and the error is returned as it comes: enforce's
// *enforce.ValidationError when the output never matched (its JSON is the
// OutputSchemaValidationError shape), an error matching enforce.ErrRefused
// for a refusal or content filter, the provider's error, or the errors of
// the steps above, all before any model call. A free-text reply cut off at
// the token limit comes back as its Result beside an error matching
// enforce.ErrTruncated. Attempts of a failed run are visible through
// enforce.WithAttemptHook; a *enforce.ValidationError also carries them.
//
// A procedural agent gives [ErrNotAutonomous]. Run is safe for concurrent
// use when p is.
func Run(ctx context.Context, b *Blueprint, p provider.Provider, params map[string]any, spec RunSpec, opts ...Option) (*Result, error) {
	if p == nil {
		return nil, errors.New("blueprint: run needs a blueprint and a provider")
	}
	prep, err := prepare(ctx, b, params, spec, opts)
	if err != nil {
		return nil, err
	}
	if prep.e == nil {
		return runText(ctx, p, prep.req.System, prep.req.Prompt, prep.req.MaxTokens)
	}
	er, err := prep.e.Run(ctx, p, prep.req)
	if err != nil {
		return nil, err
	}
	return NewEnforcedResult(er)
}

// Prepare is [Run] up to the model call, for callers that send the calls
// themselves (package batch, a queue of their own): it checks params,
// resolves the output schema, and returns the Enforcer (with the effective
// output options, the blueprint's invariants grounded on the prompt and
// params, then the options of [WithEnforceOptions]) and the Request that
// Run would give it. Turn the *enforce.Result of the run into the run's
// [Result] with [NewEnforcedResult].
//
// It fails as Run does before any call, and with [ErrNoOutputSchema] for a
// run without an output schema, which has no contract to enforce.
func Prepare(ctx context.Context, b *Blueprint, params map[string]any, spec RunSpec, opts ...Option) (*enforce.Enforcer, enforce.Request, error) {
	prep, err := prepare(ctx, b, params, spec, opts)
	if err != nil {
		return nil, enforce.Request{}, err
	}
	if prep.e == nil {
		return nil, enforce.Request{}, ErrNoOutputSchema
	}
	return prep.e, prep.req, nil
}

// prepared is a run ready for its call: e is nil for a free-text run.
type prepared struct {
	e   *enforce.Enforcer
	req enforce.Request
}

// prepare takes the steps of a run before the model call.
func prepare(ctx context.Context, b *Blueprint, params map[string]any, spec RunSpec, opts []Option) (prepared, error) {
	var cfg runConfig
	for _, o := range opts {
		if o == nil {
			return prepared{}, fmt.Errorf("%w: nil option", ErrInvalidOption)
		}
		if err := o(&cfg); err != nil {
			return prepared{}, err
		}
	}
	if b == nil {
		return prepared{}, errors.New("blueprint: run needs a blueprint and a provider")
	}
	if b.typ != TypeAutonomous {
		return prepared{}, ErrNotAutonomous
	}
	if err := b.ValidateParameters(params); err != nil {
		return prepared{}, err
	}
	res, err := ResolveOutputSchema(ctx, b, spec, cfg.registry)
	if err != nil {
		return prepared{}, err
	}
	prompt, err := b.Prompt(params)
	if err != nil {
		return prepared{}, err
	}
	req := enforce.Request{System: b.systemPrompt, Prompt: prompt, MaxTokens: cfg.maxTokens}
	if res.Schema == nil {
		return prepared{req: req}, nil
	}
	e, err := res.WithInputs(prompt, params).Enforcer(cfg.enforce...)
	if err != nil {
		return prepared{}, err
	}
	return prepared{e: e, req: req}, nil
}

// runText makes the single call of a run without an output schema.
func runText(ctx context.Context, p provider.Provider, system, prompt string, maxTokens int) (*Result, error) {
	resp, err := p.Generate(ctx, &provider.Request{
		System:    system,
		Messages:  []provider.Message{provider.UserMessage(prompt)},
		MaxTokens: maxTokens,
	})
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, errors.New("blueprint: provider returned no response")
	}
	r := &Result{text: resp.Text, usage: resp.Usage}
	switch resp.StopReason {
	case provider.StopRefusal, provider.StopContentFilter:
		msg := resp.Refusal
		if msg == "" {
			msg = string(resp.StopReason)
		}
		return nil, fmt.Errorf("%w: %s", enforce.ErrRefused, cut(msg))
	case provider.StopLength:
		return r, enforce.ErrTruncated
	}
	if resp.Refusal != "" && resp.Text == "" {
		return nil, fmt.Errorf("%w: %s", enforce.ErrRefused, cut(resp.Refusal))
	}
	return r, nil
}
