package genkitagentio

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// MiddlewareOptions configure [Middleware]. A nil *MiddlewareOptions is
// the zero MiddlewareOptions; Middleware copies it.
type MiddlewareOptions struct {
	// Schema is the contract. nil takes each call's own output schema
	// (ModelRequest.Output.Schema), and passes a call without one through:
	// Genkit puts the schema of ai.WithOutputType there only for a model
	// that constrains its output, and otherwise writes it into the prompt,
	// so give Schema (or use [GenerateData]) to hold every model to it.
	Schema *schema.Schema
	// Enforce are the options of the checks and re-asks:
	// enforce.WithMaxRetries, enforce.WithLenient, enforce.WithValidator,
	// enforce.WithRepair, enforce.WithAttemptHook, ... (the mode is
	// Genkit's: the output is read from the reply's text).
	Enforce []enforce.Option
}

// Middleware returns a Genkit model middleware (for ai.WithMiddleware, or
// a model's own middleware) that holds each generate call to its output
// schema: it reads the model's reply as agentio does (the JSON found in
// prose or fences, repaired or coerced when the options say so), and when
// the reply is invalid it asks the model again, within the same call, with
// the bad reply and every violation appended to the conversation, until a
// reply is valid or the re-asks are spent. The response it returns holds
// the valid JSON as its only text, so Genkit's own output parsing
// (ModelResponse.Output, genkit.GenerateData) hands back the typed value;
// a call that ends without a valid reply returns enforce's typed error (a
// *enforce.ValidationError, or one matching enforce.ErrRefused), never a
// value the model did not give. Streamed calls stream every attempt's
// chunks to the callback. Its usage is the sum of the attempts'.
//
// A Middleware is safe for concurrent use. It returns an error matching
// [ErrInvalidOption] from its first call when the options are invalid.
func Middleware(opts *MiddlewareOptions) ai.ModelMiddleware {
	var o MiddlewareOptions
	if opts != nil {
		o = *opts
		o.Enforce = append([]enforce.Option(nil), opts.Enforce...)
	}
	var fixed *enforce.Enforcer
	var setupErr error
	if o.Schema != nil {
		if fixed, setupErr = enforce.New(o.Schema, o.Enforce...); setupErr != nil {
			setupErr = fmt.Errorf("%w: %w", ErrInvalidOption, setupErr)
		}
	}
	return func(next ai.ModelFunc) ai.ModelFunc {
		return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			if setupErr != nil {
				return nil, setupErr
			}
			e := fixed
			if e == nil {
				if req == nil || req.Output == nil || len(req.Output.Schema) == 0 {
					return next(ctx, req, cb)
				}
				raw, err := json.Marshal(req.Output.Schema)
				if err != nil {
					return nil, fmt.Errorf("%w: the call's output schema: %w", ErrInvalidOption, err)
				}
				s, err := schema.Parse(raw)
				if err != nil {
					return nil, fmt.Errorf("%w: the call's output schema: %w", ErrInvalidOption, err)
				}
				if e, err = enforce.New(s, o.Enforce...); err != nil {
					return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
				}
			}
			return enforceCall(ctx, e, next, req, cb)
		}
	}
}

// enforceCall runs one generate call under e.
func enforceCall(ctx context.Context, e *enforce.Enforcer, next ai.ModelFunc, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	st := enforce.State{Mode: enforce.ModeNative} // the text is the output
	cur := *req
	var usage ai.GenerationUsage
	for {
		resp, err := next(ctx, &cur, cb)
		if err != nil {
			return nil, err
		}
		addUsage(&usage, resp.Usage)
		v := e.Check(ctx, st, response(resp))
		if v.OK {
			out := *resp
			msg := &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{ai.NewTextPart(string(v.JSON))}}
			if resp.Message != nil {
				msg.Metadata = resp.Message.Metadata
			}
			out.Message = msg
			u := usage
			out.Usage = &u
			return &out, nil
		}
		if !v.Retry {
			return nil, v.Err
		}
		st = v.State
		msgs := append([]*ai.Message(nil), cur.Messages...)
		for _, m := range v.Messages {
			msgs = append(msgs, genkitMessage(m))
		}
		cur.Messages = msgs
	}
}

// genkitMessage maps a message of the re-ask (the bad reply, or the user's
// re-ask) to Genkit's.
func genkitMessage(m provider.Message) *ai.Message {
	if m.Role == provider.RoleAssistant {
		return ai.NewModelTextMessage(m.Content)
	}
	return ai.NewUserTextMessage(m.Content)
}

// addUsage adds u to sum.
func addUsage(sum *ai.GenerationUsage, u *ai.GenerationUsage) {
	if u == nil {
		return
	}
	sum.InputTokens += u.InputTokens
	sum.OutputTokens += u.OutputTokens
	sum.TotalTokens += u.TotalTokens
	sum.CachedContentTokens += u.CachedContentTokens
	sum.ThoughtsTokens += u.ThoughtsTokens
}

// GenerateData is genkit.GenerateData under [Middleware]: it generates a
// T, the schema of T (or opts.Schema) held by agentio's checks and re-asks
// within the call, and returns the typed value with the response. Genkit
// sends a schema to the model itself only when the model constrains its
// output, so a middleware that is to hold every model to T's schema needs
// it given: GenerateData gives it. opts may be nil. It fails with an error
// matching [ErrInvalidOption] when T has no schema (schema.For).
func GenerateData[T any](ctx context.Context, g *genkit.Genkit, opts *MiddlewareOptions, genOpts ...ai.GenerateOption) (*T, *ai.ModelResponse, error) {
	var o MiddlewareOptions
	if opts != nil {
		o = *opts
	}
	if o.Schema == nil {
		s, err := schema.For[T]()
		if err != nil {
			return nil, nil, fmt.Errorf("%w: the schema of %T: %w", ErrInvalidOption, *new(T), err)
		}
		o.Schema = s
	}
	all := append(append([]ai.GenerateOption(nil), genOpts...), ai.WithMiddleware(Middleware(&o)))
	return genkit.GenerateData[T](ctx, g, all...)
}
