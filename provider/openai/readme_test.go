package openai_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openai"
)

// readmeProviders is the README's adapter snippet (internal/readme checks
// that the README shows it as it is here); it stores the two providers in out.
func readmeProviders(out *[2]provider.Provider) error {
	// snippet: openai
	p, err := openai.New(&openai.Options{Model: "gpt-4.1-mini"}) // the key comes from OPENAI_API_KEY
	if err != nil {
		return err
	}
	// An OpenAI-compatible server: Ollama, vLLM, llama.cpp server, LM Studio.
	local, err := openai.New(&openai.Options{Model: "qwen3", BaseURL: "http://localhost:11434/v1"})
	if err != nil {
		return err
	}
	// end snippet
	out[0], out[1] = p, local
	return nil
}

func TestREADMESnippet(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "") // the snippet means OpenAI itself
	var out [2]provider.Provider
	require.NoError(t, readmeProviders(&out))
	p, local := out[0], out[1]
	assert.Equal(t, "openai", p.Capabilities().Dialect, "OpenAI gets strict schemas in its dialect")
	assert.True(t, p.Capabilities().StrictSchema)
	assert.Empty(t, local.Capabilities().Dialect, "a compatible server gets the schema as written")
}
