package blueprint_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/schema"
)

func ExampleParse() {
	bp, err := blueprint.Parse([]byte(`{
		"name": "summarizer",
		"type": "autonomous",
		"output_schema": {"type": "object", "required": ["summary"], "properties": {"summary": {"type": "string"}}},
		"owner": "docs-team"
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(bp.Name(), bp.Type(), bp.OutputSchema() != nil, bp.ParametersSchema() != nil)
	out, _ := json.Marshal(bp)
	fmt.Println(string(out))
	// Output:
	// summarizer autonomous true false
	// {"name":"summarizer","type":"autonomous","output_schema":{"type":"object","required":["summary"],"properties":{"summary":{"type":"string"}}},"owner":"docs-team"}
}

func ExampleParse_invalidSchema() {
	_, err := blueprint.Parse([]byte(`{"name": "counter", "output_schema": {"type": "array", "items": {"type": "integer"}}}`))
	fmt.Println(err)
	fmt.Println(errors.Is(err, blueprint.ErrOutputNotObject))
	// Output:
	// blueprint: output_schema: must declare "type": "object" and "properties" at its root
	// true
}

func ExampleLoad() {
	bp, err := blueprint.Load("testdata/agents/parametric-agent")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(bp.Name(), bp.Tags())
	fmt.Println(bp.Path())
	// Output:
	// parametric-agent [internal]
	// testdata/agents/parametric-agent/agent.json
}

func ExampleLoadDir() {
	bps, err := blueprint.LoadDir("testdata/broken")
	for _, bp := range bps {
		fmt.Println("loaded:", bp.Name())
	}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var le *blueprint.LoadError
		for _, e := range joined.Unwrap() {
			if errors.As(e, &le) {
				fmt.Println("failed:", le.Path)
			}
		}
	}
	// Output:
	// loaded: good-agent
	// failed: testdata/broken/badschema/agent.json
	// failed: testdata/broken/notobject/agent.json
	// failed: testdata/broken/second/agent.json
}

func ExampleBlueprint_ValidateParameters() {
	bp, _ := blueprint.Load("testdata/agents/parametric-agent")
	err := bp.ValidateParameters(map[string]any{"topic": "AI", "format": "poem"})
	var pe *blueprint.ParameterError
	if errors.As(err, &pe) {
		for _, v := range pe.Violations {
			fmt.Println(v.Path, v.Message)
		}
	}
	// Output:
	// $.format 'poem' is not one of ['summary', 'bullet_points', 'essay']
	// $.prompt 'prompt' is a required property
}

func ExampleBlueprint_Prompt() {
	bp, _ := blueprint.Load("testdata/agents/parametric-agent")
	prompt, err := bp.Prompt(map[string]any{
		"prompt":    "Create content about this topic.",
		"max_words": 200,
		"topic":     "AI Safety",
		"format":    "summary",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(prompt)
	// Output:
	// <inputs>
	// topic: AI Safety
	// format: summary
	// max_words: 200
	// </inputs>
	//
	// Create content about this topic.
}

func ExampleBlueprint_SystemPrompt() {
	bp, _ := blueprint.Parse([]byte(`{"name": "summarizer", "system_prompt": "You summarise documents.",
		"output_schema": {"type": "object", "required": ["summary"], "properties": {"summary": {"type": "string"}}}}`))
	res, err := blueprint.ResolveOutputSchema(context.Background(), bp, blueprint.RunSpec{}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	system, err := bp.SystemPrompt(res)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(system)
	// Output:
	// You summarise documents.
	//
	// ## Output format (required)
	//
	// Your response MUST be a single JSON value that conforms to this JSON Schema:
	//
	// ```json
	// {"type": "object", "required": ["summary"], "properties": {"summary": {"type": "string"}}}
	// ```
	//
	// Output ONLY the JSON value, with no text before or after it.
}

func ExampleResolveOutputSchema() {
	ctx := context.Background()
	reg := registry.NewMemory()
	s, _ := schema.Parse([]byte(`{"type": "object", "required": ["summary", "issues"], "properties": {"summary": {"type": "string"}, "issues": {"type": "array"}}}`))
	_ = reg.Put(ctx, &registry.Entry{Name: "code-analysis-result", Schema: s})

	bp, _ := blueprint.Load("testdata/agents/code-analyzer") // default_output_schema, max_retries 3
	retries := 1
	for _, spec := range []blueprint.RunSpec{
		{},
		{Name: "code-analysis-result", Options: blueprint.OutputOptions{MaxRetries: &retries}},
		{Name: "nonexistent-schema"},
	} {
		res, err := blueprint.ResolveOutputSchema(ctx, bp, spec, reg)
		if err != nil {
			fmt.Println(err, errors.Is(err, blueprint.ErrSchemaNotFound))
			continue
		}
		fmt.Println(res.Source, res.Name, res.Options.MaxRetries)
	}
	// Output:
	// blueprint  3
	// named code-analysis-result 1
	// blueprint: output schema "nonexistent-schema" not found true
}

func ExampleRun() {
	bp, _ := blueprint.Load("testdata/agents/pr-reviewer")
	p := providertest.New(
		providertest.Text(`{"verdict": "approve"}`), // misses "comments": re-asked
		providertest.Text(`{"verdict": "approve", "comments": [], "summary": "LGTM, no issues found"}`),
	)
	r, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Review pull request 42."}, blueprint.RunSpec{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(r.Enforcement().Attempts), "attempts")
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
	fmt.Println(blueprint.Callback("ses_child123", "completed", r))
	// Output:
	// 2 attempts
	// {"result_text":null,"result_data":{"verdict":"approve","comments":[],"summary":"LGTM, no issues found"}}
	// <agent-callback session="ses_child123" status="completed">
	// ## Child Result
	//
	// {
	//   "verdict": "approve",
	//   "comments": [],
	//   "summary": "LGTM, no issues found"
	// }
	// </agent-callback>
}

func ExampleRun_partials() {
	bp, _ := blueprint.Load("testdata/agents/pr-reviewer")
	p := providertest.New(
		// A verdict that is not one of the enum: the reply is stopped there.
		providertest.Chunked(8, `{"verdict": "lgtm", "comments": [{"file": "a.go", "line": 1, "message": "..."}]}`),
		providertest.Chunked(8, `{"verdict": "comment", "comments": [{"file": "a.go", "line": 3, "message": "typo"}], "summary": "One typo."}`),
	)
	r, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Review pull request 42."}, blueprint.RunSpec{},
		blueprint.WithEnforceOptions(enforce.WithPartials(func(part enforce.Partial) {
			fmt.Printf("attempt %d: %s open %v\n", part.Attempt, part.JSON, part.Open)
		})))
	if err != nil {
		fmt.Println(err)
		return
	}
	first := r.Enforcement().Attempts[0]
	fmt.Println("stopped early:", first.StoppedEarly, first.Violations[0])
	fmt.Println(string(r.Data()))
	// Output:
	// attempt 2: {"verdict": "comment"} open [$]
	// attempt 2: {"verdict": "comment", "comments": [{"file": "a.go"}]} open [$ $.comments $.comments[0]]
	// attempt 2: {"verdict": "comment", "comments": [{"file": "a.go", "line": 3}]} open [$ $.comments $.comments[0]]
	// attempt 2: {"verdict": "comment", "comments": [{"file": "a.go", "line": 3, "message": "typo"}]} open [$]
	// stopped early: true $.verdict: 'lgtm' is not one of ['approve', 'request_changes', 'comment']
	// {"verdict": "comment", "comments": [{"file": "a.go", "line": 3, "message": "typo"}], "summary": "One typo."}
}

func ExampleRun_validationFailure() {
	bp, _ := blueprint.Load("testdata/agents/summarizer")
	p := providertest.New(providertest.Text(`{"key_points": []}`), providertest.Text(`{"key_points": [], "summary": 7}`))
	_, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Summarise the notes."}, blueprint.RunSpec{},
		blueprint.WithEnforceOptions(enforce.WithMaxRetries(1)))
	var ve *enforce.ValidationError
	if errors.As(err, &ve) {
		out, _ := json.Marshal(ve)
		fmt.Println(string(out))
	}
	// Output:
	// {"error":"OutputSchemaValidationError","message":"Output validation failed after 1 retry","errors":[{"path":"$.summary","message":"expected string, got integer 7"}]}
}

func ExampleCallback() {
	r := blueprint.NewTextResult("Renamed 3 files.")
	fmt.Println(blueprint.Callback(`ses_"odd"`, "completed", r))
	// Output:
	// <agent-callback session="ses_&quot;odd&quot;" status="completed">
	// ## Child Result
	//
	// Renamed 3 files.
	// </agent-callback>
}

func ExampleResultEvent() {
	r, _ := blueprint.NewDataResult(json.RawMessage(`{"entities": [{"name": "Acme Corp", "type": "organization"}]}`))
	ev := blueprint.ResultEvent{SessionID: "ses_abc123", Timestamp: time.Date(2026, 1, 18, 10, 30, 0, 0, time.UTC), Result: r}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(ev)
	// Output:
	// {
	//   "event_type": "result",
	//   "session_id": "ses_abc123",
	//   "timestamp": "2026-01-18T10:30:00Z",
	//   "result_text": null,
	//   "result_data": {
	//     "entities": [
	//       {
	//         "name": "Acme Corp",
	//         "type": "organization"
	//       }
	//     ]
	//   }
	// }
}

func ExampleParameterError() {
	bp, _ := blueprint.Parse([]byte(`{"name": "greeter"}`))
	err := bp.ValidateParameters(map[string]any{"name": "Ada"})
	var pe *blueprint.ParameterError
	if errors.As(err, &pe) {
		out, _ := json.Marshal(pe)
		fmt.Println(string(out))
	}
	// Output:
	// {"error":"parameter_validation_failed","message":"Parameters do not match agent's parameters_schema","agent_name":"greeter","validation_errors":[{"path":"$.prompt","message":"'prompt' is a required property","schema_path":"required"}],"parameters_schema":{"type":"object","properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}}
}

// An orchestrator that runs each attempt as a job of its own takes the
// enforce.Enforcer of the resolution and drives it one reply at a time.
func ExampleResolution_Enforcer() {
	ctx := context.Background()
	bp, _ := blueprint.Load("testdata/agents/summarizer")
	res, _ := blueprint.ResolveOutputSchema(ctx, bp, blueprint.RunSpec{}, nil)
	e, err := res.Enforcer()
	if err != nil {
		fmt.Println(err)
		return
	}
	prompt, _ := bp.Prompt(map[string]any{"prompt": "Summarise the notes."})
	_, st, err := e.Start(enforce.Request{System: bp.Instructions(), Prompt: prompt}, provider.Capabilities{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Job 1 got this reply from the model.
	v := e.CheckText(ctx, st, `{"summary": 42}`)
	fmt.Println(v.OK, v.Retry, v.Violations[0])
	// Job 2 sent v.Messages and got this one.
	v = e.CheckText(ctx, v.State, `{"summary": "One parser for every input."}`)
	fmt.Println(v.OK, string(v.JSON))
	// Output:
	// false true $.summary: expected string, got integer 42
	// true {"summary": "One parser for every input."}
}

// Prepare makes a run's Enforcer and Request without calling a model, for
// a caller that sends the call itself (here enforce's step-wise loop; a
// batch.Item takes the pair as they are).
func ExamplePrepare() {
	bp, _ := blueprint.Load("testdata/agents/pr-reviewer")
	e, req, err := blueprint.Prepare(context.Background(), bp, map[string]any{"prompt": "Review pull request 42."}, blueprint.RunSpec{})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := providertest.New(providertest.Text(`{"verdict": "approve", "comments": [], "summary": "LGTM"}`))
	er, err := e.Run(context.Background(), p, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := blueprint.NewEnforcedResult(er)
	out, _ := json.Marshal(r)
	fmt.Println(req.Prompt == p.Requests()[0].Messages[0].Content[:len(req.Prompt)]) // the prompt Run would send
	fmt.Println(string(out))
	// Output:
	// true
	// {"result_text":null,"result_data":{"verdict":"approve","comments":[],"summary":"LGTM"}}
}
