package enforce

import (
	"encoding/json"
	"time"

	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// A Result is the outcome of a run: the valid JSON and every attempt made to
// get it. [Run] returns it on success, and beside the error once an attempt
// was made, so that attempts and usage are never lost. The caller owns it.
type Result struct {
	// JSON is the validated value: the model's own bytes when no repair or
	// transformation was needed. Nil when the run failed.
	JSON json.RawMessage `json:"json,omitempty"`
	// Value is JSON decoded (map[string]any, []any, string, float64, bool
	// or nil). Nil when the run failed.
	Value any `json:"-"`
	// Text is the raw output of the last attempt, which the JSON was taken
	// from on success: the reply's text, or the submit_result call's
	// arguments in [ModeTool].
	Text string `json:"text"`
	// Attempts are every attempt of the run, oldest first.
	Attempts []Attempt `json:"attempts"`
	// Usage is the token usage summed over the attempts.
	Usage provider.Usage `json:"usage"`
	// Mode is the mode used by the last attempt (never [ModeAuto]).
	Mode Mode `json:"mode"`
	// Coercions are the changes lenient validation made to the model's
	// value to get JSON (see [WithLenient]); none when it passed as
	// written.
	Coercions []schema.Coercion `json:"coercions,omitempty"`
}

// An Outcome says how an attempt ended.
type Outcome string

// The outcomes.
const (
	// OutcomeValid: a value passed the schema and every validator.
	OutcomeValid Outcome = "valid"
	// OutcomeInvalid: JSON was found but violates the schema or a validator.
	OutcomeInvalid Outcome = "invalid"
	// OutcomeNoJSON: the output held no JSON value.
	OutcomeNoJSON Outcome = "no_json"
	// OutcomeNonJSONText: under [WithStrictJSONOnly], text surrounded the JSON.
	OutcomeNonJSONText Outcome = "non_json_text"
	// OutcomeNoToolCall: in [ModeTool], the reply did not call submit_result.
	OutcomeNoToolCall Outcome = "no_tool_call"
	// OutcomeTruncated: the reply hit the token limit before its JSON was complete.
	OutcomeTruncated Outcome = "truncated"
	// OutcomeRefused: the model refused, or a content filter stopped the reply.
	OutcomeRefused Outcome = "refused"
	// OutcomeProviderError: the provider call failed (Attempt.Err).
	OutcomeProviderError Outcome = "provider_error"
	// OutcomeSchemaRejected: the provider rejected the schema and the run
	// fell back to [ModePrompt] (see [WithoutSchemaFallback]).
	OutcomeSchemaRejected Outcome = "schema_rejected"
)

// An Attempt records one call to the model and what came of it.
type Attempt struct {
	// Number counts the run's calls from 1.
	Number int `json:"number"`
	// Mode is the mode of this call.
	Mode Mode `json:"mode"`
	// Outcome says how the attempt ended.
	Outcome Outcome `json:"outcome"`
	// Request is the request sent. Set by [Run]; nil in a [Verdict].
	Request *provider.Request `json:"request,omitempty"`
	// Response is the provider's reply; nil when the call failed.
	Response *provider.Response `json:"response,omitempty"`
	// Err is the provider error of a failed call.
	Err error `json:"-"`
	// JSON is the value checked (the valid one, or the one closest to
	// valid), after any repair or transformation.
	JSON json.RawMessage `json:"json,omitempty"`
	// Source says how JSON was found in the output.
	Source extract.Source `json:"source,omitempty"`
	// Fixes are the repairs applied to JSON (see [WithRepair]).
	Fixes []extract.Fix `json:"fixes,omitempty"`
	// Changes are the transformations applied to the value before
	// validation, such as unwrapping a wrapped root.
	Changes []Change `json:"changes,omitempty"`
	// Coercions are the changes lenient validation made to JSON so that it
	// passes the schema (see [WithLenient]); none when the model's value
	// passed as written.
	Coercions []schema.Coercion `json:"coercions,omitempty"`
	// Violations are why JSON was rejected; none when Outcome is valid.
	Violations []schema.Violation `json:"violations,omitempty"`
	// Usage is this call's token usage.
	Usage provider.Usage `json:"usage"`
	// Duration is the time from sending the request to deciding the
	// outcome. Set by [Run]; in a [Verdict] it is the checking time only.
	Duration time.Duration `json:"duration"`
	// Notes are remarks on the attempt, such as a schema dialect that could
	// not be applied.
	Notes []string `json:"notes,omitempty"`
	// StoppedEarly reports a streamed reply that was stopped before its end
	// because a complete part of it already violated the schema (see
	// [WithPartials]); Outcome is then [OutcomeInvalid] and Violations are that
	// part's, and Usage is zero, since the provider never reported it.
	StoppedEarly bool `json:"stopped_early,omitempty"`
}

// A Change is one transformation of a value between extraction and
// validation, recorded like a repair fix.
type Change struct {
	// Kind names the transformation.
	Kind ChangeKind `json:"kind"`
	// Detail says what was done.
	Detail string `json:"detail"`
}

// A ChangeKind names what a [Change] did.
type ChangeKind string

// The kinds of [Change].
const (
	// ChangeUnwrapped: the wrapping object of a non-object root was removed.
	ChangeUnwrapped ChangeKind = "unwrapped"
	// ChangeRestored: a provider dialect's rewriting was undone.
	ChangeRestored ChangeKind = "restored"
)
