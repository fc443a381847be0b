package einoagentio_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/einoagentio"
	"github.com/agentio/agentio/enforce"
	agentschema "github.com/agentio/agentio/schema"
)

// readmeRun is the README's Eino snippet (internal/readme checks that the
// README shows it as it is here).
func readmeRun(ctx context.Context, chatModel model.BaseChatModel, s *agentschema.Schema) (any, any, error) {
	// snippet: eino
	// Any Eino chat model as an agentio provider: the loop re-asks with every violation.
	p, err := einoagentio.NewProvider(chatModel, nil)
	if err != nil {
		return nil, nil, err
	}
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
	if err != nil {
		return nil, nil, err
	}
	// Or agentio inside an Eino graph: a node that emits only valid output.
	node, err := einoagentio.NewNode(chatModel, s, nil)
	if err != nil {
		return nil, nil, err
	}
	chain, err := compose.NewChain[[]*schema.Message, einoagentio.Output]().AppendLambda(node).Compile(ctx)
	if err != nil {
		return nil, nil, err
	}
	out, err := chain.Invoke(ctx, []*schema.Message{schema.UserMessage("Review the diff.")})
	// end snippet
	if err != nil {
		return nil, nil, err
	}
	return res.Value, out.Value, nil
}

func TestREADMESnippet(t *testing.T) {
	m := newModel(text(wrongReview), text(validReview), text(wrongReview), text(validReview))
	a, b, err := readmeRun(context.Background(), m, parse(t, reviewSchema))
	require.NoError(t, err)
	want := map[string]any{"severity": "high", "summary": "a nil dereference"}
	assert.Equal(t, want, a)
	assert.Equal(t, want, b)
}
