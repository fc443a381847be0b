package langchaingoagentio_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/prompts"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/langchaingoagentio"
)

type review struct {
	Severity string `json:"severity" jsonschema:"how bad: low or high"`
	Summary  string `json:"summary"`
}

// The parser in LangChainGo's own LLM chain: its format instructions go
// into the prompt; a wrong reply is a ParseError with every violation and
// the re-ask; a valid one decodes into the type.
func TestParserInLLMChain(t *testing.T) {
	parser, err := langchaingoagentio.NewParser[review](parse(t, reviewSchema))
	require.NoError(t, err)
	assert.Contains(t, parser.GetFormatInstructions(), `"severity"`)
	assert.Equal(t, "agentio_schema", parser.Type())

	prompt := prompts.NewPromptTemplate("Review the diff.\n{{.format}}", []string{"format"})
	llm := fake.NewFakeLLM([]string{"Sure:\n" + wrongReview, "```json\n" + validReview + "\n```"})
	chain := chains.NewLLMChain(llm, prompt)
	chain.OutputParser = parser.Any()

	_, err = chains.Call(context.Background(), chain, map[string]any{"format": parser.GetFormatInstructions()})
	var pe *langchaingoagentio.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, enforce.OutcomeInvalid, pe.Outcome)
	var paths []string
	for _, v := range pe.Violations {
		paths = append(paths, v.Path)
	}
	assert.ElementsMatch(t, []string{"$.severity", "$.summary"}, paths, "every violation")
	assert.Contains(t, pe.Reask, "$.severity")

	out, err := chains.Call(context.Background(), chain, map[string]any{"format": parser.GetFormatInstructions()})
	require.NoError(t, err)
	assert.Equal(t, review{Severity: "high", Summary: "a nil dereference"}, out[chain.OutputKey])
}

func TestParserSchemaOfType(t *testing.T) {
	parser, err := langchaingoagentio.NewParser[review](nil)
	require.NoError(t, err)
	got, err := parser.Parse(`{"severity":"low","summary":"fine"}`)
	require.NoError(t, err)
	assert.Equal(t, review{Severity: "low", Summary: "fine"}, got)
	_, err = parser.Parse(`{"severity":"low"}`)
	var pe *langchaingoagentio.ParseError
	require.ErrorAs(t, err, &pe, "a field without omitempty is required")
	assert.Equal(t, "$.summary", pe.Violations[0].Path)

	// any: the decoded value itself; no JSON at all: a ParseError, no value.
	anyParser, err := langchaingoagentio.NewParser[any](parse(t, reviewSchema), enforce.WithRepair())
	require.NoError(t, err)
	v, err := anyParser.ParseWithPrompt(`{'severity': 'high', 'summary': 'repaired',}`, nil)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"severity": "high", "summary": "repaired"}, v)
	v, err = anyParser.Parse("I cannot answer that.")
	require.ErrorAs(t, err, &pe)
	assert.Nil(t, v)
	assert.Equal(t, enforce.OutcomeNoJSON, pe.Outcome)

	_, err = langchaingoagentio.NewParser[chan int](nil)
	assert.ErrorIs(t, err, langchaingoagentio.ErrInvalidOption)
}

// The chain step re-asks by itself: the scripted run from agentio into
// LangChainGo.
func TestChainReasks(t *testing.T) {
	m := &scriptedModel{replies: []reply{text(wrongReview), text(validReview)}}
	var outcomes []enforce.Outcome
	chain, err := langchaingoagentio.NewChain(m, parse(t, reviewSchema), &langchaingoagentio.ChainOptions{
		System: "You review code.",
		Enforce: []enforce.Option{enforce.WithAttemptHook(func(_ context.Context, a enforce.Attempt) {
			outcomes = append(outcomes, a.Outcome)
		})},
	})
	require.NoError(t, err)
	out, err := chains.Call(context.Background(), chain, map[string]any{"input": "Review the diff."})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"severity": "high", "summary": "a nil dereference"}, out["output"])
	assert.JSONEq(t, validReview, out["output_json"].(string))
	assert.Equal(t, []enforce.Outcome{enforce.OutcomeInvalid, enforce.OutcomeValid}, outcomes)

	calls := m.recorded()
	require.Len(t, calls, 2, "one re-ask")
	assert.Equal(t, "You review code.", calls[0].messages[0].Parts[0].(llms.TextContent).Text)
	last := calls[1].messages[len(calls[1].messages)-1].Parts[0].(llms.TextContent).Text
	assert.Contains(t, last, "$.severity")
	assert.Contains(t, last, "$.summary")
	assert.Equal(t, []string{"input"}, chain.GetInputKeys())
	assert.Equal(t, []string{"output", "output_json"}, chain.GetOutputKeys())
}

// A run that spends its re-asks returns enforce's typed error, and no
// output.
func TestChainFails(t *testing.T) {
	m := &scriptedModel{replies: []reply{text(wrongReview), text(wrongReview)}}
	chain, err := langchaingoagentio.NewChain(m, parse(t, reviewSchema), &langchaingoagentio.ChainOptions{Enforce: []enforce.Option{enforce.WithMaxRetries(1)}})
	require.NoError(t, err)
	out, err := chains.Call(context.Background(), chain, map[string]any{"input": "Review."})
	var ve *enforce.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Nil(t, out)
	assert.Equal(t, 1, ve.Retries)

	_, err = chains.Call(context.Background(), chain, map[string]any{"input": 5})
	assert.ErrorIs(t, err, chains.ErrInvalidInputValues)
	_, err = langchaingoagentio.NewChain(m, nil, nil)
	assert.ErrorIs(t, err, langchaingoagentio.ErrInvalidOption)
	_, err = langchaingoagentio.NewChain(m, parse(t, reviewSchema), &langchaingoagentio.ChainOptions{Enforce: []enforce.Option{enforce.WithMaxRetries(-1)}})
	assert.ErrorIs(t, err, enforce.ErrInvalidOption)
}
