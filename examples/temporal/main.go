// Command temporal runs agentio's enforcement loop as a durable Temporal
// workflow: each call to the model is an activity, and the step-wise
// enforce.Enforcer decides, in workflow code, what to send next. A worker
// that dies between attempts is replaced by one that replays the history:
// no paid call is made twice.
//
//	go run ./examples/temporal                       # offline: Temporal's test environment, a scripted model
//	go run ./examples/temporal -hostport localhost:7233  # a Temporal server: starts a worker and runs the workflow
//	go run ./examples/temporal -provider ollama      # the model: openai (default), anthropic, gemini or ollama, real when configured
//
// Offline, the workflow runs in the SDK's in-process test environment
// (go.temporal.io/sdk/testsuite), with the scripted model of
// provider/providertest answering wrongly once and then rightly. With
// -hostport it registers the workflow and the activity on a worker of the
// task queue -queue, starts the workflow, and waits for it; the model is
// the scripted one unless the environment configures the -provider
// (OPENAI_API_KEY or OPENAI_BASE_URL for openai, ANTHROPIC_API_KEY for
// anthropic, GEMINI_API_KEY or GOOGLE_API_KEY for gemini, OLLAMA_HOST for
// ollama; AGENTIO_<PROVIDER>_MODEL picks the model). The choose package,
// examples/internal/choose, lists every variable it reads.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/agentio/agentio/examples/internal/choose"
	"github.com/agentio/agentio/examples/temporal/durable"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// reviewSchema is the output the workflow enforces.
const reviewSchema = `{
  "type": "object",
  "required": ["verdict", "summary"],
  "properties": {
    "verdict": {"enum": ["approve", "request_changes"]},
    "summary": {"type": "string", "minLength": 1}
  }
}`

func main() {
	hostport := flag.String("hostport", "", "a Temporal server (host:port); empty runs offline in the SDK's test environment")
	queue := flag.String("queue", "agentio-enforce", "the task queue, with -hostport")
	kind := flag.String("provider", "openai", "the model provider: "+strings.Join(choose.Kinds, ", ")+" (scripted unless the environment configures it)")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, os.Getenv, *kind, *hostport, *queue); err != nil {
		fmt.Fprintln(os.Stderr, "temporal:", err)
		os.Exit(1)
	}
}

// run picks the model of the given kind from getenv and runs the workflow:
// offline when hostport is empty, else on that server's task queue.
func run(ctx context.Context, w io.Writer, getenv func(string) string, kind, hostport, queue string) error {
	model, name, err := choose.Model(kind, getenv, func() provider.Provider { return scriptedModel() })
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "model: %s\n", name)
	if hostport == "" {
		fmt.Fprintln(w, "temporal: offline, in the SDK's test environment (-hostport localhost:7233 for a server)")
		return runOffline(w, model)
	}
	fmt.Fprintf(w, "temporal: %s, task queue %s\n", hostport, queue)
	return runOnServer(ctx, w, hostport, queue, model)
}

// scriptedModel answers with an unknown verdict first, then rightly.
func scriptedModel() *providertest.Provider {
	return providertest.New(
		providertest.Text(`{"verdict": "lgtm", "summary": "Fine."}`),
		providertest.Text(`{"verdict": "approve", "summary": "The change is small and tested."}`),
	)
}

// input is the run the example starts, for a model that can do caps.
func input(caps provider.Capabilities) durable.Input {
	return durable.Input{
		Capabilities: caps,
		Schema:       json.RawMessage(reviewSchema),
		System:       "You are a careful code reviewer.",
		Prompt:       "Review PR 42: it adds a size limit to the upload handler.",
		MaxRetries:   2,
	}
}

// register adds the workflow and the activity to r.
func register(r interface {
	RegisterWorkflow(w interface{})
	RegisterActivityWithOptions(a interface{}, options activity.RegisterOptions)
}, model provider.Provider) {
	r.RegisterWorkflow(durable.EnforceWorkflow)
	r.RegisterActivityWithOptions((&durable.Activities{Model: model}).Generate, activity.RegisterOptions{Name: durable.GenerateActivity})
}

// quietLogger drops the SDK's own log lines.
func quietLogger() tlog.Logger {
	return tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// runOffline runs the workflow in the SDK's test environment and prints
// each model call and the result.
func runOffline(w io.Writer, model provider.Provider) error {
	calls := 0
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(quietLogger())
	env := suite.NewTestWorkflowEnvironment()
	register(env, model)
	env.SetOnActivityCompletedListener(func(info *activity.Info, result converter.EncodedValue, err error) {
		var resp provider.Response
		if err == nil && result.Get(&resp) == nil {
			calls++
			fmt.Fprintf(w, "model call %d (activity %s, recorded in the history): %s\n", calls, info.ActivityType.Name, reply(&resp))
		}
	})
	env.ExecuteWorkflow(durable.EnforceWorkflow, input(model.Capabilities()))
	if !env.IsWorkflowCompleted() {
		return errors.New("the workflow did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		return err
	}
	var out durable.Output
	if err := env.GetWorkflowResult(&out); err != nil {
		return err
	}
	return printOutput(w, out)
}

// reply is what a model's response says: its text, or the arguments of
// its tool call (tool mode).
func reply(resp *provider.Response) string {
	if resp.Text == "" && len(resp.ToolCalls) > 0 {
		return string(resp.ToolCalls[0].Arguments)
	}
	return resp.Text
}

func printOutput(w io.Writer, out durable.Output) error {
	data, err := json.MarshalIndent(out.JSON, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "valid after %d attempts:\n%s\n", out.Attempts, data)
	return nil
}

// runOnServer runs a worker on a Temporal server and executes the workflow
// through it.
func runOnServer(ctx context.Context, w io.Writer, hostport, queue string, model provider.Provider) error {
	c, err := client.Dial(client.Options{HostPort: hostport, Logger: quietLogger()})
	if err != nil {
		return err
	}
	defer c.Close()
	wk := worker.New(c, queue, worker.Options{})
	register(wk, model)
	if err := wk.Start(); err != nil {
		return err
	}
	defer wk.Stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: queue}, durable.EnforceWorkflow, input(model.Capabilities()))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "workflow %s, run %s\n", run.GetID(), run.GetRunID())
	var out durable.Output
	if err := run.Get(ctx, &out); err != nil {
		return err
	}
	return printOutput(w, out)
}
