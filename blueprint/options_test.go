package blueprint_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
)

func TestEffectiveOptionsEnforceOptions(t *testing.T) {
	lenient, err := blueprint.EffectiveOptions{ValidationMode: blueprint.ValidationLenient}.EnforceOptions()
	require.NoError(t, err)
	strict, err := blueprint.EffectiveOptions{ValidationMode: blueprint.ValidationStrict}.EnforceOptions()
	require.NoError(t, err)
	assert.Len(t, lenient, len(strict)+1, "lenient adds enforce.WithLenient")
	_, err = blueprint.EffectiveOptions{ValidationMode: "other"}.EnforceOptions()
	assert.ErrorIs(t, err, enforce.ErrInvalidOption)
	opts, err := blueprint.DefaultOptions().EnforceOptions()
	require.NoError(t, err)
	_, err = enforce.New(mustSchema(t, `{"type":"object","properties":{}}`), opts...)
	assert.NoError(t, err)
	var none blueprint.Resolution
	_, err = none.Enforcer()
	assert.ErrorIs(t, err, enforce.ErrInvalidRequest, "no schema, no enforcer")
}

// A run request's output_schema_options are read as strictly as a
// blueprint's: a misspelt or mistyped knob is an error, not ignored.
func TestOutputOptionsUnmarshalStrict(t *testing.T) {
	tests := []struct {
		name, doc string
		want      blueprint.OutputOptions
		errField  []string
	}{
		{name: "all knobs", doc: `{"max_retries": 1, "extract_json": false, "strict_json_only": true, "validation_mode": "strict"}`,
			want: blueprint.OutputOptions{MaxRetries: ptr(1), ExtractJSON: ptr(false), StrictJSONOnly: ptr(true), ValidationMode: blueprint.ValidationStrict}},
		{name: "null", doc: `null`},
		{name: "empty", doc: `{}`},
		{name: "misspelt knob", doc: `{"max_retires": 1}`, errField: []string{"max_retires"}},
		{name: "wrong kinds", doc: `{"max_retries": "2", "extract_json": "yes"}`, errField: []string{"max_retries", "extract_json"}},
		{name: "negative", doc: `{"max_retries": -1}`, errField: []string{"max_retries"}},
		{name: "not an object", doc: `[1]`, errField: []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got blueprint.OutputOptions
			err := json.Unmarshal([]byte(tt.doc), &got)
			if tt.errField == nil {
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
				return
			}
			require.Error(t, err)
			for _, f := range tt.errField {
				assert.Contains(t, err.Error(), "blueprint: "+f)
			}
			var fe *blueprint.FieldError
			assert.ErrorAs(t, err, &fe)
			assert.Equal(t, blueprint.OutputOptions{}, got, "nothing is set from a bad document")
		})
	}

	var spec blueprint.RunSpec
	err := json.Unmarshal([]byte(`{"output_schema_name": "review", "output_schema_options": {"max_retires": 1}}`), &spec)
	assert.ErrorContains(t, err, "max_retires: unknown option")
}
