// Command genkit shows agentio inside Firebase Genkit for Go, offline: a
// model defined the Genkit way over a script (a wrong answer, then a right
// one), first as an agentio provider under enforce.Run, then through
// genkit.Generate with agentio's middleware, which re-asks within the
// call and leaves Genkit the typed value.
//
//	go run .
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/genkitagentio"
	"github.com/agentio/agentio/schema"
)

const ticketSchema = `{
  "type": "object",
  "required": ["title", "priority"],
  "additionalProperties": false,
  "properties": {
    "title": {"type": "string", "minLength": 5},
    "priority": {"enum": ["p0", "p1", "p2"]}
  }
}`

type ticket struct {
	Title    string `json:"title"`
	Priority string `json:"priority"`
}

// The scripted model's answers: the first breaks the contract.
var answers = []string{"Sure! {\"title\": \"Crash\", \"priority\": \"urgent\"}", "```json\n{\"title\": \"Crash on save\", \"priority\": \"p0\"}\n```"}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	s, err := schema.Parse([]byte(ticketSchema))
	if err != nil {
		return err
	}
	g := genkit.Init(ctx)
	supports := &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, SystemRole: true}}
	attempts := func(_ context.Context, a enforce.Attempt) {
		fmt.Fprintf(w, "attempt %d: %s %v\n", a.Number, a.Outcome, a.Violations)
	}

	fmt.Fprintln(w, "== a Genkit model under enforce.Run")
	p, err := genkitagentio.NewProvider(ai.NewModel("example/tickets", supports, scripted(answers)), nil)
	if err != nil {
		return err
	}
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "File a ticket: the editor crashes on save."}, s, enforce.WithAttemptHook(attempts))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "valid: %s\n\n", res.JSON)

	fmt.Fprintln(w, "== genkit.Generate under agentio's middleware")
	m := genkit.DefineModel(g, "example/tickets", supports, scripted(answers))
	t, resp, err := genkitagentio.GenerateData[ticket](ctx, g,
		&genkitagentio.MiddlewareOptions{Schema: s, Enforce: []enforce.Option{enforce.WithAttemptHook(attempts)}},
		ai.WithModel(m), ai.WithPrompt("File a ticket: the editor crashes on save."))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "typed: %+v (text %s)\n", *t, resp.Text())
	return nil
}

// scripted is a Genkit model function answering from a list, one answer
// per call.
func scripted(answers []string) ai.ModelFunc {
	n := 0
	return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		if n >= len(answers) {
			return nil, fmt.Errorf("no answer left")
		}
		n++
		return &ai.ModelResponse{Message: ai.NewModelTextMessage(answers[n-1]), FinishReason: ai.FinishReasonStop}, nil
	}
}
