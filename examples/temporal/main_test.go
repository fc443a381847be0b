package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/agentio/agentio/examples/temporal/durable"
	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// TestOutput runs the example offline and checks what it prints against
// testdata/output.golden (go test ./examples/temporal -update rewrites it).
func TestOutput(t *testing.T) {
	noEnv := func(string) string { return "" }
	golden.CheckOutput(t, "output", func(w io.Writer) error {
		return run(context.Background(), w, noEnv, "openai", "", "agentio-enforce")
	})
}

// newEnv returns a test environment running the workflow with model.
func newEnv(model provider.Provider) *testsuite.TestWorkflowEnvironment {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(quietLogger())
	env := suite.NewTestWorkflowEnvironment()
	register(env, model)
	return env
}

func TestReaskOnce(t *testing.T) {
	model := scriptedModel()
	env := newEnv(model)
	env.ExecuteWorkflow(durable.EnforceWorkflow, input(provider.Capabilities{}))
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var out durable.Output
	require.NoError(t, env.GetWorkflowResult(&out))
	assert.JSONEq(t, `{"verdict": "approve", "summary": "The change is small and tested."}`, string(out.JSON))
	assert.Equal(t, 2, out.Attempts)

	reqs := model.Requests()
	require.Len(t, reqs, 2, "one call per attempt")
	reask := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	assert.Contains(t, reask, "$.verdict: 'lgtm' is not one of ['approve', 'request_changes']")
	assert.Equal(t, "You are a careful code reviewer.", reqs[1].System)
}

func TestNeverValid(t *testing.T) {
	model := providertest.New(providertest.Text(`{}`), providertest.Text(`{}`), providertest.Text(`{}`))
	env := newEnv(model)
	env.ExecuteWorkflow(durable.EnforceWorkflow, input(provider.Capabilities{}))
	require.True(t, env.IsWorkflowCompleted())
	err := env.GetWorkflowError()
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.Equal(t, durable.ErrorType, appErr.Type())
	assert.True(t, appErr.NonRetryable())
	var details json.RawMessage
	require.NoError(t, appErr.Details(&details))
	assert.Contains(t, string(details), `"error":"OutputSchemaValidationError"`)
	assert.Len(t, model.Requests(), 3, "the first call and two re-asks")
}

func TestProviderErrors(t *testing.T) {
	// A rate limit is retried by the activity's retry policy; the run goes on.
	model := providertest.New(
		providertest.Failed(&provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429}),
		providertest.Text(`{"verdict": "approve", "summary": "Ok."}`),
	)
	env := newEnv(model)
	env.ExecuteWorkflow(durable.EnforceWorkflow, input(provider.Capabilities{}))
	require.NoError(t, env.GetWorkflowError())
	assert.Len(t, model.Requests(), 2)

	// A rejected key is not retried.
	model = providertest.New(providertest.Failed(&provider.Error{Kind: provider.ErrAuth, StatusCode: 401}))
	env = newEnv(model)
	env.ExecuteWorkflow(durable.EnforceWorkflow, input(provider.Capabilities{}))
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(env.GetWorkflowError(), &appErr))
	assert.Equal(t, string(provider.ErrAuth), appErr.Type())
	assert.Len(t, model.Requests(), 1)
}

// recordedRun runs the workflow once and returns what a Temporal server
// would have recorded of it: the input, and each call's request and reply.
func recordedRun(t *testing.T) (reqs []*provider.Request, resps []*provider.Response) {
	t.Helper()
	model := scriptedModel()
	env := newEnv(model)
	env.ExecuteWorkflow(durable.EnforceWorkflow, input(provider.Capabilities{}))
	require.NoError(t, env.GetWorkflowError())
	reqs = model.Requests()
	replies := scriptedModel()
	for range reqs {
		r, err := replies.Generate(context.Background(), &provider.Request{})
		require.NoError(t, err)
		resps = append(resps, r)
	}
	return reqs, resps
}

// history builds the event history of a run whose activities got the
// given requests and replies, in the shape a Temporal server records it.
// A request without a reply is a call the dead worker's model was still
// making: the history ends with it scheduled. With complete, the history
// ends with the workflow's completion.
func history(t *testing.T, reqs []*provider.Request, resps []*provider.Response, complete bool) *historypb.History {
	t.Helper()
	dc := converter.GetDefaultDataConverter()
	payloads := func(v any) *commonpb.Payloads {
		p, err := dc.ToPayloads(v)
		require.NoError(t, err)
		return p
	}
	queue := &taskqueuepb.TaskQueue{Name: "agentio-enforce"}
	var events []*historypb.HistoryEvent
	add := func(typ enumspb.EventType, attrs func(id int64) any) int64 {
		id := int64(len(events) + 1)
		e := &historypb.HistoryEvent{EventId: id, EventType: typ}
		if attrs != nil {
			switch a := attrs(id).(type) {
			case *historypb.WorkflowExecutionStartedEventAttributes:
				e.Attributes = &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: a}
			case *historypb.WorkflowTaskScheduledEventAttributes:
				e.Attributes = &historypb.HistoryEvent_WorkflowTaskScheduledEventAttributes{WorkflowTaskScheduledEventAttributes: a}
			case *historypb.WorkflowTaskStartedEventAttributes:
				e.Attributes = &historypb.HistoryEvent_WorkflowTaskStartedEventAttributes{WorkflowTaskStartedEventAttributes: a}
			case *historypb.WorkflowTaskCompletedEventAttributes:
				e.Attributes = &historypb.HistoryEvent_WorkflowTaskCompletedEventAttributes{WorkflowTaskCompletedEventAttributes: a}
			case *historypb.ActivityTaskScheduledEventAttributes:
				e.Attributes = &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: a}
			case *historypb.ActivityTaskStartedEventAttributes:
				e.Attributes = &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{ActivityTaskStartedEventAttributes: a}
			case *historypb.ActivityTaskCompletedEventAttributes:
				e.Attributes = &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: a}
			case *historypb.WorkflowExecutionCompletedEventAttributes:
				e.Attributes = &historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes{WorkflowExecutionCompletedEventAttributes: a}
			}
		}
		events = append(events, e)
		return id
	}
	workflowTask := func() int64 {
		sched := add(enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, func(int64) any {
			return &historypb.WorkflowTaskScheduledEventAttributes{TaskQueue: queue}
		})
		started := add(enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, func(int64) any {
			return &historypb.WorkflowTaskStartedEventAttributes{ScheduledEventId: sched}
		})
		return add(enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, func(int64) any {
			return &historypb.WorkflowTaskCompletedEventAttributes{ScheduledEventId: sched, StartedEventId: started}
		})
	}
	add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, func(int64) any {
		return &historypb.WorkflowExecutionStartedEventAttributes{
			WorkflowType: &commonpb.WorkflowType{Name: "EnforceWorkflow"},
			TaskQueue:    queue,
			Input:        payloads(input(provider.Capabilities{})),
		}
	})
	for i := range reqs {
		workflowTask()
		sched := add(enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, nil)
		events[sched-1].Attributes = &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
			ActivityId:   strconvID(sched),
			ActivityType: &commonpb.ActivityType{Name: durable.GenerateActivity},
			TaskQueue:    queue,
			Input:        payloads(reqs[i]),
		}}
		started := add(enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, func(int64) any {
			return &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: sched}
		})
		if i >= len(resps) {
			return &historypb.History{Events: events}
		}
		add(enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, func(int64) any {
			return &historypb.ActivityTaskCompletedEventAttributes{ScheduledEventId: sched, StartedEventId: started, Result: payloads(resps[i])}
		})
	}
	if !complete {
		return &historypb.History{Events: events}
	}
	done := workflowTask()
	add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, func(int64) any {
		return &historypb.WorkflowExecutionCompletedEventAttributes{WorkflowTaskCompletedEventId: done}
	})
	return &historypb.History{Events: events}
}

func strconvID(id int64) string {
	b, _ := json.Marshal(id)
	return string(b)
}

// scheduled records the model calls the workflow asks for while it is
// replayed; a replayer runs no activity, so each is a command a server
// would dispatch, or one the history already answers.
type scheduled struct {
	interceptor.WorkerInterceptorBase
	reqs []*provider.Request
}

func (s *scheduled) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &scheduledInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, s: s}
}

type scheduledInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	s *scheduled
}

func (i *scheduledInbound) Init(outbound interceptor.WorkflowOutboundInterceptor) error {
	return i.Next.Init(&scheduledOutbound{WorkflowOutboundInterceptorBase: interceptor.WorkflowOutboundInterceptorBase{Next: outbound}, s: i.s})
}

type scheduledOutbound struct {
	interceptor.WorkflowOutboundInterceptorBase
	s *scheduled
}

func (o *scheduledOutbound) ExecuteActivity(ctx workflow.Context, activityType string, args ...interface{}) workflow.Future {
	if req, ok := args[0].(*provider.Request); ok && activityType == durable.GenerateActivity {
		o.s.reqs = append(o.s.reqs, req)
	}
	return o.Next.ExecuteActivity(ctx, activityType, args...)
}

// replay replays h on a new worker, returning the model calls the workflow
// asked for. The replayer runs no activity: a call the history answers is
// not made again.
func replay(t *testing.T, h *historypb.History) ([]*provider.Request, error) {
	t.Helper()
	rec := &scheduled{}
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: []interceptor.WorkerInterceptor{rec}})
	require.NoError(t, err)
	r.RegisterWorkflow(durable.EnforceWorkflow)
	err = r.ReplayWorkflowHistory(quietLogger(), h)
	return rec.reqs, err
}

// TestResumeAfterWorkerCrash replays, on a new worker, the history a
// server keeps of a run whose worker died after the first call, with the
// re-ask scheduled: the workflow rebuilds its state from the recorded first
// reply alone (a replayer runs no activity), asks for the first call again
// only to be answered from the history, and for the re-ask, which the
// resumed worker's model then answers: two paid calls in all, as in the run
// that was not interrupted.
// A history in which the run decided otherwise is refused, which shows the
// replay checks every decision.
func TestResumeAfterWorkerCrash(t *testing.T) {
	reqs, resps := recordedRun(t)
	require.Len(t, reqs, 2)

	// The worker died after the first call, while its model was answering
	// the re-ask: a new one picks the run up.
	asked, err := replay(t, history(t, reqs, resps[:1], false))
	require.NoError(t, err)
	require.Len(t, asked, 2, "the recorded first call and the re-ask")
	assert.Equal(t, reqs[0], asked[0], "the first call, answered from the history")
	assert.Equal(t, reqs[1], asked[1], "the re-ask, the one call still to make")
	assert.Contains(t, asked[1].Messages[len(asked[1].Messages)-1].Content, "'lgtm' is not one of")

	// The new worker's model is called once, for the re-ask only.
	resumed := providertest.New(providertest.Text(`{"verdict": "approve", "summary": "The change is small and tested."}`))
	resp, err := (&durable.Activities{Model: resumed}).Generate(context.Background(), asked[1])
	require.NoError(t, err)
	assert.Len(t, resumed.Requests(), 1, "the first call is not repeated")

	// The whole run, replayed with the resumed worker's reply: the re-ask
	// as the second call, then the end.
	asked, err = replay(t, history(t, reqs, []*provider.Response{resps[0], resp}, true))
	require.NoError(t, err)
	assert.Len(t, asked, 2)

	// Had the first reply been valid, the run would have ended there: a
	// history with a second call after it does not replay.
	_, err = replay(t, history(t, reqs, []*provider.Response{resps[1], resps[1]}, true))
	require.Error(t, err)
}

// TestFirstTime is a run whose first reply is valid: one call, no re-ask.
func TestFirstTime(t *testing.T) {
	model := providertest.New(providertest.Text(`{"verdict": "approve", "summary": "Ok."}`))
	env := newEnv(model)
	env.ExecuteWorkflow(durable.EnforceWorkflow, input(provider.Capabilities{}))
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var out durable.Output
	require.NoError(t, env.GetWorkflowResult(&out))
	assert.JSONEq(t, `{"verdict": "approve", "summary": "Ok."}`, string(out.JSON))
	assert.Equal(t, 1, out.Attempts)
	assert.Len(t, model.Requests(), 1)
}
