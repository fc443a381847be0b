// Command eino shows agentio inside CloudWeGo Eino, offline: a scripted
// Eino chat model (a wrong answer, then a right one) first as an agentio
// provider under enforce.Run, then as a chat model in an Eino chain that
// only answers with valid output, its callbacks counting the attempts,
// and as a graph node streaming partial values, then the valid output.
//
//	go run .
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/agentio/agentio/einoagentio"
	"github.com/agentio/agentio/enforce"
	agentschema "github.com/agentio/agentio/schema"
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

// The scripted model's answers: the first breaks the contract.
var answers = []string{`{"title": "Crash", "priority": "urgent"}`, `{"title": "Crash on save", "priority": "p0"}`}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	s, err := agentschema.Parse([]byte(ticketSchema))
	if err != nil {
		return err
	}
	input := []*schema.Message{schema.UserMessage("File a ticket: the editor crashes on save.")}

	fmt.Fprintln(w, "== an Eino chat model under enforce.Run")
	p, err := einoagentio.NewProvider(&scripted{answers: answers}, nil)
	if err != nil {
		return err
	}
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: input[0].Content}, s,
		enforce.WithAttemptHook(func(_ context.Context, a enforce.Attempt) {
			fmt.Fprintf(w, "attempt %d: %s %v\n", a.Number, a.Outcome, a.Violations)
		}))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "valid: %s\n\n", res.JSON)

	fmt.Fprintln(w, "== a chat model that only answers with valid output, in a chain")
	cm, err := einoagentio.NewChatModel(&scripted{answers: answers}, s, nil)
	if err != nil {
		return err
	}
	chain, err := compose.NewChain[[]*schema.Message, *schema.Message]().AppendChatModel(cm).Compile(ctx)
	if err != nil {
		return err
	}
	calls := 0
	handler := callbacks.NewHandlerBuilder().OnStartFn(func(ctx context.Context, info *callbacks.RunInfo, _ callbacks.CallbackInput) context.Context {
		if info.Component == components.ComponentOfChatModel && info.Type == "agentio" {
			calls++
		}
		return ctx
	}).Build()
	msg, err := chain.Invoke(ctx, input, compose.WithCallbacks(handler))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "answer: %s (the callbacks saw %d model calls)\n\n", msg.Content, calls)

	fmt.Fprintln(w, "== a graph node streaming partial values, then the valid output")
	node, err := einoagentio.NewNode(&scripted{answers: answers, stream: true}, s, nil)
	if err != nil {
		return err
	}
	nodes, err := compose.NewChain[[]*schema.Message, einoagentio.Output]().AppendLambda(node).Compile(ctx)
	if err != nil {
		return err
	}
	sr, err := nodes.Stream(ctx, input)
	if err != nil {
		return err
	}
	defer sr.Close()
	for {
		out, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		kind := "valid  "
		if out.Partial {
			kind = "partial"
		}
		fmt.Fprintf(w, "%s attempt %d: %s\n", kind, out.Attempt, out.JSON)
	}
}

// scripted is an Eino chat model answering from a list, one answer per
// call; streamed, it sends each answer in pieces of 12 bytes.
type scripted struct {
	answers []string
	stream  bool
	n       int
}

func (m *scripted) next() (string, error) {
	if m.n >= len(m.answers) {
		return "", errors.New("no answer left")
	}
	m.n++
	return m.answers[m.n-1], nil
}

func (m *scripted) Generate(ctx context.Context, _ []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	a, err := m.next()
	if err != nil {
		return nil, err
	}
	return schema.AssistantMessage(a, nil), nil
}

func (m *scripted) Stream(ctx context.Context, _ []*schema.Message, _ ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	a, err := m.next()
	if err != nil {
		return nil, err
	}
	var pieces []*schema.Message
	for len(a) > 0 {
		n := min(12, len(a))
		pieces = append(pieces, schema.AssistantMessage(a[:n], nil))
		a = a[n:]
	}
	return schema.StreamReaderFromArray(pieces), nil
}
