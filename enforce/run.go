package enforce

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// Run asks p for output valid against s and returns it: it sends req with
// the schema added as the mode says, extracts and validates the reply, and
// re-asks with every violation until the output is valid or the re-asks
// allowed by [WithMaxRetries] (default 2) are spent.
//
// On success the [*Result] holds the JSON, its decoded value and every
// attempt. Otherwise the error is a [*ValidationError] when the output never
// became valid (errors.Is matches [ErrNoJSON], [ErrTruncated], ... for the
// last failure), matches [ErrRefused] when the model refused (not retried),
// wraps the provider's error when a call failed (not retried), wraps
// ctx.Err() when ctx ended, or matches [ErrTokenBudget]. Once an attempt was
// made, Run returns the Result beside the error, with every attempt and the
// usage so far; before (a bad option, an empty request, a mode the provider
// lacks, matching [ErrInvalidOption] or [ErrInvalidRequest]) it returns nil.
//
// With [WithPartials] and a provider that streams ([provider.Streamer]),
// each reply is read as it arrives: the functions see the value as each
// part of it completes, and a reply whose complete part can no longer be
// valid is stopped there and re-asked at once. The outcome is the same as
// without the option.
//
// Run is safe for concurrent use with the same schema and provider.
// Validators and hooks run on the caller's goroutine. Each call prepares s
// anew (the prompt text and, in native and tool modes, the conversion to the
// provider's dialect): to enforce one schema many times, build an
// [Enforcer] once with [New] and call [Enforcer.Run], which keeps that work.
func Run(ctx context.Context, p provider.Provider, req Request, s *schema.Schema, opts ...Option) (*Result, error) {
	e, err := New(s, opts...)
	if err != nil {
		return nil, err
	}
	return e.Run(ctx, p, req)
}

// Run runs the loop of the package-level [Run] with the Enforcer's schema
// and options, and returns what it returns. It may be called concurrently.
func (e *Enforcer) Run(ctx context.Context, p provider.Provider, req Request) (*Result, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: nil provider", ErrInvalidRequest)
	}
	if s, ok := p.(provider.Streamer); ok && len(e.cfg.partials) > 0 {
		return e.stream(ctx, s, req)
	}
	return e.loop(ctx, p, req, func(ctx context.Context, call *provider.Request, _ State) (*provider.Response, *stopped, error) {
		resp, err := p.Generate(ctx, call)
		return resp, nil, err
	})
}

// A caller makes one attempt's call: it sends call and returns the reply,
// or the error of a failed call. A streaming caller may stop the reply
// early because a part of it already violates the schema; it then returns
// the reply so far and why it stopped.
type caller func(ctx context.Context, call *provider.Request, st State) (*provider.Response, *stopped, error)

// loop is the enforcement loop, whole or streamed: call makes each attempt.
func (e *Enforcer) loop(ctx context.Context, p provider.Provider, req Request, call caller) (*Result, error) {
	caps := p.Capabilities()
	first, st, err := e.Start(req, caps)
	if err != nil {
		return nil, err
	}
	res := &Result{Mode: st.Mode}
	next := first
	var last Verdict // the last failed verdict, for a run stopped before its re-ask
	for {
		if err := ctx.Err(); err != nil {
			return result(res), fmt.Errorf("enforce: before attempt %d: %w", st.Attempts+1, err)
		}
		sent, err := e.withinBudget(st, next)
		if err != nil {
			return result(res), e.stopped(res, st, last, err)
		}
		start := time.Now()
		resp, early, err := call(ctx, sent, st)
		if err != nil {
			st.Attempts++
			a := Attempt{Number: st.Attempts, Mode: st.Mode, Outcome: OutcomeProviderError, Request: sent, Err: err}
			fallback := e.cfg.schemaFallback && (st.Mode == ModeNative || st.Mode == ModeTool) &&
				errors.Is(err, provider.ErrSchemaRejected)
			if fallback {
				a.Outcome = OutcomeSchemaRejected
				a.Notes = append(a.Notes, "the provider rejected the schema: continuing in prompt mode")
			}
			a.Duration = time.Since(start)
			e.observe(ctx, a)
			res.Attempts = append(res.Attempts, a)
			if !fallback {
				return res, fmt.Errorf("enforce: attempt %d: %w", a.Number, err)
			}
			st.Mode, res.Mode = ModePrompt, ModePrompt
			if first, err = e.request(req, ModePrompt, caps); err != nil {
				return res, err
			}
			next = first
			continue
		}
		var v Verdict
		if early != nil {
			v = e.checkStopped(ctx, st, resp, sent, start, early)
		} else {
			v = e.check(ctx, st, resp, sent, start)
		}
		st = v.State
		res.Attempts = append(res.Attempts, v.Attempt)
		res.Usage = st.Usage
		res.Text = v.Text
		if v.OK {
			res.JSON, res.Value, res.Coercions = v.JSON, v.Value, v.Attempt.Coercions
			return res, nil
		}
		if !v.Retry {
			var ve *ValidationError
			if errors.As(v.Err, &ve) {
				ve.Attempts = res.Attempts
			}
			return res, v.Err
		}
		last = v
		if e.cfg.fullHistory {
			next = v.Next(sent)
		} else {
			next = v.Next(first)
		}
	}
}

// stopped returns the error of a run stopped by the token budget before
// attempt st.Attempts+1: a *ValidationError carrying the last failure when
// there was one.
func (e *Enforcer) stopped(res *Result, st State, last Verdict, err error) error {
	if last.Outcome == "" { // no attempt was checked yet
		return err
	}
	return &ValidationError{
		Retries:    st.Reasks - 1, // the re-ask prepared by the last verdict was not sent
		Violations: last.Violations,
		Output:     last.Text,
		Attempts:   res.Attempts,
		Usage:      st.Usage,
		Err:        errors.Join(err, causeOf(last.Outcome)),
	}
}

// causeOf returns the sentinel that a failed attempt's outcome matches.
func causeOf(o Outcome) error {
	switch o {
	case OutcomeNoJSON:
		return ErrNoJSON
	case OutcomeNonJSONText:
		return ErrNonJSONText
	case OutcomeTruncated:
		return ErrTruncated
	}
	return nil
}

// result returns res, or nil when no attempt was made.
func result(res *Result) *Result {
	if len(res.Attempts) == 0 {
		return nil
	}
	return res
}
