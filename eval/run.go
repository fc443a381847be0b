package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/inputs"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// A Target is a model under evaluation: a name for the report and the
// provider that reaches it. Provider must be safe for concurrent use (as
// every [provider.Provider] is).
type Target struct {
	// Name names the target in results and reports; unique within a run.
	Name string
	// Provider answers the target's calls.
	Provider provider.Provider
}

// A Class is the failure class of a run: how its last attempt ended, an
// [enforce.Outcome] converted (Class(enforce.OutcomeInvalid)), or
// [ClassSetup] for a run that could not start.
type Class string

// ClassSetup is the failure class of a run that could not start: its
// blueprint did not load, its parameters did not match, its case is
// malformed. No provider call was made.
const ClassSetup Class = "setup_error"

// A CaseResult is what came of one case against one target.
type CaseResult struct {
	// Case is the case's ID.
	Case string `json:"case"`
	// Target is the target's name.
	Target string `json:"target"`
	// Valid reports a valid output, at any attempt.
	Valid bool `json:"valid"`
	// ValidFirst reports a valid output on the first call.
	ValidFirst bool `json:"valid_first"`
	// Reasks is how many re-asks the run made (for a valid run: k, the
	// re-asks it took).
	Reasks int `json:"reasks"`
	// Calls is the number of provider calls made.
	Calls int `json:"calls"`
	// Tokens is the total tokens used over every call.
	Tokens int `json:"tokens"`
	// Coercions counts the lenient coercions applied to the valid output.
	Coercions int `json:"coercions"`
	// Repairs counts the repair fixes applied over every attempt.
	Repairs int `json:"repairs"`
	// Class is the failure class: the outcome of the last attempt of a
	// failed run, or [ClassSetup]; "" when Valid.
	Class Class `json:"class,omitempty"`
	// Outcomes are the outcomes of the run's attempts, oldest first, one
	// per call; empty when no call was made (and in reports written before
	// the field existed).
	Outcomes []enforce.Outcome `json:"outcomes,omitempty"`
	// Violations are the schema and invariant violations of every failed
	// attempt, oldest first: what the target got wrong, whether or not a
	// re-ask fixed it.
	Violations []AttemptViolation `json:"violations,omitempty"`
	// Latency is the time the run spent in its provider calls, summed
	// over its calls (a streamed call lasts until its stream is read to
	// the end): the model's time, without the wait for a rate limit and
	// without eval's own work between calls.
	Latency time.Duration `json:"latency_ns"`
	// RateLimitWait is the time the run's calls waited for their slots
	// under [WithRateLimit]; 0 without it.
	RateLimitWait time.Duration `json:"rate_limit_wait_ns,omitempty"`
	// Agrees reports, for a valid output of a case with an expected value,
	// whether the two are equal as JSON values; nil when the case has no
	// expected value or the run failed.
	Agrees *bool `json:"agrees,omitempty"`
	// Error is the run's error text, "" when Valid.
	Error string `json:"error,omitempty"`
}

// A AttemptViolation is one violation of an attempt, reduced to what a report
// counts.
type AttemptViolation struct {
	// Attempt is the attempt's number, from 1.
	Attempt int `json:"attempt"`
	// Keyword is the schema keyword that failed ("enum", "required"), or
	// the invariant's kind; for a violation of no keyword (a reply cut
	// off, no JSON found) the attempt's outcome ("truncated", "no_json").
	Keyword string `json:"keyword"`
	// Path is the instance path ("$.issues[0].severity").
	Path string `json:"path"`
}

// Run runs each case against each target and returns the [*Report]: one
// [CaseResult] per pair, in case order then target order, and the
// aggregates per target. Inline-schema cases go through enforce.Run,
// blueprint cases through blueprint.Run; the case's invariants are checked
// on every schema-valid output. A failed run is a result, not an error.
//
// At most [WithConcurrency] runs (default 2) go at once, and with
// [WithRateLimit] each target's calls are spaced. Every goroutine Run
// starts has ended when it returns. The error is non-nil, with no report,
// for a bad option, a target without a name or provider, or a name used
// twice (matching [ErrInvalidOption]).
//
// When ctx ends before every run finished, Run stops starting runs, waits
// for those under way (whose calls see the ended ctx) and returns the
// report of the runs that finished, with Partial set and NotRun counting
// the others, beside ctx.Err() wrapped. A run cut short by the end of ctx
// is counted as not run, not as a failure; one cut short after a call was
// made is kept in Report.CutShort, with its calls and tokens, so that
// what was paid for is not lost. When ctx ends as the last run finishes,
// nothing is missing: the report is whole and the error nil. Run does
// not modify cases or targets.
func Run(ctx context.Context, cases []Case, targets []Target, opts ...Option) (*Report, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	limiters := make([]*limiter, len(targets))
	for i, t := range targets {
		if t.Name == "" || t.Provider == nil {
			return nil, fmt.Errorf("%w: target %d needs a name and a provider", ErrInvalidOption, i)
		}
		if names[t.Name] {
			return nil, fmt.Errorf("%w: target name %q used twice", ErrInvalidOption, t.Name)
		}
		names[t.Name] = true
		if cfg.rate > 0 {
			limiters[i] = &limiter{every: time.Duration(float64(time.Second) / cfg.rate)}
		}
	}
	prepared := make([]*prepared, len(cases))
	for i, c := range cases {
		prepared[i] = prepare(c)
	}

	results := make([]CaseResult, len(cases)*len(targets))
	state := make([]runState, len(results))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex // guards progress
	progress := Progress{Total: len(results)}
	for range min(cfg.concurrency, len(results)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				c, t := prepared[j/len(targets)], j%len(targets)
				r, finished := c.run(ctx, targets[t], limiters[t], cfg.enforce)
				results[j] = r
				if !finished {
					state[j] = runCutShort
					continue
				}
				state[j] = runFinished
				if cfg.progress != nil {
					mu.Lock()
					progress.Done++
					if results[j].Valid {
						progress.Valid++
					}
					p := progress
					p.Last = &results[j]
					cfg.progress(p)
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for j := range results {
		if ctx.Err() != nil {
			break
		}
		select {
		case jobs <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	finished := make([]CaseResult, 0, len(results))
	var cutShort []CaseResult
	for j, r := range results {
		switch {
		case state[j] == runFinished:
			finished = append(finished, r)
		case state[j] == runCutShort && r.Calls > 0:
			cutShort = append(cutShort, r)
		}
	}
	if len(finished) == len(results) {
		return NewReport(results), nil
	}
	rep := NewReport(finished)
	rep.Partial, rep.NotRun, rep.CutShort = true, len(results)-len(finished), cutShort
	return rep, fmt.Errorf("eval: %w", ctx.Err())
}

// runState is how far one run of [Run] went.
type runState uint8

const (
	runNotStarted runState = iota
	runCutShort            // started, cut short by the end of ctx
	runFinished
)

// prepared is a case made ready to run: its schema, blueprint and
// invariants compiled once for every target.
type prepared struct {
	c          Case
	schema     *schema.Schema
	blueprint  *blueprint.Blueprint
	invariants *crosscheck.Invariants
	expected   any
	err        error // why the case cannot run
}

func prepare(c Case) *prepared {
	p := &prepared{c: c}
	var err error
	switch {
	case c.Schema != nil:
		p.schema, err = schema.Parse(c.Schema)
	case c.Blueprint != "":
		p.blueprint, err = blueprint.Load(c.Blueprint)
		if err == nil && p.blueprint.OutputSchema() == nil && p.blueprint.DefaultOutputSchema() == nil {
			err = fmt.Errorf("eval: blueprint %s has no output schema", c.Blueprint)
		}
	default:
		err = errors.New(`eval: case has neither "schema" nor "blueprint"`)
	}
	if err == nil && c.Invariants != nil {
		p.invariants, err = crosscheck.CompileInvariants(c.Invariants...)
	}
	if err == nil && c.Expected != nil {
		err = json.Unmarshal(c.Expected, &p.expected)
	}
	p.err = err
	return p
}

// run runs the case against t, its calls spaced by limit (nil: not
// limited), and measures it. finished is false for a run that the end of
// ctx cut short: it has no result.
func (p *prepared) run(ctx context.Context, t Target, limit *limiter, extra []enforce.Option) (r CaseResult, finished bool) {
	r = CaseResult{Case: p.c.ID, Target: t.Name}
	if p.err != nil {
		r.Class, r.Error = ClassSetup, p.err.Error()
		return r, true
	}
	var attempts []enforce.Attempt
	opts := append([]enforce.Option{enforce.WithAttemptHook(func(_ context.Context, a enforce.Attempt) {
		attempts = append(attempts, a)
	})}, extra...)
	m, pr := newMeter(t.Provider, limit)
	out, err := p.call(ctx, pr, opts)
	r.Latency, r.RateLimitWait = time.Duration(m.called.Load()), time.Duration(m.waited.Load())
	for _, a := range attempts {
		r.Calls++
		r.Tokens += a.Usage.TotalTokens
		r.Repairs += len(a.Fixes)
		r.Outcomes = append(r.Outcomes, a.Outcome)
		for _, v := range a.Violations {
			kw := v.Keyword
			if kw == "" {
				kw = string(a.Outcome)
			}
			r.Violations = append(r.Violations, AttemptViolation{Attempt: a.Number, Keyword: kw, Path: v.Path})
		}
	}
	if len(attempts) > 0 {
		r.Reasks = len(attempts) - 1
	}
	if err == nil && out != nil {
		r.Valid = true
		r.ValidFirst = len(attempts) == 1
		r.Coercions = len(out.Coercions)
		if p.c.Expected != nil {
			var got any
			agrees := json.Unmarshal(out.JSON, &got) == nil && reflect.DeepEqual(got, p.expected)
			r.Agrees = &agrees
		}
		return r, true
	}
	if ctx.Err() != nil {
		if err != nil {
			r.Error = err.Error()
		}
		return r, false
	}
	if err == nil {
		err = errors.New("eval: run returned no output")
	}
	r.Error = err.Error()
	if len(attempts) > 0 {
		r.Class = Class(attempts[len(attempts)-1].Outcome)
	} else {
		r.Class = ClassSetup
	}
	return r, true
}

// call makes the run: enforce.Run for an inline schema, blueprint.Run for
// a blueprint. It returns the enforcement result of a valid run.
func (p *prepared) call(ctx context.Context, pr provider.Provider, opts []enforce.Option) (*enforce.Result, error) {
	params := make(map[string]any, len(p.c.Parameters)+1)
	for k, v := range p.c.Parameters {
		params[k] = v
	}
	if p.c.Prompt != "" {
		params["prompt"] = p.c.Prompt
	}
	var prompt string
	var err error
	if p.blueprint != nil {
		prompt, err = p.blueprint.Prompt(params)
	} else {
		prompt, err = inputs.Format(params)
	}
	if err != nil {
		return nil, err
	}
	if p.invariants != nil {
		// The grounding invariants hold the output against what the model
		// was given, as blueprint.Run holds an agent's own.
		g, err := p.invariants.Grounds(crosscheck.Inputs{Text: prompt, Parameters: params, Schema: p.schema})
		if err != nil {
			return nil, fmt.Errorf("eval: case %s: %w", p.c.ID, err)
		}
		opts = append(opts, enforce.WithValidator(func(_ context.Context, _ enforce.Attempt, v any) []schema.Violation {
			return p.invariants.CheckGrounded(v, g)
		}))
	}
	if p.blueprint == nil {
		return enforce.Run(ctx, pr, enforce.Request{Prompt: prompt}, p.schema, opts...)
	}
	res, err := blueprint.Run(ctx, p.blueprint, pr, params, blueprint.RunSpec{}, blueprint.WithEnforceOptions(opts...))
	if err != nil {
		return nil, err
	}
	if !res.Structured() || res.Enforcement() == nil {
		return nil, errors.New("eval: blueprint run gave no structured output")
	}
	return res.Enforcement(), nil
}
