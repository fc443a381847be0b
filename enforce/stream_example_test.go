package enforce_test

import (
	"context"
	"fmt"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// WithPartials shows the answer while the model writes it, and stops a
// reply as soon as a complete part of it is wrong: here the first reply's
// verdict is not one the schema allows, so it is stopped there and
// re-asked.
func ExampleWithPartials() {
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
		providertest.Pieces(`{"verdict": "reject", `, `"summary": "too long to pay for"}`),
		providertest.Pieces(`{"verdict": "approve", `, `"summary": "LGTM"}`),
	)
	show := func(part enforce.Partial) {
		fmt.Printf("attempt %d so far: %s\n", part.Attempt, part.JSON)
	}
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, s, enforce.WithPartials(show))
	if err != nil {
		fmt.Println(err)
		return
	}
	first := res.Attempts[0]
	fmt.Println("attempt 1 stopped early:", first.StoppedEarly, first.Violations[0].Path, first.Violations[0].Message)
	fmt.Println("chunks read per attempt:", p.Streamed())
	fmt.Println(string(res.JSON))
	// Output:
	// attempt 2 so far: {"verdict": "approve"}
	// attempt 1 stopped early: true $.verdict 'reject' is not one of ['approve', 'request_changes']
	// chunks read per attempt: [1 3]
	// {"verdict": "approve", "summary": "LGTM"}
}
