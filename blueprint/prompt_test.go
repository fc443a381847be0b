package blueprint_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
)

func TestPromptAndSystemPrompt(t *testing.T) {
	par := loadAgent(t, "parametric-agent")
	got, err := par.Prompt(map[string]any{"prompt": "Hello"})
	require.NoError(t, err)
	assert.Equal(t, "Hello", got, "a prompt alone is unchanged")
	_, err = par.Prompt(map[string]any{"topic": "x"})
	assert.Error(t, err, "no prompt")

	proc, err := blueprint.Parse([]byte(`{"name":"script","type":"procedural"}`))
	require.NoError(t, err)
	_, err = proc.Prompt(map[string]any{"prompt": "x"})
	assert.ErrorIs(t, err, blueprint.ErrNotAutonomous)

	sys, err := par.SystemPrompt(nil)
	require.NoError(t, err)
	assert.Equal(t, par.Instructions(), sys)
	sys, err = par.SystemPrompt(&blueprint.Resolution{Options: blueprint.DefaultOptions()})
	require.NoError(t, err)
	assert.Equal(t, par.Instructions(), sys, "no schema, nothing added")

	inline := mustSchema(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
	sys, err = par.SystemPrompt(&blueprint.Resolution{Schema: inline, Options: blueprint.DefaultOptions()})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(sys, par.Instructions()))
	assert.Contains(t, sys, string(inline.JSON()))
	lenient, err := par.SystemPrompt(&blueprint.Resolution{Schema: inline, Options: blueprint.EffectiveOptions{ValidationMode: blueprint.ValidationLenient}})
	require.NoError(t, err)
	assert.Equal(t, sys, lenient, "lenient validation asks the model for the same format")
}
