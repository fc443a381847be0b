package einoagentio_test

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/agentio/agentio/einoagentio"
	"github.com/agentio/agentio/enforce"
	agentschema "github.com/agentio/agentio/schema"
)

const exampleSchema = `{"type":"object","required":["city","population"],"additionalProperties":false,
	"properties":{"city":{"type":"string"},"population":{"type":"integer","minimum":0}}}`

// An Eino chat model (here a scripted one) as an agentio provider: the loop
// re-asks with every violation.
func ExampleNewProvider() {
	s, _ := agentschema.Parse([]byte(exampleSchema))
	chatModel := newModel(text(`{"city": "Paris", "population": "about two million"}`), text(`{"city": "Paris", "population": 2102650}`))
	p, err := einoagentio.NewProvider(chatModel, nil)
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

// A chat model that only answers with valid output, in an Eino chain.
func ExampleNewChatModel() {
	s, _ := agentschema.Parse([]byte(exampleSchema))
	cm, err := einoagentio.NewChatModel(newModel(text(`{"city": "Paris"}`), text(`{"city": "Paris", "population": 2102650}`)), s, nil)
	if err != nil {
		panic(err)
	}
	chain, err := compose.NewChain[[]*schema.Message, *schema.Message]().AppendChatModel(cm).Compile(context.Background())
	if err != nil {
		panic(err)
	}
	msg, err := chain.Invoke(context.Background(), []*schema.Message{schema.UserMessage("The largest city of France?")})
	if err != nil {
		panic(err)
	}
	fmt.Println(msg.Content)
	// Output:
	// {"city": "Paris", "population": 2102650}
}

// A graph node that streams partial values, then the valid output.
func ExampleNewNode() {
	s, _ := agentschema.Parse([]byte(exampleSchema))
	node, err := einoagentio.NewNode(newModel(streamed(`{"city": "Paris", `, `"population": 2102650}`)), s, nil)
	if err != nil {
		panic(err)
	}
	chain, err := compose.NewChain[[]*schema.Message, einoagentio.Output]().AppendLambda(node).Compile(context.Background())
	if err != nil {
		panic(err)
	}
	sr, err := chain.Stream(context.Background(), []*schema.Message{schema.UserMessage("The largest city of France?")})
	if err != nil {
		panic(err)
	}
	defer sr.Close()
	for {
		out, err := sr.Recv()
		if err != nil {
			break
		}
		fmt.Println(out.Partial, string(out.JSON))
	}
	// Output:
	// true {"city": "Paris"}
	// false {"city": "Paris", "population": 2102650}
}
