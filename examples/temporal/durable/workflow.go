package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
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
		// A call whose worker died stops heartbeating and is retried on
		// another worker after HeartbeatTimeout, not StartToCloseTimeout.
		HeartbeatTimeout: HeartbeatTimeout,
		// A cancelled run ends once the model call in flight has seen its
		// context cancelled, not before: no paid call outlives its run.
		WaitForCancellation: true,
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
	string(provider.ErrAuth), string(provider.ErrInvalidRequest), string(provider.ErrSchemaRejected),
}

// HeartbeatTimeout is how long the server waits for a heartbeat from a
// model call in flight before it takes the call's worker for dead and
// retries the call on another.
const HeartbeatTimeout = 20 * time.Second

// DefaultHeartbeat is how often Generate heartbeats while the model
// answers, when [Activities].Heartbeat is zero.
const DefaultHeartbeat = 5 * time.Second

// Activities hold the model the Generate activity calls. They are safe for
// concurrent use when Model is.
type Activities struct {
	// Model is the provider each call goes to.
	Model provider.Provider
	// Heartbeat is how often Generate records a heartbeat while the model
	// answers: the heartbeat tells the server the worker lives, and its
	// reply is how a cancelled run reaches the call in flight. Zero means
	// DefaultHeartbeat. The SDK sends heartbeats at most every 80% of
	// HeartbeatTimeout (worker.Options.MaxHeartbeatThrottleInterval lowers
	// that), so a cancellation reaches the call within that time.
	Heartbeat time.Duration
}

// Generate sends one request to the model. A provider error is returned
// with its kind as the Temporal error type, so that rate limits and
// overloads are retried by the activity's retry policy and the others are
// not.
//
// While the model answers, Generate heartbeats (see Heartbeat); when the
// run is cancelled, ctx is cancelled, the model call ends, and the
// activity reports itself cancelled.
func (a *Activities) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	stop := a.heartbeat(ctx)
	resp, err := a.Model.Generate(ctx, req)
	stop()
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, err // a cancelled call: the SDK reports it so
		}
		var pe *provider.Error
		if errors.As(err, &pe) {
			return nil, temporal.NewApplicationErrorWithCause(pe.Error(), string(pe.Kind), err)
		}
		return nil, fmt.Errorf("generate: %w", err)
	}
	return resp, nil
}

// heartbeat records a heartbeat of the activity running on ctx now and
// every a.Heartbeat, until stop is called or ctx ends; stop returns once
// the heartbeats have stopped. Outside an activity it does nothing.
func (a *Activities) heartbeat(ctx context.Context) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	every := a.Heartbeat
	if every <= 0 {
		every = DefaultHeartbeat
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			activity.RecordHeartbeat(ctx)
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}
