package anthropic_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/anthropic"
)

// liveModel is the model TestLive asks when AGENTIO_ANTHROPIC_MODEL is
// unset.
const liveModel = "claude-haiku-4-5"

// TestLive runs the enforcement loop against the real Messages API in each
// mode, with Generate and streamed. It is skipped unless ANTHROPIC_API_KEY is set (the SDK reads it);
// AGENTIO_ANTHROPIC_MODEL picks the model.
func TestLive(t *testing.T) {
	if os.Getenv("ANTHROPIC_API_KEY") == "" {
		t.Skip("set ANTHROPIC_API_KEY to run against the live Messages API")
	}
	model := os.Getenv("AGENTIO_ANTHROPIC_MODEL")
	if model == "" {
		model = liveModel
	}
	p, err := anthropic.New(&anthropic.Options{Model: model})
	require.NoError(t, err)
	s := mustSchema(t, reviewSchema)
	for _, mode := range []enforce.Mode{enforce.ModeAuto, enforce.ModeTool, enforce.ModePrompt} {
		t.Run(string(mode), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := enforce.Run(ctx, p, enforce.Request{
				Prompt: "A user reports that the app crashes when saving a file with an empty name. Review this bug report.",
			}, s, enforce.WithMode(mode))
			require.NoError(t, err)
			assert.Empty(t, s.Validate(res.Value))
			t.Logf("mode %s, %d attempts, usage %+v: %s", res.Mode, len(res.Attempts), res.Usage, res.JSON)
		})
		t.Run("stream/"+string(mode), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := enforce.Run(ctx, p, enforce.Request{
				Prompt: "A user reports that the app crashes when saving a file with an empty name. Review this bug report.",
			}, s, enforce.WithMode(mode), enforce.WithPartials(func(enforce.Partial) {}))
			require.NoError(t, err)
			assert.Empty(t, s.Validate(res.Value))
			t.Logf("streamed, mode %s, %d attempts, usage %+v: %s", res.Mode, len(res.Attempts), res.Usage, res.JSON)
		})
	}
}
