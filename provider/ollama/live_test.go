package ollama_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/ollama"
)

// liveModel is the model TestLive asks when AGENTIO_OLLAMA_MODEL is unset.
const liveModel = "qwen3"

// TestLive runs the enforcement loop against a real Ollama server in each
// mode. It is skipped unless OLLAMA_HOST names the server;
// AGENTIO_OLLAMA_MODEL picks a model the server has pulled.
func TestLive(t *testing.T) {
	host := os.Getenv("OLLAMA_HOST")
	if host == "" {
		t.Skip("set OLLAMA_HOST (and AGENTIO_OLLAMA_MODEL) to run against a live Ollama server")
	}
	model := os.Getenv("AGENTIO_OLLAMA_MODEL")
	if model == "" {
		model = liveModel
	}
	p, err := ollama.New(&ollama.Options{Model: model, BaseURL: host})
	require.NoError(t, err)
	s := mustSchema(t, reviewSchema)
	for _, mode := range []enforce.Mode{enforce.ModeAuto, enforce.ModeTool, enforce.ModePrompt} {
		t.Run(string(mode), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
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
