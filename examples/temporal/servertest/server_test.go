package servertest

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.temporal.io/server/temporaltest"

	"github.com/agentio/agentio/examples/temporal/durable"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// wrong and right are the scripted model's two answers: a verdict the
// schema refuses, which makes the run re-ask, then a valid one.
const (
	wrong = `{"verdict": "lgtm", "summary": "Fine."}`
	right = `{"verdict": "approve", "summary": "The change is small and tested."}`
)

// reviewSchema is the output the runs enforce, as in the example.
const reviewSchema = `{
  "type": "object",
  "required": ["verdict", "summary"],
  "properties": {
    "verdict": {"enum": ["approve", "request_changes"]},
    "summary": {"type": "string", "minLength": 1}
  }
}`

// input is the run every test starts.
func input() durable.Input {
	return durable.Input{
		Schema:     json.RawMessage(reviewSchema),
		System:     "You are a careful code reviewer.",
		Prompt:     "Review PR 42: it adds a size limit to the upload handler.",
		MaxRetries: 2,
	}
}

// workerOptions make a cancellation reach a model call within a tenth of a
// second (the SDK sends heartbeats at most that often).
var workerOptions = worker.Options{MaxHeartbeatThrottleInterval: 100 * time.Millisecond}

// newServer starts a Temporal server in process, stopped when t ends.
func newServer(t *testing.T) *temporaltest.TestServer {
	t.Helper()
	return temporaltest.NewServer(temporaltest.WithT(t))
}

// startWorker starts a worker on t's task queue whose Generate activity
// calls model; the worker stops when the server does, or before.
func startWorker(ts *temporaltest.TestServer, t *testing.T, model provider.Provider) worker.Worker {
	return ts.NewWorkerWithOptions(t.Name(), func(r worker.Registry) {
		r.RegisterWorkflow(durable.EnforceWorkflow)
		acts := &durable.Activities{Model: model, Heartbeat: 20 * time.Millisecond}
		r.RegisterActivityWithOptions(acts.Generate, activity.RegisterOptions{Name: durable.GenerateActivity})
	}, workerOptions)
}

// start starts a run of the workflow on t's task queue.
func start(ctx context.Context, t *testing.T, c client.Client) client.WorkflowRun {
	t.Helper()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: t.Name()}, durable.EnforceWorkflow, input())
	require.NoError(t, err)
	return run
}

// testContext is t's context, cut off after a minute so that a run that
// never ends fails the test instead of hanging it.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// events returns the history the server keeps of run.
func events(ctx context.Context, t *testing.T, c client.Client, run client.WorkflowRun) *historypb.History {
	t.Helper()
	h := &historypb.History{}
	it := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		require.NoError(t, err)
		h.Events = append(h.Events, e)
	}
	return h
}

// activityAttempts returns, per model call the history records, the
// attempt of the activity that made it (1 unless the activity was retried).
func activityAttempts(h *historypb.History) []int32 {
	var attempts []int32
	for _, e := range h.Events {
		if e.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED {
			attempts = append(attempts, e.GetActivityTaskStartedEventAttributes().GetAttempt())
		}
	}
	return attempts
}

// stalled is the model of a worker whose call number stallAt (counting
// from 1) never reaches the model: it reports itself on reached and waits
// for its context to end, then sends the context's error on ended. The
// calls before it go to model.
type stalled struct {
	model   provider.Provider
	stallAt int32
	calls   atomic.Int32
	reached chan struct{}
	ended   chan error
}

func newStalled(model provider.Provider, stallAt int32) *stalled {
	return &stalled{model: model, stallAt: stallAt, reached: make(chan struct{}, 1), ended: make(chan error, 1)}
}

func (s *stalled) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	if s.calls.Add(1) != s.stallAt {
		return s.model.Generate(ctx, req)
	}
	s.reached <- struct{}{}
	<-ctx.Done()
	s.ended <- ctx.Err()
	return nil, ctx.Err()
}

func (s *stalled) Capabilities() provider.Capabilities { return provider.Capabilities{} }

// wait waits for ch or fails t when ctx ends first.
func wait[T any](ctx context.Context, t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		require.FailNow(t, "timed out waiting for "+what)
		var zero T
		return zero
	}
}

// TestReask: a run whose first reply is invalid re-asks once, on a real
// server, and completes with the valid reply.
func TestReask(t *testing.T) {
	ctx := testContext(t)
	ts := newServer(t)
	model := providertest.New(providertest.Text(wrong), providertest.Text(right))
	startWorker(ts, t, model)
	run := start(ctx, t, ts.GetDefaultClient())

	var out durable.Output
	require.NoError(t, run.Get(ctx, &out))
	assert.JSONEq(t, right, string(out.JSON))
	assert.Equal(t, 2, out.Attempts)
	reqs := model.Requests()
	require.Len(t, reqs, 2, "one call per attempt")
	assert.Contains(t, reqs[1].Messages[len(reqs[1].Messages)-1].Content, "'lgtm' is not one of")
	assert.Equal(t, []int32{1, 1}, activityAttempts(events(ctx, t, ts.GetDefaultClient(), run)))
}

// TestWorkerKilled: the worker that made the first call dies before it
// calls the model a second time; a new worker, which has no state of the
// run, replays its history from the server, and makes the re-ask, the one
// call still to make. Each model is called once: no call is repeated.
func TestWorkerKilled(t *testing.T) {
	ctx := testContext(t)
	ts := newServer(t)
	c := ts.GetDefaultClient()
	firstModel := providertest.New(providertest.Text(wrong))
	dying := newStalled(firstModel, 2)
	first := startWorker(ts, t, dying)
	run := start(ctx, t, c)

	wait(ctx, t, dying.reached, "the second call on the first worker")
	first.Stop() // the worker dies before its model sees the re-ask
	assert.ErrorIs(t, wait(ctx, t, dying.ended, "the first worker's end"), context.Canceled)

	resumed := providertest.New(providertest.Text(right))
	startWorker(ts, t, resumed)
	var out durable.Output
	require.NoError(t, run.Get(ctx, &out))
	assert.JSONEq(t, right, string(out.JSON))
	assert.Equal(t, 2, out.Attempts)

	require.Len(t, firstModel.Requests(), 1, "the first worker's model: the first call")
	reqs := resumed.Requests()
	require.Len(t, reqs, 1, "the new worker's model: the re-ask alone")
	assert.Contains(t, reqs[0].Messages[len(reqs[0].Messages)-1].Content, "'lgtm' is not one of")
	assert.Equal(t, []int32{1, 2}, activityAttempts(events(ctx, t, c, run)),
		"the re-ask's activity, left by the dead worker, ran again on the new one")
}

// TestRetryUsage: an activity retried after a provider error (a rate
// limit) counts the usage of the replies it got, not of the failed call.
func TestRetryUsage(t *testing.T) {
	ctx := testContext(t)
	ts := newServer(t)
	model := providertest.New(
		providertest.Reply{Text: wrong, Usage: provider.Usage{InputTokens: 100, OutputTokens: 20}},
		providertest.Failed(&provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429}),
		providertest.Reply{Text: right, Usage: provider.Usage{InputTokens: 150, OutputTokens: 30}},
	)
	startWorker(ts, t, model)
	run := start(ctx, t, ts.GetDefaultClient())

	var out durable.Output
	require.NoError(t, run.Get(ctx, &out))
	assert.Equal(t, 2, out.Attempts)
	assert.Equal(t, provider.Usage{InputTokens: 250, OutputTokens: 50, TotalTokens: 300}, out.Usage)
	reqs := model.Requests()
	require.Len(t, reqs, 3, "the first call, the re-ask, the re-ask again after the rate limit")
	assert.Equal(t, reqs[1], reqs[2], "the retry sends the same re-ask")
	assert.Equal(t, []int32{1, 2}, activityAttempts(events(ctx, t, ts.GetDefaultClient(), run)))
}

// result records what the workflow returns when a replayer runs it.
type result struct {
	interceptor.WorkerInterceptorBase
	out any
	err error
}

func (r *result) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &resultInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, r: r}
}

type resultInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	r *result
}

func (i *resultInbound) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (any, error) {
	i.r.out, i.r.err = i.Next.ExecuteWorkflow(ctx, in)
	return i.r.out, i.r.err
}

// TestReplay: the history the server recorded of a run, replayed on a new
// worker that calls no model, gives the same result.
func TestReplay(t *testing.T) {
	ctx := testContext(t)
	ts := newServer(t)
	c := ts.GetDefaultClient()
	startWorker(ts, t, providertest.New(providertest.Text(wrong), providertest.Text(right)))
	run := start(ctx, t, c)
	var out durable.Output
	require.NoError(t, run.Get(ctx, &out))

	rec := &result{}
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: []interceptor.WorkerInterceptor{rec}})
	require.NoError(t, err)
	r.RegisterWorkflow(durable.EnforceWorkflow)
	require.NoError(t, r.ReplayWorkflowHistory(tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)), events(ctx, t, c, run)))
	require.NoError(t, rec.err)
	// The server's result went through the data converter, which
	// compacts the JSON; compare the two as JSON.
	want, err := json.Marshal(out)
	require.NoError(t, err)
	got, err := json.Marshal(rec.out)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got))
	assert.IsType(t, durable.Output{}, rec.out)
}

// TestCancel: cancelling a run whose re-ask is with the model cancels the
// model call's context, and the run ends cancelled once the call has.
func TestCancel(t *testing.T) {
	ctx := testContext(t)
	ts := newServer(t)
	c := ts.GetDefaultClient()
	model := newStalled(providertest.New(providertest.Text(wrong)), 2)
	startWorker(ts, t, model)
	run := start(ctx, t, c)

	wait(ctx, t, model.reached, "the re-ask")
	require.NoError(t, c.CancelWorkflow(ctx, run.GetID(), run.GetRunID()))
	err := run.Get(ctx, nil)
	var canceled *temporal.CanceledError
	require.True(t, errors.As(err, &canceled), "%v", err)
	select {
	case err := <-model.ended:
		assert.ErrorIs(t, err, context.Canceled)
	default:
		require.FailNow(t, "the run ended before its model call")
	}

	desc, err := c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
	require.NoError(t, err)
	assert.Equal(t, enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED, desc.GetWorkflowExecutionInfo().GetStatus())
	var canceledCall bool
	for _, e := range events(ctx, t, c, run).Events {
		canceledCall = canceledCall || e.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED
	}
	assert.True(t, canceledCall, "the history records the model call cancelled")
}
