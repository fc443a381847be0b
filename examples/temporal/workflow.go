package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// GenerateActivity is the name the model call is registered under.
const GenerateActivity = "Generate"

// ErrorType is the Temporal application error type of a run that never
// produced valid output; its details hold the OutputSchemaValidationError
// JSON.
const ErrorType = "OutputSchemaValidationError"

// An Input starts an enforced run: the schema, the request, and what the
// model the activity calls can do (so the workflow picks the same mode a
// local run would).
type Input struct {
	Schema       json.RawMessage       `json:"schema"`
	System       string                `json:"system,omitempty"`
	Prompt       string                `json:"prompt"`
	MaxRetries   int                   `json:"max_retries"`
	Capabilities provider.Capabilities `json:"capabilities"`
}

// An Output is a run's valid JSON, with what it took.
type Output struct {
	JSON     json.RawMessage `json:"json"`
	Attempts int             `json:"attempts"`
	Usage    provider.Usage  `json:"usage"`
}

// EnforceWorkflow runs the enforcement loop as a durable workflow: each
// call to the model is an activity, whose reply Temporal records in the
// workflow's history, and everything else (the first request, the verdict
// on each reply, the re-ask) is computed by the step-wise enforce.Enforcer
// in workflow code, from the input and the recorded replies alone. So when
// a worker dies between attempts, the next worker replays the history: the
// calls already made are not made again (their replies come from the
// history), and the run goes on from the attempt it had reached.
//
// Enforcer.Check is deterministic (it reads nothing but its arguments; the
// only clock reading goes into an attempt's Duration, which no decision
// uses), so it runs in the workflow itself rather than as a local activity:
// a verdict costs no history event.
func EnforceWorkflow(ctx workflow.Context, in Input) (Output, error) {
	s, err := schema.Parse(in.Schema)
	if err != nil {
		return Output{}, temporal.NewNonRetryableApplicationError("invalid output schema", "InvalidSchema", err)
	}
	e, err := enforce.New(s, enforce.WithMaxRetries(in.MaxRetries))
	if err != nil {
		return Output{}, temporal.NewNonRetryableApplicationError("invalid options", "InvalidOptions", err)
	}
	first, st, err := e.Start(enforce.Request{System: in.System, Prompt: in.Prompt}, in.Capabilities)
	if err != nil {
		return Output{}, temporal.NewNonRetryableApplicationError("invalid request", "InvalidRequest", err)
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        time.Second,
			MaximumAttempts:        5,
			NonRetryableErrorTypes: nonRetryable,
		},
	})
	next := first
	for {
		var resp provider.Response
		if err := workflow.ExecuteActivity(ctx, GenerateActivity, next).Get(ctx, &resp); err != nil {
			return Output{}, err
		}
		v := e.Check(context.Background(), st, &resp)
		st = v.State
		workflow.GetLogger(ctx).Info("attempt checked", "attempt", st.Attempts, "outcome", string(v.Outcome))
		switch {
		case v.OK:
			return Output{JSON: v.JSON, Attempts: st.Attempts, Usage: st.Usage}, nil
		case !v.Retry:
			return Output{}, failure(v.Err)
		}
		next = v.Next(first)
	}
}

// failure is the workflow error of a run that ends without valid output.
func failure(err error) error {
	var ve *enforce.ValidationError
	if errors.As(err, &ve) {
		data, jerr := json.Marshal(ve)
		if jerr == nil {
			return temporal.NewNonRetryableApplicationError(ve.Error(), ErrorType, nil, json.RawMessage(data))
		}
	}
	return temporal.NewNonRetryableApplicationError(err.Error(), "Refused", nil)
}

// nonRetryable are the provider failures that another try cannot mend.
var nonRetryable = []string{
	string(provider.ErrorAuth), string(provider.ErrorInvalidRequest), string(provider.ErrorSchemaRejected),
}

// Activities hold the model the Generate activity calls.
type Activities struct {
	Model provider.Provider
}

// Generate sends one request to the model. A provider error is returned
// with its kind as the Temporal error type, so that rate limits and
// overloads are retried by the activity's retry policy and the others are
// not.
func (a *Activities) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	resp, err := a.Model.Generate(ctx, req)
	if err != nil {
		var pe *provider.Error
		if errors.As(err, &pe) {
			return nil, temporal.NewApplicationErrorWithCause(pe.Error(), string(pe.Kind), err)
		}
		return nil, fmt.Errorf("generate: %w", err)
	}
	return resp, nil
}
