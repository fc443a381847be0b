package gemini_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/gemini"
)

// TestLive runs the enforcement loop against the real Gemini API. It runs
// only when GEMINI_API_KEY is set; AGENTIO_GEMINI_MODEL picks the model.
func TestLive(t *testing.T) {
	key := os.Getenv("GEMINI_API_KEY")
	if key == "" {
		t.Skip("GEMINI_API_KEY is not set: the live Gemini test is skipped")
	}
	model := os.Getenv("AGENTIO_GEMINI_MODEL")
	if model == "" {
		model = "gemini-2.5-flash"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := gemini.New(&gemini.Options{Model: model, APIKey: key})
	require.NoError(t, err)
	for _, mode := range []enforce.Mode{enforce.ModeNative, enforce.ModeTool} {
		res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Report one finding about `data, _ := os.ReadFile(name)`."}, mustSchema(t), enforce.WithMode(mode))
		require.NoError(t, err, "mode %s", mode)
		assert.NotEmpty(t, res.JSON)
	}
}
