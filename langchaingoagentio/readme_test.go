package langchaingoagentio_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/langchaingoagentio"
	"github.com/agentio/agentio/schema"
)

// readmeRun is the README's LangChainGo snippet (internal/readme checks
// that the README shows it as it is here).
func readmeRun(ctx context.Context, llm llms.Model, s *schema.Schema) (any, any, error) {
	// snippet: langchaingo
	// Any LangChainGo model as an agentio provider: the loop re-asks with every violation.
	p, err := langchaingoagentio.NewProvider(llm, nil)
	if err != nil {
		return nil, nil, err
	}
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
	if err != nil {
		return nil, nil, err
	}
	// Or agentio inside a LangChainGo pipeline: a chain step that keeps the contract.
	chain, err := langchaingoagentio.NewChain(llm, s, nil)
	if err != nil {
		return nil, nil, err
	}
	out, err := chains.Call(ctx, chain, map[string]any{"input": "Review the diff."})
	// end snippet
	if err != nil {
		return nil, nil, err
	}
	return res.Value, out["output"], nil
}

func TestREADMESnippet(t *testing.T) {
	s := parse(t, reviewSchema)
	llm := fake.NewFakeLLM([]string{wrongReview, validReview, wrongReview, validReview})
	a, b, err := readmeRun(context.Background(), llm, s)
	require.NoError(t, err)
	want := map[string]any{"severity": "high", "summary": "a nil dereference"}
	assert.Equal(t, want, a)
	assert.Equal(t, want, b)
}
