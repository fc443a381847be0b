package langchaingoagentio

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tmc/langchaingo/llms"
	lcschema "github.com/tmc/langchaingo/schema"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/schema"
)

// A Parser is a LangChainGo output parser (schema.OutputParser[T]) that
// holds a reply to a JSON Schema: GetFormatInstructions is the text
// agentio appends to a prompt, and Parse finds the JSON in a reply
// (fenced, in prose, repaired when the Enforcer's options say so),
// validates it, and decodes it into a T. A reply that fails returns a
// [*ParseError] carrying every violation and the re-ask to send; Parse
// never returns a value the reply did not hold.
//
// A Parser is safe for concurrent use when its Enforcer's validators are.
type Parser[T any] struct {
	e *enforce.Enforcer
}

var _ lcschema.OutputParser[any] = (*Parser[any])(nil)

// NewParser returns a Parser for the schema s, or, when s is nil, for the
// schema of T (schema.For). opts are the Enforcer's (enforce.WithRepair,
// enforce.WithLenient, enforce.WithValidator, ...). It fails with an error
// matching [ErrInvalidOption] for a schema T does not have, and with
// enforce's for a bad option.
func NewParser[T any](s *schema.Schema, opts ...enforce.Option) (*Parser[T], error) {
	if s == nil {
		var err error
		if s, err = schema.For[T](); err != nil {
			return nil, fmt.Errorf("%w: the schema of %T: %w", ErrInvalidOption, *new(T), err)
		}
	}
	e, err := enforce.New(s, opts...)
	if err != nil {
		return nil, err
	}
	return &Parser[T]{e: e}, nil
}

// Enforcer returns the Enforcer the Parser judges replies with.
func (p *Parser[T]) Enforcer() *enforce.Enforcer { return p.e }

// GetFormatInstructions returns the instructions to append to a prompt:
// the schema and how to answer.
func (p *Parser[T]) GetFormatInstructions() string { return p.e.Instructions() }

// Parse judges text and returns its valid value as a T, or a *ParseError.
func (p *Parser[T]) Parse(text string) (T, error) {
	return p.parse(context.Background(), text)
}

// ParseWithPrompt is Parse; the prompt does not change the verdict.
func (p *Parser[T]) ParseWithPrompt(text string, _ llms.PromptValue) (T, error) {
	return p.Parse(text)
}

// Type returns "agentio_schema".
func (p *Parser[T]) Type() string { return "agentio_schema" }

func (p *Parser[T]) parse(ctx context.Context, text string) (T, error) {
	var zero T
	v := p.e.CheckText(ctx, enforce.State{}, text)
	if !v.OK {
		return zero, &ParseError{Outcome: v.Outcome, Violations: v.Violations, Reask: v.Reask, Text: text}
	}
	return decode[T](v.JSON, v.Value)
}

// decode returns the valid JSON as a T: the decoded value itself when T
// is any, else the JSON decoded into a T.
func decode[T any](data json.RawMessage, value any) (T, error) {
	var out T
	if p, ok := any(&out).(*any); ok {
		*p = value
		return out, nil
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return out, fmt.Errorf("langchaingoagentio: valid output does not decode into %T: %w", out, err)
	}
	return out, nil
}

// A ParseError is a reply that does not hold a valid value: why (the
// outcome), every violation with its path, and the re-ask agentio would
// send, for a caller that asks the model again itself.
type ParseError struct {
	Outcome    enforce.Outcome
	Violations []schema.Violation
	Reask      string
	Text       string
}

func (e *ParseError) Error() string {
	switch len(e.Violations) {
	case 0:
		return fmt.Sprintf("langchaingoagentio: %s", e.Outcome)
	case 1:
		return fmt.Sprintf("langchaingoagentio: %s: %s", e.Outcome, e.Violations[0])
	}
	return fmt.Sprintf("langchaingoagentio: %s: %s (and %d more)", e.Outcome, e.Violations[0], len(e.Violations)-1)
}

// Any returns the parser as LangChainGo's chains take one
// (schema.OutputParser[any], the type of LLMChain.OutputParser): its Parse
// returns the T as an any, and nil beside an error.
func (p *Parser[T]) Any() lcschema.OutputParser[any] { return anyParser[T]{p} }

type anyParser[T any] struct{ p *Parser[T] }

func (a anyParser[T]) Parse(text string) (any, error) {
	v, err := a.p.Parse(text)
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (a anyParser[T]) ParseWithPrompt(text string, prompt llms.PromptValue) (any, error) {
	return a.Parse(text)
}

func (a anyParser[T]) GetFormatInstructions() string { return a.p.GetFormatInstructions() }

func (a anyParser[T]) Type() string { return a.p.Type() }
