package blueprint_test

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
)

// The cases of the input-schema requirements.
func TestSeedMergeCases(t *testing.T) {
	b, err := blueprint.Parse([]byte(`{"name":"test","type":"autonomous",
		"parameters_schema":{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}}`))
	require.NoError(t, err)

	t.Run("merge puts prompt in properties and required", func(t *testing.T) {
		var merged struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		require.NoError(t, json.Unmarshal(b.EffectiveParametersSchema().JSON(), &merged))
		assert.Contains(t, merged.Properties, "prompt")
		assert.Contains(t, merged.Required, "prompt")
		assert.NotContains(t, string(b.ParametersSchema().JSON()), "prompt", "the stored schema stays as written")
	})
	t.Run("prompt and topic pass", func(t *testing.T) {
		assert.NoError(t, b.ValidateParameters(map[string]any{"prompt": "hello", "topic": "AI"}))
	})
	t.Run("topic alone fails on the missing prompt", func(t *testing.T) {
		err := b.ValidateParameters(map[string]any{"topic": "AI"})
		var pe *blueprint.ParameterError
		require.ErrorAs(t, err, &pe)
		require.Len(t, pe.Violations, 1)
		assert.Equal(t, "$.prompt", pe.Violations[0].Path)
		assert.Equal(t, "'prompt' is a required property", pe.Violations[0].Message)
		assert.Equal(t, "/required", pe.Violations[0].SchemaPath)
	})
}

func TestValidateParameters(t *testing.T) {
	implicit, err := blueprint.Parse([]byte(`{"name":"plain"}`))
	require.NoError(t, err)
	par := loadAgent(t, "parametric-agent")
	procNone, err := blueprint.Parse([]byte(`{"name":"script","type":"procedural"}`))
	require.NoError(t, err)
	proc, err := blueprint.Parse([]byte(`{"name":"script","type":"procedural",
		"parameters_schema":{"type":"object","required":["repo"],"properties":{"repo":{"type":"string"}}}}`))
	require.NoError(t, err)

	tests := []struct {
		name   string
		bp     *blueprint.Blueprint
		params map[string]any
		paths  []string // the violations' paths; nil: valid
	}{
		{name: "implicit schema, prompt", bp: implicit, params: map[string]any{"prompt": "Hi"}},
		{name: "implicit schema, extra parameter allowed", bp: implicit, params: map[string]any{"prompt": "Hi", "x": 1}},
		{name: "implicit schema, no prompt", bp: implicit, params: map[string]any{}, paths: []string{"$.prompt"}},
		{name: "implicit schema, nil map", bp: implicit, params: nil, paths: []string{"$.prompt"}},
		{name: "implicit schema, empty prompt", bp: implicit, params: map[string]any{"prompt": ""}, paths: []string{"$.prompt"}},
		{name: "implicit schema, prompt not a string", bp: implicit, params: map[string]any{"prompt": 3}, paths: []string{"$.prompt"}},
		{name: "custom schema, valid", bp: par, params: map[string]any{"prompt": "Write.", "topic": "ML in healthcare", "format": "bullet_points", "max_words": 300}},
		{name: "custom schema, Go int and float", bp: par, params: map[string]any{"prompt": "Write.", "topic": "t", "format": "essay", "max_words": int64(60)}},
		{name: "custom schema, bad enum", bp: par, params: map[string]any{"prompt": "Write.", "topic": "t", "format": "invalid"}, paths: []string{"$.format"}},
		{name: "custom schema, additional property", bp: par, params: map[string]any{"prompt": "Write.", "topic": "t", "format": "essay", "tone": "dry"}, paths: []string{"$.tone"}},
		{name: "custom schema, prompt still allowed beside additionalProperties false", bp: par, params: map[string]any{"prompt": "p", "topic": "t", "format": "essay"}},
		{name: "procedural without schema takes anything", bp: procNone, params: map[string]any{"whatever": []int{1}}},
		{name: "procedural without schema, nil", bp: procNone},
		{name: "procedural needs no prompt", bp: proc, params: map[string]any{"repo": "agentio"}},
		{name: "procedural schema as is", bp: proc, params: map[string]any{"prompt": "x"}, paths: []string{"$.repo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.bp.ValidateParameters(tt.params)
			if tt.paths == nil {
				assert.NoError(t, err)
				return
			}
			var pe *blueprint.ParameterError
			require.ErrorAs(t, err, &pe)
			var paths []string
			for _, v := range pe.Violations {
				paths = append(paths, v.Path)
			}
			assert.Equal(t, tt.paths, paths)
			assert.Equal(t, tt.bp.Name(), pe.AgentName)
		})
	}
}

func TestValidateParametersNotJSON(t *testing.T) {
	b, err := blueprint.Parse([]byte(`{"name":"plain"}`))
	require.NoError(t, err)
	err = b.ValidateParameters(map[string]any{"prompt": "x", "n": math.NaN()})
	require.Error(t, err)
	var pe *blueprint.ParameterError
	assert.False(t, errors.As(err, &pe), "not a parameter mismatch")
	assert.Contains(t, err.Error(), "blueprint: parameters cannot be encoded as JSON")
}

func TestParameterErrorJSON(t *testing.T) {
	par := loadAgent(t, "parametric-agent")
	err := par.ValidateParameters(map[string]any{"prompt": "Write.", "topic": "t", "format": "invalid"})
	var pe *blueprint.ParameterError
	require.ErrorAs(t, err, &pe)
	data, jerr := json.Marshal(pe)
	require.NoError(t, jerr)
	var shape struct {
		Error            string `json:"error"`
		Message          string `json:"message"`
		AgentName        string `json:"agent_name"`
		ValidationErrors []struct {
			Path       string `json:"path"`
			Message    string `json:"message"`
			SchemaPath string `json:"schema_path"`
		} `json:"validation_errors"`
		ParametersSchema map[string]any `json:"parameters_schema"`
	}
	require.NoError(t, json.Unmarshal(data, &shape))
	assert.Equal(t, "parameter_validation_failed", shape.Error)
	assert.Equal(t, "Parameters do not match agent's parameters_schema", shape.Message)
	assert.Equal(t, "parametric-agent", shape.AgentName)
	require.Len(t, shape.ValidationErrors, 1)
	assert.Equal(t, "$.format", shape.ValidationErrors[0].Path)
	assert.Equal(t, "properties.format.enum", shape.ValidationErrors[0].SchemaPath)
	assert.Equal(t, "'invalid' is not one of ['summary', 'bullet_points', 'essay']", shape.ValidationErrors[0].Message)
	assert.Contains(t, shape.ParametersSchema["required"], "prompt", "the schema validated against")
	assert.Equal(t, `blueprint: parameters do not match the parameters_schema of parametric-agent: $.format: 'invalid' is not one of ['summary', 'bullet_points', 'essay']`, err.Error())
}

func TestParametersSchemaThatCannotTakeAPrompt(t *testing.T) {
	_, err := blueprint.Parse([]byte(`{"name":"a","parameters_schema":false}`))
	var fe *blueprint.FieldError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "parameters_schema", fe.Field)
	assert.Contains(t, fe.Reason, `cannot add the required "prompt"`)

	_, err = blueprint.Parse([]byte(`{"name":"a","type":"procedural","parameters_schema":false}`))
	assert.NoError(t, err, "a procedural agent's schema is used as is")
}

func TestSchemaPathIsDotted(t *testing.T) {
	b, err := blueprint.Parse([]byte(`{"name":"a","type":"procedural",
		"parameters_schema":{"type":"object","properties":{"a/b":{"type":"string"},"c~d":{"type":"string"}}}}`))
	require.NoError(t, err)
	err = b.ValidateParameters(map[string]any{"a/b": 1, "c~d": 2})
	var pe *blueprint.ParameterError
	require.ErrorAs(t, err, &pe)
	data, jerr := json.Marshal(pe)
	require.NoError(t, jerr)
	assert.Contains(t, string(data), `"schema_path":"properties.a/b.type"`)
	assert.Contains(t, string(data), `"schema_path":"properties.c~d.type"`)
}
