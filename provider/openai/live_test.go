package openai_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/openai"
)

// TestLive runs the enforcement loop against a real endpoint in each
// mode. It is skipped unless AGENTIO_OPENAI_MODEL names a model and
// OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible server) is set;
// the SDK reads both variables itself.
func TestLive(t *testing.T) {
	model := os.Getenv("AGENTIO_OPENAI_MODEL")
	if model == "" || os.Getenv("OPENAI_API_KEY") == "" && os.Getenv("OPENAI_BASE_URL") == "" {
		t.Skip("set AGENTIO_OPENAI_MODEL and OPENAI_API_KEY or OPENAI_BASE_URL to run against a live endpoint")
	}
	s := mustSchema(t, reviewSchema)
	for _, api := range []openai.API{openai.APIChatCompletions, openai.APIResponses} {
		p, err := openai.New(&openai.Options{Model: model, API: api})
		require.NoError(t, err)
		if api == openai.APIResponses && p.Capabilities().Dialect != "openai" {
			continue // compatible servers rarely offer /responses
		}
		for _, mode := range []enforce.Mode{enforce.ModeAuto, enforce.ModeTool, enforce.ModePrompt} {
			t.Run(string(api)+"/"+string(mode), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				res, err := enforce.Run(ctx, p, enforce.Request{
					Prompt: "A user reports that the app crashes when saving a file with an empty name. Review this bug report.",
				}, s, enforce.WithMode(mode))
				require.NoError(t, err)
				assert.Empty(t, s.Validate(res.Value))
				t.Logf("mode %s, %d attempts, usage %+v: %s", res.Mode, len(res.Attempts), res.Usage, res.JSON)
			})
		}
	}
}
