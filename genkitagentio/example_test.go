package genkitagentio_test

import (
	"context"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/genkitagentio"
	"github.com/agentio/agentio/schema"
)

const exampleSchema = `{"type":"object","required":["city","population"],"additionalProperties":false,
	"properties":{"city":{"type":"string"},"population":{"type":"integer","minimum":0}}}`

type city struct {
	City       string `json:"city"`
	Population int    `json:"population"`
}

// scripted returns a Genkit model function that answers from a list.
func scripted(answers ...string) ai.ModelFunc {
	n := 0
	return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		n++
		return &ai.ModelResponse{Message: ai.NewModelTextMessage(answers[n-1]), FinishReason: ai.FinishReasonStop}, nil
	}
}

// A Genkit model (here one defined with ai.NewModel) as an agentio
// provider: the loop re-asks with every violation.
func ExampleNewProvider() {
	s, _ := schema.Parse([]byte(exampleSchema))
	m := ai.NewModel("example/scripted", supports, scripted(`{"city": "Paris", "population": "about two million"}`, `{"city": "Paris", "population": 2102650}`))
	p, err := genkitagentio.NewProvider(m, nil)
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

// The middleware holds a generate call to the schema of its output type:
// the wrong first reply is re-asked within the call, and Genkit hands
// back the typed value.
func ExampleGenerateData() {
	ctx := context.Background()
	g := genkit.Init(ctx)
	m := genkit.DefineModel(g, "example/cities", supports, scripted(`Here you go: {"city": "Paris"}`, `{"city": "Paris", "population": 2102650}`))
	c, _, err := genkitagentio.GenerateData[city](ctx, g, nil, ai.WithModel(m), ai.WithPrompt("The largest city of France?"))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", *c)
	// Output:
	// {City:Paris Population:2102650}
}

// The middleware on any generate call, with a schema of its own and
// lenient coercion.
func ExampleMiddleware() {
	ctx := context.Background()
	g := genkit.Init(ctx)
	s, _ := schema.Parse([]byte(exampleSchema))
	m := genkit.DefineModel(g, "example/lenient", supports, scripted(`{"city": "Paris", "population": "2102650"}`))
	resp, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("The largest city of France?"),
		ai.WithMiddleware(genkitagentio.Middleware(&genkitagentio.MiddlewareOptions{Schema: s, Enforce: []enforce.Option{enforce.WithLenient()}})))
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Text())
	// Output:
	// {"city":"Paris","population":2102650}
}
