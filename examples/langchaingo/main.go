// Command langchaingo shows agentio inside LangChainGo, offline: the
// framework's own fake model, scripted with a wrong answer and a right
// one, first as an agentio provider under enforce.Run, then through a
// LangChainGo chain step and an output parser.
//
//	go run .
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/prompts"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/langchaingoagentio"
	"github.com/agentio/agentio/schema"
)

const ticketSchema = `{
  "type": "object",
  "required": ["title", "priority", "labels"],
  "additionalProperties": false,
  "properties": {
    "title": {"type": "string", "minLength": 5},
    "priority": {"enum": ["p0", "p1", "p2"]},
    "labels": {"type": "array", "items": {"type": "string"}, "minItems": 1}
  }
}`

// The model's scripted answers: the first misses the contract twice over.
const (
	wrongAnswer = `Sure! {"title": "Crash", "priority": "urgent", "labels": []}`
	rightAnswer = "```json\n{\"title\": \"Crash on save\", \"priority\": \"p0\", \"labels\": [\"editor\"]}\n```"
)

type ticket struct {
	Title    string   `json:"title"`
	Priority string   `json:"priority"`
	Labels   []string `json:"labels"`
}

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

	fmt.Fprintln(w, "== a LangChainGo model under enforce.Run")
	p, err := langchaingoagentio.NewProvider(fake.NewFakeLLM([]string{wrongAnswer, rightAnswer}), nil)
	if err != nil {
		return err
	}
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "File a ticket: the editor crashes on save."}, s,
		enforce.WithAttemptHook(func(_ context.Context, a enforce.Attempt) {
			fmt.Fprintf(w, "attempt %d: %s\n", a.Number, a.Outcome)
			for _, v := range a.Violations {
				fmt.Fprintf(w, "  %s\n", v)
			}
		}))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "valid: %s\n\n", res.JSON)

	fmt.Fprintln(w, "== a LangChainGo chain step that re-asks")
	chain, err := langchaingoagentio.NewChain(fake.NewFakeLLM([]string{wrongAnswer, rightAnswer}), s, nil)
	if err != nil {
		return err
	}
	out, err := chains.Call(ctx, chain, map[string]any{"input": "File a ticket: the editor crashes on save."})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "output: %s\n\n", out["output_json"])

	fmt.Fprintln(w, "== an output parser in LangChainGo's LLM chain")
	parser, err := langchaingoagentio.NewParser[ticket](s)
	if err != nil {
		return err
	}
	llm := fake.NewFakeLLM([]string{wrongAnswer, rightAnswer})
	llmChain := chains.NewLLMChain(llm, prompts.NewPromptTemplate("File a ticket: the editor crashes on save.\n{{.format}}", []string{"format"}))
	llmChain.OutputParser = parser.Any()
	for range 2 {
		out, err := chains.Call(ctx, llmChain, map[string]any{"format": parser.GetFormatInstructions()})
		var pe *langchaingoagentio.ParseError
		switch {
		case errors.As(err, &pe):
			fmt.Fprintf(w, "parse error, %d violations; the re-ask to send:\n%s\n", len(pe.Violations), pe.Reask)
		case err != nil:
			return err
		default:
			fmt.Fprintf(w, "parsed: %+v\n", out[llmChain.OutputKey])
		}
	}
	return nil
}
