package langchaingoagentio_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/fake"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/langchaingoagentio"
	"github.com/agentio/agentio/schema"
)

const exampleSchema = `{"type":"object","required":["city","population"],"additionalProperties":false,
	"properties":{"city":{"type":"string"},"population":{"type":"integer","minimum":0}}}`

// A LangChainGo model (here its fake, scripted with a wrong answer and a
// right one) as an agentio provider: enforce re-asks with every violation.
func ExampleNewProvider() {
	s, _ := schema.Parse([]byte(exampleSchema))
	llm := fake.NewFakeLLM([]string{`{"city": "Paris", "population": "about two million"}`, `{"city": "Paris", "population": 2102650}`})
	p, err := langchaingoagentio.NewProvider(llm, nil)
	if err != nil {
		panic(err)
	}
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "The largest city of France?"}, s)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(res.JSON))
	fmt.Println(len(res.Attempts), "attempts:", res.Attempts[0].Violations[0])
	// Output:
	// {"city": "Paris", "population": 2102650}
	// 2 attempts: $.population: expected integer, got string "about two million"
}

type city struct {
	City       string `json:"city"`
	Population int    `json:"population"`
}

// The parser's format instructions go into the prompt; Parse returns the
// typed value, or every violation.
func ExampleNewParser() {
	s, _ := schema.Parse([]byte(exampleSchema))
	parser, err := langchaingoagentio.NewParser[city](s)
	if err != nil {
		panic(err)
	}
	_, err = parser.Parse(`Here you go: {"city": "Paris"}`)
	var pe *langchaingoagentio.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Violations[0])
	}
	c, err := parser.Parse("```json\n{\"city\": \"Paris\", \"population\": 2102650}\n```")
	fmt.Println(c, err)
	// Output:
	// $.population: 'population' is a required property
	// {Paris 2102650} <nil>
}

// A chain step whose output keeps the contract, re-asking by itself.
func ExampleNewChain() {
	s, _ := schema.Parse([]byte(exampleSchema))
	llm := fake.NewFakeLLM([]string{`{"city": "Paris"}`, `{"city": "Paris", "population": 2102650}`})
	chain, err := langchaingoagentio.NewChain(llm, s, nil)
	if err != nil {
		panic(err)
	}
	out, err := chains.Call(context.Background(), chain, map[string]any{"input": "The largest city of France?"})
	if err != nil {
		panic(err)
	}
	fmt.Println(out["output_json"])
	// Output:
	// {"city": "Paris", "population": 2102650}
}
