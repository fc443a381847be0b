package genkitagentio_test

import (
	"context"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/genkitagentio"
	"github.com/agentio/agentio/schema"
)

// readmeRun is the README's Genkit snippet (internal/readme checks that
// the README shows it as it is here).
func readmeRun(ctx context.Context, g *genkit.Genkit, model ai.Model, s *schema.Schema) (any, *review, error) {
	// snippet: genkit
	// Any Genkit model as an agentio provider: the loop re-asks with every violation.
	p, err := genkitagentio.NewProvider(model, nil)
	if err != nil {
		return nil, nil, err
	}
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
	if err != nil {
		return nil, nil, err
	}
	// Or agentio inside Genkit: a middleware that re-asks within the call, and the typed value.
	r, _, err := genkitagentio.GenerateData[review](ctx, g, &genkitagentio.MiddlewareOptions{Schema: s},
		ai.WithModel(model), ai.WithPrompt("Review the diff."))
	// end snippet
	return res.Value, r, err
}

func TestREADMESnippet(t *testing.T) {
	ctx := context.Background()
	g := genkit.Init(ctx)
	sc := &script{replies: []reply{text(wrongReview), text(validReview), text(wrongReview), text(validReview)}}
	m := genkit.DefineModel(g, "test/readme", supports, sc.fn)
	a, b, err := readmeRun(ctx, g, m, parse(t, reviewSchema))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"severity": "high", "summary": "a nil dereference"}, a)
	assert.Equal(t, &review{Severity: "high", Summary: "a nil dereference"}, b)
}
