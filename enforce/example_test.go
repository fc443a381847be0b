package enforce_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// Run gets schema-valid JSON: here the first reply misses a field, the
// re-ask lists the violation, and the second reply is valid.
func ExampleRun() {
	s, err := schema.Parse([]byte(`{
		"type": "object",
		"required": ["verdict", "summary"],
		"properties": {
			"verdict": {"enum": ["approve", "request_changes"]},
			"summary": {"type": "string"}
		}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := providertest.New(
		providertest.Text(`Looks good: {"verdict": "approve"}`),
		providertest.Text(`{"verdict": "approve", "summary": "LGTM"}`),
	)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res.JSON))
	fmt.Println("attempts:", len(res.Attempts), "mode:", res.Mode)
	reask := p.Requests()[1].Messages[2].Content
	fmt.Println(strings.Split(reask, "\n")[3])
	// Output:
	// {"verdict": "approve", "summary": "LGTM"}
	// attempts: 2 mode: prompt
	// - $.summary: 'summary' is a required property
}

// A ValidationError says why the output never became valid, and encodes to
// the OutputSchemaValidationError shape.
func ExampleRun_validationError() {
	s, err := schema.Parse([]byte(`{"type": "object", "required": ["summary"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := providertest.New(providertest.Text("I found nothing."), providertest.Text("Still nothing."))
	_, err = enforce.Run(context.Background(), p, enforce.Request{Prompt: "Summarise."}, s, enforce.WithMaxRetries(1))
	var ve *enforce.ValidationError
	if errors.As(err, &ve) {
		fmt.Println(err)
		fmt.Println(errors.Is(err, enforce.ErrNoJSON), len(ve.Attempts))
		data, _ := json.Marshal(ve)
		fmt.Println(string(data))
	}
	// Output:
	// output validation failed after 1 retry: $: No JSON output found but output_schema requires structured output
	// true 2
	// {"error":"OutputSchemaValidationError","message":"Output validation failed after 1 retry","errors":[{"path":"$","message":"No JSON output found but output_schema requires structured output"}]}
}

// A provider that can be forced to call a tool gets the schema as the input
// schema of submit_result.
func ExampleRun_toolMode() {
	s, err := schema.Parse([]byte(`{"type": "array", "items": {"type": "string"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := providertest.New(providertest.CallTool("submit_result", `{"result": ["go", "json"]}`))
	tooled := provider.WithCapabilities(p, provider.Capabilities{Tools: true, ForcedTool: true})
	res, err := enforce.Run(context.Background(), tooled, enforce.Request{Prompt: "Tag the post."}, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Mode, string(res.JSON))
	fmt.Println(string(p.Requests()[0].Tools[0].InputSchema))
	// Output:
	// tool ["go", "json"]
	// {"type":"object","properties":{"result":{"type":"array","items":{"type":"string"}}},"required":["result"],"additionalProperties":false}
}

// A custom validator checks what a schema cannot: here that the blocker
// count matches the blocker findings.
func ExampleWithValidator() {
	s, err := schema.Parse([]byte(`{"type": "object", "required": ["findings", "blockers"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	counted := func(_ context.Context, _ enforce.Attempt, v any) []schema.Violation {
		m := v.(map[string]any)
		findings, _ := m["findings"].([]any)
		if n, _ := m["blockers"].(float64); int(n) != len(findings) {
			return []schema.Violation{{Path: "$.blockers", Message: fmt.Sprintf("is %v but there are %d findings", n, len(findings))}}
		}
		return nil
	}
	p := providertest.New(
		providertest.Text(`{"findings": ["sql injection"], "blockers": 3}`),
		providertest.Text(`{"findings": ["sql injection"], "blockers": 1}`),
	)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, s, enforce.WithValidator(counted))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Attempts[0].Violations[0])
	fmt.Println(string(res.JSON))
	// Output:
	// $.blockers: is 3 but there are 1 findings
	// {"findings": ["sql injection"], "blockers": 1}
}

// Typed infers the schema from a Go type and decodes the valid JSON into it.
func ExampleTyped() {
	type Verdict struct {
		Approve bool   `json:"approve"`
		Reason  string `json:"reason"`
	}
	p := providertest.New(providertest.Text("```json\n{\"approve\": false, \"reason\": \"tests fail\"}\n```"))
	v, res, err := enforce.Typed[Verdict](context.Background(), p, enforce.Request{Prompt: "Approve the PR?"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v from %s\n", v, res.Attempts[0].Source)
	// Output:
	// {Approve:false Reason:tests fail} from fence
}

// An orchestrator whose attempts are separate jobs enriches the prompt,
// checks each reply and keeps the State between jobs as JSON.
func ExampleEnforcer() {
	s, err := schema.Parse([]byte(`{"type": "object", "required": ["files"], "properties": {"files": {"type": "integer"}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := enforce.New(s, enforce.WithMaxRetries(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	prompt := e.EnrichPrompt("Count the Go files.")
	fmt.Println(strings.Split(prompt, "\n")[2])

	// Job 1: the agent answered; check it and store the state.
	v := e.CheckText(context.Background(), enforce.State{}, `{"files": "twelve"}`)
	fmt.Println(v.Outcome, v.Retry)
	saved, _ := json.Marshal(v.State)
	fmt.Println(string(saved))
	resumePrompt := v.Reask // sent to the agent's session by the next job

	// Job 2: the agent answered the re-ask.
	var st enforce.State
	_ = json.Unmarshal(saved, &st)
	v = e.CheckText(context.Background(), st, `{"files": 12}`)
	fmt.Println(v.Outcome, string(v.JSON))
	fmt.Println(strings.Split(resumePrompt, "\n")[3])
	// Output:
	// ## Output format (required)
	// invalid true
	// {"attempts":1,"reasks":1,"usage":{"input_tokens":0,"output_tokens":0,"total_tokens":0},"mode":"prompt"}
	// valid {"files": 12}
	// - $.files: expected integer, got string "twelve"
}

// NextRequest and WithinBudget build each attempt after the first as Run
// would, for a caller that sends the requests itself (a batch, a queue).
func ExampleEnforcer_NextRequest() {
	s, err := schema.Parse([]byte(`{"type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := enforce.New(s, enforce.WithTokenBudget(10000))
	if err != nil {
		fmt.Println(err)
		return
	}
	first, st, err := e.Start(enforce.Request{Prompt: "Is it ok?"}, provider.Capabilities{})
	if err != nil {
		fmt.Println(err)
		return
	}
	sent, err := e.WithinBudget(st, enforce.Verdict{}, first)
	if err != nil {
		fmt.Println(err)
		return
	}
	v := e.CheckText(context.Background(), st, `{"ok": "yes"}`)
	next, err := e.WithinBudget(v.State, v, e.NextRequest(v, first, sent))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(next.Messages), "messages; the last one a re-ask:", strings.HasPrefix(next.Messages[2].Content, v.Reask[:20]))
	// Output:
	// 3 messages; the last one a re-ask: true
}
