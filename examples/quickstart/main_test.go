package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/provider/providertest"
)

// TestOutput runs the quickstart offline, as `go run ./examples/quickstart`
// does without a key, and checks what it prints against
// testdata/output.golden (go test . -update rewrites it).
func TestOutput(t *testing.T) {
	p, name, err := chooseProvider(func(string) string { return "" })
	require.NoError(t, err)
	golden.CheckOutput(t, "output", func(w io.Writer) error { return run(context.Background(), w, p, name) })
}

// TestNoValidAnswer: a model that never conforms makes run print the
// error JSON and return the *enforce.ValidationError (main exits 1).
func TestNoValidAnswer(t *testing.T) {
	wrong := providertest.Text(`{"findings": [], "counts": {"blocker": "none"}}`)
	p := providertest.New(wrong, wrong, wrong)
	var out strings.Builder
	err := run(context.Background(), &out, p, "always wrong")
	var ve *enforce.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Len(t, ve.Attempts, 3, "the first call and two re-asks")
	assert.Contains(t, out.String(), "no valid answer after 3 attempt(s)")
	assert.Contains(t, out.String(), `"error": "OutputSchemaValidationError"`)
	assert.Contains(t, out.String(), `"path": "$.counts.blocker"`)
	assert.Zero(t, p.Remaining())
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
