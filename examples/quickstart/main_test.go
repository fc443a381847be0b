package main

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/golden"
)

// TestOutput runs the quickstart offline, as `go run ./examples/quickstart`
// does without a key, and checks what it prints against
// testdata/output.golden (go test . -update rewrites it).
func TestOutput(t *testing.T) {
	noEnv := func(string) string { return "" }
	golden.CheckOutput(t, "output", func(w io.Writer) error { return run(context.Background(), w, noEnv) })
}

func TestChooseProvider(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	_, name, err := chooseProvider(env(nil))
	require.NoError(t, err)
	assert.Contains(t, name, "scripted")

	_, name, err = chooseProvider(env(map[string]string{"OPENAI_API_KEY": "sk-test"}))
	require.NoError(t, err)
	assert.Equal(t, "gpt-4.1-mini at OpenAI (provider/openai adapter)", name)

	_, name, err = chooseProvider(env(map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1", "AGENTIO_OPENAI_MODEL": "qwen3"}))
	require.NoError(t, err)
	assert.Equal(t, "qwen3 at http://localhost:11434/v1 (provider/openai adapter)", name)

	_, _, err = chooseProvider(env(map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1"}))
	assert.ErrorContains(t, err, "AGENTIO_OPENAI_MODEL")
}
