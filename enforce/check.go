package enforce

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/internal/jsonvalue"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// The messages of the violations that stand for a whole reply.
const (
	msgNoJSON      = "No JSON output found but output_schema requires structured output"
	msgNonJSONText = "Output has text around the JSON value, but only the JSON value is allowed"
	msgTruncated   = "Output was cut off at the token limit before the JSON was complete"
	msgNoToolCall  = "did not call " + ToolName
)

// Check judges one reply of the run in state st: it extracts the JSON, tries
// every value found against the schema and the validators, and returns the
// [Verdict]: the valid output, or the violations and either the prepared
// re-ask or the error that ends the run. A reply that could be valid is
// never rejected because an earlier value in it (an example, a draft) is
// invalid.
//
// Check calls the validators, attempt hooks and logger on the caller's
// goroutine. The Verdict's Attempt has no Request and its Duration is the
// checking time: [Run] records both.
func (e *Enforcer) Check(ctx context.Context, st State, resp *provider.Response) Verdict {
	return e.check(ctx, st, resp, nil, time.Now())
}

// CheckText is [Enforcer.Check] for a reply known only by its text, which
// ended normally.
func (e *Enforcer) CheckText(ctx context.Context, st State, text string) Verdict {
	return e.Check(ctx, st, &provider.Response{Text: text, StopReason: provider.StopEnd})
}

// A checked candidate: a value found in the output, after transformation,
// with its violations.
type checked struct {
	cand       extract.Candidate
	json       []byte
	value      any
	changes    []Change
	coercions  []schema.Coercion
	violations []schema.Violation
	schemaOK   bool
	wrappedIn  string
	output     string // the raw output it was found in
	call       int    // index of the tool call it came from, in ModeTool
}

// better reports whether c is closer to valid than d: it passed the schema
// where d did not, else it has fewer violations, else it passed as the
// model wrote it where d needed coercion, else it is longer (the real
// answer rather than an example).
func (c *checked) better(d *checked) bool {
	switch {
	case d == nil:
		return true
	case c.schemaOK != d.schemaOK:
		return c.schemaOK
	case len(c.violations) != len(d.violations):
		return len(c.violations) < len(d.violations)
	case (len(c.coercions) == 0) != (len(d.coercions) == 0):
		return len(c.coercions) == 0
	default:
		return len(c.json) > len(d.json)
	}
}

// final reports whether no other candidate can be better than c: it is
// valid as the model wrote it.
func (c *checked) final() bool {
	return c != nil && len(c.violations) == 0 && len(c.coercions) == 0
}

// check is Check, with the request that was sent and the time it was sent
// when [Run] calls it.
func (e *Enforcer) check(ctx context.Context, st State, resp *provider.Response, req *provider.Request, start time.Time) Verdict {
	if resp == nil {
		resp = &provider.Response{}
	}
	mode := e.mode(st)
	st.Mode = mode
	st.Attempts++
	st.Usage = st.Usage.Add(resp.Usage)
	a := Attempt{Number: st.Attempts, Mode: mode, Request: req, Response: resp, Usage: resp.Usage}
	var d *prepared
	if mode == ModeNative || mode == ModeTool {
		d = e.dialect(st.Dialect)
		if d.note != "" {
			a.Notes = append(a.Notes, d.note)
		}
	}

	v := Verdict{State: st}
	var best *checked
	switch {
	case refused(resp):
		a.Outcome = OutcomeRefused
		v.Text = resp.Text
	case mode == ModeTool && !hasCall(resp) && resp.StopReason == provider.StopLength:
		// Cut off before the call was written: ask for a shorter answer,
		// not for the call.
		a.Outcome = OutcomeTruncated
		a.Violations = []schema.Violation{{Path: "$", Message: msgTruncated}}
		v.Text = resp.Text
	case mode == ModeTool && !hasCall(resp):
		a.Outcome = OutcomeNoToolCall
		a.Violations = []schema.Violation{{Path: "$", Message: msgNoToolCall}}
		v.Text = resp.Text
	default:
		best = e.evaluate(ctx, &a, mode, d, resp)
		if best != nil {
			a.JSON, a.Source, a.Fixes, a.Changes, a.Coercions = best.json, best.cand.Source, best.cand.Fixes, best.changes, best.coercions
		}
		v.Text = e.output(mode, resp, best)
	}
	return e.conclude(ctx, v, a, mode, d, resp, best, start)
}

// checkStopped is check for a streamed reply that was stopped before its
// end because a complete part of it already violated the schema: the
// attempt is invalid with those violations, and the re-ask (when one is
// left) shows the reply as far as it went.
func (e *Enforcer) checkStopped(ctx context.Context, st State, resp *provider.Response, req *provider.Request, start time.Time, early *stopped) Verdict {
	mode := e.mode(st)
	st.Mode = mode
	st.Attempts++
	st.Usage = st.Usage.Add(resp.Usage)
	a := Attempt{Number: st.Attempts, Mode: mode, Request: req, Response: resp, Usage: resp.Usage,
		Outcome: OutcomeInvalid, Violations: early.violations, StoppedEarly: true}
	a.Notes = append(a.Notes, fmt.Sprintf("the stream was stopped after %d bytes: a complete part already violated the schema", early.at))
	var d *prepared
	if mode == ModeNative || mode == ModeTool {
		d = e.dialect(st.Dialect)
	}
	v := Verdict{State: st, Text: early.output}
	// What the re-ask needs of the value: the wrapper the paths go into,
	// and in ModeTool the call to answer.
	part := &checked{wrappedIn: early.wrappedIn, call: early.call}
	return e.conclude(ctx, v, a, mode, d, resp, part, start)
}

// conclude completes the verdict v on attempt a, whose outcome is decided:
// the valid output, or the error that ends the run, or the prepared re-ask.
// It observes the attempt.
func (e *Enforcer) conclude(ctx context.Context, v Verdict, a Attempt, mode Mode, d *prepared, resp *provider.Response, best *checked, start time.Time) Verdict {
	st := v.State
	v.Outcome = a.Outcome
	v.Violations = a.Violations
	cause := causeOf(a.Outcome)

	switch {
	case a.Outcome == OutcomeValid:
		v.OK, v.JSON, v.Value = true, best.json, best.value
	case a.Outcome == OutcomeRefused:
		v.Err = fmt.Errorf("%w: %s", ErrRefused, refusal(resp))
	case e.cfg.tokenBudget > 0 && tokens(st.Usage) >= e.cfg.tokenBudget:
		v.Err = e.failure(st, a, v.Text, errors.Join(ErrTokenBudget, cause))
	case st.Reasks >= e.cfg.maxRetries:
		v.Err = e.failure(st, a, v.Text, cause)
	default:
		e.prepareRetry(&v, &a, mode, d, resp, best)
	}
	a.Duration = time.Since(start)
	v.Attempt = a
	e.observe(ctx, a)
	return v
}

// evaluate extracts every candidate from the output and checks each until
// one is valid. It sets a's Outcome and Violations and returns the valid
// candidate, or the one closest to valid (nil when none was found).
func (e *Enforcer) evaluate(ctx context.Context, a *Attempt, mode Mode, d *prepared, resp *provider.Response) *checked {
	outputs := 1 // the text, or in ModeTool each tool call's arguments
	if mode == ModeTool {
		outputs = len(resp.ToolCalls)
	}
	var best *checked
	var xerr error
	for i := range outputs {
		out := resp.Text
		if mode == ModeTool {
			if resp.ToolCalls[i].Name != ToolName {
				continue
			}
			out = string(resp.ToolCalls[i].Arguments)
		}
		var memo map[string]schemaVerdict // the repair validator's verdicts, by value
		if e.cfg.repair {
			memo = map[string]schemaVerdict{}
		}
		whole, sole := e.whole(ctx, *a, mode, d, out, &memo)
		if whole != nil {
			// The common reply: all JSON and valid. Extraction would read it
			// once more only to find it whole.
			whole.output, whole.call = out, i
			if whole.better(best) {
				best = whole
			}
			if whole.final() {
				break
			}
		}
		var cands []extract.Candidate
		var inner int
		var err error
		if sole != nil && e.soleCandidate(out, sole.JSON[0]) {
			// Extraction would find the JSON reply whole, and nothing else.
			cands, inner = []extract.Candidate{*sole}, 1
		} else {
			cands, inner, err = e.extract(out, e.validator(mode, d, memo))
		}
		if err != nil && xerr == nil {
			xerr = err
		}
		for j, cand := range cands {
			if whole != nil && cand.Source == extract.SourceWhole && bytes.Equal(cand.JSON, whole.cand.JSON) {
				continue // tried already, its validators called once
			}
			c := e.try(ctx, *a, mode, d, out, cand, memo, j < inner)
			c.output, c.call = out, i
			if c.better(best) {
				best = c
			}
			if c.final() {
				break
			}
		}
		if best.final() {
			break
		}
	}
	truncated := resp.StopReason == provider.StopLength
	cutOff := best != nil && best.cand.Truncated() // its JSON had to be completed
	switch {
	case best != nil && len(best.violations) == 0 && !cutOff:
		a.Outcome = OutcomeValid
		if truncated {
			a.Notes = append(a.Notes, "the reply hit the token limit after a complete JSON value")
		}
		return best
	case truncated || cutOff:
		a.Outcome = OutcomeTruncated
		a.Violations = []schema.Violation{{Path: "$", Message: msgTruncated}}
		return best
	case best != nil:
		a.Outcome = OutcomeInvalid
		a.Violations = best.violations
		return best
	case errors.Is(xerr, ErrNonJSONText):
		a.Outcome = OutcomeNonJSONText
		a.Violations = []schema.Violation{{Path: "$", Message: msgNonJSONText}}
		return nil
	default:
		a.Outcome = OutcomeNoJSON
		a.Violations = []schema.Violation{{Path: "$", Message: msgNoJSON}}
		if xerr != nil {
			a.Notes = append(a.Notes, xerr.Error())
		}
		return nil
	}
}

// extract returns the JSON values found in out, best first, or why there
// are none. The candidates from index inner on are objects found inside
// another candidate (an object in a list): they may be taken as written,
// but are not coerced, as the list they are part of is.
func (e *Enforcer) extract(out string, valid func(json.RawMessage) bool) (cands []extract.Candidate, inner int, err error) {
	if !e.cfg.extraction {
		trimmed := strings.TrimSpace(out)
		if !json.Valid([]byte(trimmed)) {
			return nil, 0, &extract.ReplyError{Err: ErrNoJSON, Description: "the reply is not a JSON value", Offset: -1}
		}
		start := strings.Index(out, trimmed)
		return []extract.Candidate{{JSON: []byte(trimmed), Start: start, End: start + len(trimmed), Source: extract.SourceWhole}}, 1, nil
	}
	x := e.extractOpts
	if valid != nil {
		// A repair with two plausible readings is settled by the schema.
		v := extract.WithAccept(valid)
		x.all = append(x.all[:len(x.all):len(x.all)], v)
		x.objects = append(x.objects[:len(x.objects):len(x.objects)], v)
		x.strict = append(x.strict[:len(x.strict):len(x.strict)], v)
	}
	if e.cfg.strict {
		c, err := extract.JSON(out, x.strict...)
		if err != nil {
			return nil, 0, err
		}
		return []extract.Candidate{c}, 1, nil
	}
	switch {
	case e.objectRoot && e.cfg.lenient:
		// Coercion may make an object of an array (a bare list, a
		// one-element array) or of a string: every value is offered, then
		// the objects inside arrays, as strict mode would take them.
		all := extract.Candidates(out, x.all...)
		if cands := union(all, extract.Candidates(out, x.objects...)); len(cands) > 0 {
			return cands, len(all), nil
		}
	case e.objectRoot:
		// Values other than objects can never be valid: skip them, unless
		// they are all there is (then they show the model what is wrong).
		if cands := extract.Candidates(out, x.objects...); len(cands) > 0 {
			return cands, len(cands), nil
		}
	}
	if cands := extract.Candidates(out, x.all...); len(cands) > 0 {
		return cands, len(cands), nil
	}
	_, err = extract.JSON(out, x.all...)
	if err == nil {
		err = ErrNoJSON
	}
	return nil, 0, err
}

// union returns a followed by the candidates of b found at a place no
// candidate of a was.
func union(a, b []extract.Candidate) []extract.Candidate {
	out := a
	for _, c := range b {
		if !slices.ContainsFunc(a, func(d extract.Candidate) bool { return d.Start == c.Start && d.End == c.End }) {
			out = append(out, c)
		}
	}
	return out
}

// extractOptions are the extract options of an Enforcer's configuration,
// built once by [New]: for every value, for objects only, and strict.
type extractOptions struct {
	all, objects, strict []extract.Option
}

// newExtractOptions returns the extract options that c asks for.
func newExtractOptions(c config) extractOptions {
	var all []extract.Option
	if c.repair {
		all = append(all, extract.WithRepair())
	}
	if c.preferLast {
		all = append(all, extract.WithPreferLast())
	}
	return extractOptions{
		all:     all,
		objects: append(all[:len(all):len(all)], extract.WithObjectsOnly()),
		strict:  append(all[:len(all):len(all)], extract.WithStrictJSONOnly()),
	}
}

// try decodes one candidate, transforms it and validates it against the
// schema and, when the schema accepts it, the validators. In lenient mode
// a value that fails is coerced when coercible: it is not part of another
// candidate.
func (e *Enforcer) try(ctx context.Context, a Attempt, mode Mode, d *prepared, out string, cand extract.Candidate, memo map[string]schemaVerdict, coercible bool) *checked {
	c := &checked{cand: cand, json: cand.JSON}
	sv, ok := memo[string(cand.JSON)]
	if !ok {
		var src string
		if 0 <= cand.Start && cand.Start <= cand.End && cand.End <= len(out) && out[cand.Start:cand.End] == string(cand.JSON) {
			src = out[cand.Start:cand.End] // the value's strings share the output's memory
		} else {
			src = string(cand.JSON) // repaired: a copy of its own
		}
		sv = e.judge(mode, d, cand.JSON, src)
	}
	if sv.undecodable != nil {
		// Valid JSON that does not decode: a number beyond float64's range.
		c.violations = []schema.Violation{{Path: "$", Message: "the value cannot be decoded: " + sv.undecodable.Error()}}
		return c
	}
	c.json, c.value, c.changes, c.wrappedIn, c.violations = sv.json, sv.value, sv.changes, sv.wrappedIn, sv.violations
	if len(c.violations) > 0 && e.cfg.lenient && coercible && !cand.Truncated() {
		e.coerce(c)
	}
	if len(c.violations) > 0 {
		return c
	}
	c.schemaOK = true
	a.JSON, a.Source, a.Fixes, a.Changes, a.Coercions = c.json, cand.Source, cand.Fixes, c.changes, c.coercions
	for _, fn := range e.cfg.validators {
		c.violations = append(c.violations, fn(ctx, a, c.value)...)
	}
	return c
}

// A schemaVerdict is a value decoded, transformed back from the dialect and
// validated against the schema.
type schemaVerdict struct {
	json        []byte
	value       any
	changes     []Change
	wrappedIn   string
	violations  []schema.Violation
	undecodable error
}

// whole checks out, less blanks, when it is an array or object, as
// extraction's first candidate (the whole reply) would be. It returns the
// checked candidate when that value passes the schema; otherwise nil, the
// schema's verdict on a value that fails kept in *memo for extraction's
// candidate of the same bytes, so the reply is decoded once either way.
// Its second result is the reply as a candidate when it is one JSON value
// that decoded (valid or not), and nil otherwise.
func (e *Enforcer) whole(ctx context.Context, a Attempt, mode Mode, d *prepared, out string, memo *map[string]schemaVerdict) (*checked, *extract.Candidate) {
	if !e.cfg.extraction {
		return nil, nil
	}
	start := len(out) - len(strings.TrimLeft(out, " \t\r\n"))
	trimmed := strings.TrimRight(out[start:], " \t\r\n")
	if trimmed == "" || trimmed[0] != '{' && trimmed[0] != '[' {
		return nil, nil
	}
	raw := []byte(trimmed)
	sv := e.judge(mode, d, raw, trimmed)
	if errors.Is(sv.undecodable, schema.ErrNotJSON) {
		return nil, nil // not one JSON value: extraction finds what is there
	}
	if *memo == nil {
		*memo = map[string]schemaVerdict{}
	}
	(*memo)[trimmed] = sv
	cand := &extract.Candidate{JSON: raw, Start: start, End: start + len(trimmed), Source: extract.SourceWhole}
	if sv.undecodable != nil {
		return nil, nil
	}
	if len(sv.violations) > 0 {
		return nil, cand
	}
	return e.try(ctx, a, mode, d, out, *cand, *memo, true), cand
}

// soleCandidate reports whether extraction, given a reply that is one
// JSON value opening with first, would return that value and nothing
// else: it does unless it looks for objects only (an object root, strict
// mode aside) inside an array, or the reply is over its size limit.
func (e *Enforcer) soleCandidate(out string, first byte) bool {
	return !e.cfg.strict && len(out) <= extract.DefaultMaxSize && (first == '{' || !e.objectRoot)
}

// judge decodes raw, transforms it and validates it against the schema.
// src holds the bytes of raw, which the value's strings may share.
func (e *Enforcer) judge(mode Mode, d *prepared, raw []byte, src string) schemaVerdict {
	var sv schemaVerdict
	if d == nil {
		// Nothing to transform: decode and validate in one step.
		v, vs, err := e.s.DecodeString(src)
		if err != nil {
			sv.undecodable = err // raw is JSON: a number beyond float64
			return sv
		}
		sv.json, sv.value, sv.violations = raw, v, vs
		return sv
	}
	var dec jsonvalue.Decoder
	v, err := dec.DecodeString(src)
	if err != nil {
		sv.undecodable = err
		return sv
	}
	sv.json, sv.value, sv.changes, sv.wrappedIn = e.transform(mode, d, raw, v)
	sv.violations = e.s.Validate(sv.value)
	return sv
}

// validator returns the test extraction uses to settle repairs with two
// plausible readings: the value passes the schema, as the model's output
// in this mode (see transform). Each verdict is kept in memo, so the
// candidate it accepts is not validated twice. It returns nil when repair
// is off, as nothing then needs settling.
func (e *Enforcer) validator(mode Mode, d *prepared, memo map[string]schemaVerdict) func(json.RawMessage) bool {
	if !e.cfg.repair {
		return nil
	}
	return func(raw json.RawMessage) bool {
		key := string(raw)
		sv, ok := memo[key]
		if !ok {
			sv = e.judge(mode, d, bytes.Clone(raw), string(raw))
			memo[key] = sv
		}
		return sv.undecodable == nil && len(sv.violations) == 0
	}
}

// coerce is the lenient stage: it coerces c's value by the schema and,
// when the result passes the schema, makes it c's value, with the
// coercions made. A coerced value that still fails is dropped: c keeps the
// model's value and its violations.
func (e *Enforcer) coerce(c *checked) {
	dec := json.NewDecoder(bytes.NewReader(c.json))
	dec.UseNumber() // keeps 5.0 apart from 5, and every digit
	var v any
	if dec.Decode(&v) != nil {
		return
	}
	fixed, coercions, err := e.s.Coerce(v, e.cfg.coercions...)
	if err != nil || len(coercions) == 0 {
		return
	}
	data, err := json.Marshal(fixed)
	if err != nil {
		return
	}
	value, vs, err := e.s.Decode(data)
	if err != nil || len(vs) > 0 {
		return
	}
	c.json, c.value, c.coercions, c.violations = data, value, coercions, nil
}

// output returns the raw output a verdict reports: the text, or in ModeTool
// the arguments of the submit_result call checked.
func (e *Enforcer) output(mode Mode, resp *provider.Response, best *checked) string {
	switch {
	case best != nil:
		return best.output
	case mode != ModeTool:
		return resp.Text
	}
	for _, tc := range resp.ToolCalls {
		if tc.Name == ToolName {
			return string(tc.Arguments)
		}
	}
	return resp.Text
}

// failure builds the error of a run that ends after attempt a.
func (e *Enforcer) failure(st State, a Attempt, output string, cause error) *ValidationError {
	return &ValidationError{Retries: st.Reasks, Violations: a.Violations, Output: output, Usage: st.Usage, Err: cause}
}

// refused reports whether the model declined to answer.
func refused(resp *provider.Response) bool {
	return resp.Refusal != "" || resp.StopReason == provider.StopRefusal || resp.StopReason == provider.StopContentFilter
}

// refusal describes a refusal for an error message.
func refusal(resp *provider.Response) string {
	switch {
	case resp.Refusal != "":
		return fmt.Sprintf("%q", cut(resp.Refusal, 200))
	case resp.StopReason == provider.StopContentFilter:
		return "stopped by the provider's content filter"
	case resp.Text != "":
		return fmt.Sprintf("%q", cut(resp.Text, 200))
	default:
		return "no message"
	}
}

// hasCall reports whether resp calls submit_result.
func hasCall(resp *provider.Response) bool {
	for _, tc := range resp.ToolCalls {
		if tc.Name == ToolName {
			return true
		}
	}
	return false
}

// tokens returns the tokens usage counts: its total, or input plus output
// when the provider reported no total.
func tokens(u provider.Usage) int {
	if u.TotalTokens > 0 {
		return u.TotalTokens
	}
	return u.InputTokens + u.OutputTokens
}
