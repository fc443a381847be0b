package enforce

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// ErrNoJSON matches a [*ValidationError] whose last attempt held no JSON
// value. It is extract.ErrNoJSON, so either name matches.
var ErrNoJSON = extract.ErrNoJSON

// ErrNonJSONText matches a [*ValidationError] whose last attempt, under
// [WithStrictJSONOnly], had text around its JSON value. It is
// extract.ErrNonJSONText, so either name matches.
var ErrNonJSONText = extract.ErrNonJSONText

// ErrTruncated matches a [*ValidationError] whose last attempt was cut off
// at the token limit (provider.StopLength) before its JSON was complete.
var ErrTruncated = errors.New("enforce: reply truncated at the token limit")

// ErrRefused is returned, wrapped with the model's refusal message, when the
// model refused to answer or the provider's content filter stopped the reply.
// A refusal is not retried. [Run] returns its [*Result] beside it.
var ErrRefused = errors.New("enforce: model refused to answer")

// ErrTokenBudget matches the error of a run stopped because the next call
// could exceed the token budget (see [WithTokenBudget]). When an attempt
// failed before, it comes inside a [*ValidationError]; [Run] returns its
// [*Result] beside it.
var ErrTokenBudget = errors.New("enforce: token budget exhausted")

// ErrInvalidOption is returned, wrapped with the offending value, by [Run],
// [Typed] and [New] when an option was given a bad value. No provider call
// is made.
var ErrInvalidOption = errors.New("enforce: invalid option")

// ErrInvalidRequest is returned, wrapped with the reason, when a [Request]
// cannot be sent: it has neither a prompt nor messages, or asks for a mode
// the provider does not support. No provider call is made.
var ErrInvalidRequest = errors.New("enforce: invalid request")

// A ValidationError reports a run that ended without valid output: every
// allowed re-ask was spent, or the token budget ran out. It carries the
// final violations, the last raw output, every attempt and the total usage.
// errors.Is matches its cause: [ErrNoJSON], [ErrNonJSONText],
// [ErrTruncated] or [ErrTokenBudget] (none when the JSON was merely invalid).
//
// Its JSON encoding (MarshalJSON) is the OutputSchemaValidationError shape
// that orchestrators report:
//
//	{"error":"OutputSchemaValidationError","message":"Output validation failed after 1 retry",
//	 "errors":[{"path":"$.summary","message":"'summary' is a required property"}]}
type ValidationError struct {
	// Retries is the number of re-asks made after the first attempt.
	Retries int
	// Violations are the last attempt's violations, in a stable order.
	Violations []schema.Violation
	// Output is the last attempt's raw output: the reply's text, or the
	// submit_result call's arguments in [ModeTool].
	Output string
	// Attempts are every attempt of the run, oldest first. [Run] fills it;
	// a [Verdict] from [Enforcer.Check] leaves it nil, as the step-wise
	// caller keeps its own records.
	Attempts []Attempt
	// Usage is the total token usage of the run.
	Usage provider.Usage
	// Err is the cause, or nil when the output was merely invalid.
	Err error
}

// errorListed is how many violations Error prints before "and N more".
const errorListed = 3

// Error returns "output validation failed after N retries: " and the first
// violations ("$.summary: 'summary' is a required property; ...").
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("output validation failed after ")
	b.WriteString(retries(e.Retries))
	if errors.Is(e.Err, ErrTokenBudget) {
		b.WriteString(" (token budget exhausted)")
	}
	for i, v := range e.Violations {
		if i == errorListed {
			fmt.Fprintf(&b, " (and %d more)", len(e.Violations)-i)
			break
		}
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(v.Path)
		b.WriteString(": ")
		b.WriteString(cut(v.Message, 200))
	}
	return b.String()
}

// Unwrap returns the cause (nil when the output was merely invalid).
func (e *ValidationError) Unwrap() error { return e.Err }

// MarshalJSON renders the OutputSchemaValidationError shape: "error",
// "message" ("Output validation failed after N retries") and "errors", one
// {"path", "message"} per violation.
func (e *ValidationError) MarshalJSON() ([]byte, error) {
	type item struct {
		Path    string `json:"path"`
		Message string `json:"message"`
	}
	out := struct {
		Error   string `json:"error"`
		Message string `json:"message"`
		Errors  []item `json:"errors"`
	}{
		Error:   "OutputSchemaValidationError",
		Message: "Output validation failed after " + retries(e.Retries),
		Errors:  make([]item, len(e.Violations)),
	}
	for i, v := range e.Violations {
		out.Errors[i] = item{Path: v.Path, Message: v.Message}
	}
	return json.Marshal(out)
}

// retries renders "1 retry" or "N retries".
func retries(n int) string {
	if n == 1 {
		return "1 retry"
	}
	return fmt.Sprintf("%d retries", n)
}
