// Command orchestrator runs schema enforcement the way an asynchronous
// coordinator does: every attempt is a separate job, nothing is
// kept in memory between jobs but JSON records in a store, and a failed
// validation creates a resume run whose prompt is the re-ask.
//
//	go run ./examples/orchestrator
//
// The jobs run in one process here, against a scripted model, but each one
// rebuilds what it needs from the stored JSON alone (the schema, the options,
// the enforcement state), so they could as well run on different machines.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// analysisSchema is the output schema a caller attaches to its run.
const analysisSchema = `{
  "type": "object",
  "required": ["summary", "files_analyzed", "issues"],
  "properties": {
    "summary": {"type": "string"},
    "files_analyzed": {"type": "integer", "minimum": 0},
    "issues": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["file", "severity", "message"],
        "properties": {
          "file": {"type": "string"},
          "severity": {"type": "string", "enum": ["low", "medium", "high"]},
          "message": {"type": "string"}
        }
      }
    }
  }
}`

// runRecord is what the coordinator stores for a run: plain JSON, so any job
// on any machine can pick it up.
type runRecord struct {
	ID          string             `json:"run_id"`
	SessionID   string             `json:"session_id"`
	Prompt      string             `json:"prompt"`
	Schema      json.RawMessage    `json:"output_schema"`
	MaxRetries  int                `json:"max_retries"`
	Enforcement enforce.State      `json:"enforcement"`
	Result      *provider.Response `json:"result,omitempty"`
	Status      string             `json:"status"`
	Validated   json.RawMessage    `json:"validated_output,omitempty"`
	Error       json.RawMessage    `json:"error,omitempty"`
}

// job is an entry of the coordinator's queue.
type job struct {
	Kind  string // "execute" or "completed"
	RunID string
}

// coordinator holds the store (run records and session transcripts, as JSON)
// and the queue. The model sits behind the executor.
type coordinator struct {
	w        io.Writer
	model    provider.Provider
	store    map[string][]byte
	sessions map[string][]byte // session id -> JSON transcript, kept by the executor
	queue    []job
	nextRun  int
}

func main() {
	if err := run(context.Background(), os.Stdout, scriptedModel()); err != nil {
		fmt.Fprintln(os.Stderr, "orchestrator:", err)
		os.Exit(1)
	}
}

// scriptedModel plays the agent: its first answer puts a severity out of
// range and forgets a required count, its second (after the re-ask) is right.
func scriptedModel() provider.Provider {
	return providertest.New(
		providertest.Text(`{"summary": "Two risky spots in the upload path.",
 "issues": [{"file": "upload.go", "severity": "critical", "message": "No size limit on the body."},
            {"file": "upload.go", "severity": "low", "message": "Temp file not removed on error."}]}`),
		providertest.Text(`{"summary": "Two risky spots in the upload path.", "files_analyzed": 3, "issues": [`+
			`{"file": "upload.go", "severity": "high", "message": "No size limit on the body."}, `+
			`{"file": "upload.go", "severity": "low", "message": "Temp file not removed on error."}]}`),
	)
}

// run creates one run with an output schema and works the queue until it is
// empty, then answers GET /sessions/ses_1/result.
func run(ctx context.Context, w io.Writer, model provider.Provider) error {
	c := &coordinator{w: w, model: model, store: map[string][]byte{}, sessions: map[string][]byte{}}

	// POST /runs {"agent_name": "code-analyzer", "prompt": ..., "output_schema": ...}
	if err := c.createRun("ses_1", "Analyze the upload handler.", json.RawMessage(analysisSchema), 2, enforce.State{}); err != nil {
		return err
	}
	for len(c.queue) > 0 {
		j := c.queue[0]
		c.queue = c.queue[1:]
		var err error
		switch j.Kind {
		case "execute":
			err = c.execute(ctx, j.RunID)
		case "completed":
			err = c.completed(ctx, j.RunID)
		}
		if err != nil {
			return fmt.Errorf("job %s %s: %w", j.Kind, j.RunID, err)
		}
	}
	result, err := c.sessionResult("ses_1")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nGET /sessions/ses_1/result\n%s\n", result)
	return nil
}

// enforcerFor rebuilds the Enforcer of a run from its stored record: the
// only state it needs is in the record.
func enforcerFor(r *runRecord) (*enforce.Enforcer, error) {
	s, err := schema.Parse(r.Schema)
	if err != nil {
		return nil, err // *schema.InvalidSchemaError: the run is refused at creation in a real coordinator
	}
	return enforce.New(s, enforce.WithMaxRetries(r.MaxRetries), enforce.WithMode(enforce.ModePrompt))
}

// createRun stores a run and queues its execution. A first run's prompt is
// enriched with the schema instructions; a resume run's prompt is the re-ask.
func (c *coordinator) createRun(session, prompt string, outSchema json.RawMessage, maxRetries int, st enforce.State) error {
	c.nextRun++
	r := &runRecord{
		ID: fmt.Sprintf("run_%d", c.nextRun), SessionID: session, Prompt: prompt,
		Schema: outSchema, MaxRetries: maxRetries, Enforcement: st, Status: "pending",
	}
	if st.Attempts == 0 {
		e, err := enforcerFor(r)
		if err != nil {
			return err
		}
		r.Prompt = e.EnrichPrompt(prompt)
	}
	if err := c.save(r); err != nil {
		return err
	}
	c.queue = append(c.queue, job{Kind: "execute", RunID: r.ID})
	fmt.Fprintf(c.w, "created %s for %s (attempt %d), prompt of %d bytes\n", r.ID, session, st.Attempts+1, len(r.Prompt))
	return nil
}

// execute is the executor's job: it resumes the session with the run's
// prompt, asks the model, and reports completion.
func (c *coordinator) execute(ctx context.Context, id string) error {
	r, err := c.load(id)
	if err != nil {
		return err
	}
	var transcript []provider.Message
	if data, ok := c.sessions[r.SessionID]; ok {
		if err := json.Unmarshal(data, &transcript); err != nil {
			return err
		}
	}
	transcript = append(transcript, provider.UserMessage(r.Prompt))
	resp, err := c.model.Generate(ctx, &provider.Request{Messages: transcript})
	if err != nil {
		return err
	}
	transcript = append(transcript, provider.Message{Role: provider.RoleAssistant, Content: resp.Text})
	data, err := json.Marshal(transcript)
	if err != nil {
		return err
	}
	c.sessions[r.SessionID] = data
	r.Result, r.Status = resp, "completed"
	if err := c.save(r); err != nil {
		return err
	}
	c.queue = append(c.queue, job{Kind: "completed", RunID: id})
	return nil
}

// completed is the coordinator's on-run-completed job: it validates the
// result and either stores it, creates a resume run, or fails the run.
func (c *coordinator) completed(ctx context.Context, id string) error {
	r, err := c.load(id)
	if err != nil {
		return err
	}
	e, err := enforcerFor(r)
	if err != nil {
		return err
	}
	v := e.Check(ctx, r.Enforcement, r.Result)
	fmt.Fprintf(c.w, "checked %s: %s\n", id, v.Outcome)
	for _, viol := range v.Violations {
		fmt.Fprintf(c.w, "  %s\n", viol)
	}
	switch {
	case v.OK:
		r.Status, r.Validated = "validated", v.JSON
	case v.Retry:
		r.Status = "retrying"
		state, _ := json.Marshal(v.State)
		fmt.Fprintf(c.w, "  state saved for the resume run: %s\n", state)
		if err := c.createRun(r.SessionID, v.Reask, r.Schema, r.MaxRetries, v.State); err != nil {
			return err
		}
	default:
		r.Status = "failed"
		var ve *enforce.ValidationError
		if errors.As(v.Err, &ve) {
			r.Error, _ = json.Marshal(ve) // the OutputSchemaValidationError shape
		} else {
			r.Error, _ = json.Marshal(map[string]string{"error": v.Err.Error()})
		}
	}
	return c.save(r)
}

// sessionResult answers GET /sessions/{id}/result from the newest run of the
// session, in the shape a coordinator's clients read.
func (c *coordinator) sessionResult(session string) (string, error) {
	var last *runRecord
	retries := -1
	for i := 1; i <= c.nextRun; i++ {
		r, err := c.load(fmt.Sprintf("run_%d", i))
		if err != nil {
			return "", err
		}
		if r.SessionID == session {
			last, retries = r, retries+1
		}
	}
	if last == nil || last.Result == nil {
		return "", fmt.Errorf("session %s has no finished run", session)
	}
	out := map[string]any{
		"result":           last.Result.Text,
		"validated_output": last.Validated,
		"schema_validation": map[string]any{
			"valid":       last.Status == "validated",
			"retry_count": retries,
		},
	}
	if last.Error != nil {
		out["error"] = last.Error
	}
	data, err := json.MarshalIndent(out, "", "  ")
	return string(data), err
}

func (c *coordinator) save(r *runRecord) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	c.store[r.ID] = data
	return nil
}

func (c *coordinator) load(id string) (*runRecord, error) {
	data, ok := c.store[id]
	if !ok {
		return nil, fmt.Errorf("no run %s", id)
	}
	var r runRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	return &r, nil
}
