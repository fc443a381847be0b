package blueprint_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/schema"
)

// mapRegistry is a read-only registry.Registry over a map, enough for
// resolution tests.
type mapRegistry map[string]*schema.Schema

func (m mapRegistry) Get(_ context.Context, name string) (*registry.Entry, error) {
	s, ok := m[name]
	if !ok {
		return nil, fmt.Errorf("get %q: %w", name, registry.ErrNotFound)
	}
	return &registry.Entry{Name: name, Schema: s}, nil
}

func (m mapRegistry) Put(context.Context, *registry.Entry) error { return errors.New("read-only") }
func (m mapRegistry) List(context.Context) ([]*registry.Entry, error) {
	return nil, errors.New("not listed")
}
func (m mapRegistry) Delete(context.Context, string) error { return errors.New("read-only") }

// failingRegistry fails every lookup.
type failingRegistry struct{ mapRegistry }

func (failingRegistry) Get(context.Context, string) (*registry.Entry, error) {
	return nil, errors.New("disk on fire")
}

func mustSchema(t *testing.T, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

func ptr[T any](v T) *T { return &v }

func TestResolvePriority(t *testing.T) {
	inline := mustSchema(t, `{"type":"object","properties":{"inline":{}}}`)
	named := mustSchema(t, `{"type":"object","properties":{"named":{}}}`)
	reg := mapRegistry{"code-analysis-result": named}

	both, err := blueprint.Parse([]byte(`{"name":"both",
		"output_schema":{"type":"object","properties":{"output":{}}},
		"default_output_schema":{"type":"object","properties":{"default":{}}}}`))
	require.NoError(t, err)
	outputOnly := loadAgent(t, "security-scanner")
	none, err := blueprint.Parse([]byte(`{"name":"none"}`))
	require.NoError(t, err)

	tests := []struct {
		name   string
		bp     *blueprint.Blueprint
		spec   blueprint.RunSpec
		source blueprint.Source
		want   *schema.Schema
		rname  string
	}{
		{name: "inline over everything", bp: both, spec: blueprint.RunSpec{Inline: inline}, source: blueprint.SourceInline, want: inline},
		{name: "named over blueprint", bp: both, spec: blueprint.RunSpec{Name: "code-analysis-result"}, source: blueprint.SourceNamed, want: named, rname: "code-analysis-result"},
		{name: "default_output_schema over output_schema", bp: both, source: blueprint.SourceBlueprint, want: both.DefaultOutputSchema()},
		{name: "output_schema last", bp: outputOnly, source: blueprint.SourceBlueprint, want: outputOnly.OutputSchema()},
		{name: "nothing: free text", bp: none, source: blueprint.SourceNone},
		{name: "nil blueprint, inline", spec: blueprint.RunSpec{Inline: inline}, source: blueprint.SourceInline, want: inline},
		{name: "nil blueprint, nothing", source: blueprint.SourceNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := blueprint.ResolveOutputSchema(context.Background(), tt.bp, tt.spec, reg)
			require.NoError(t, err)
			assert.Equal(t, tt.source, res.Source)
			assert.Same(t, tt.want, res.Schema)
			assert.Equal(t, tt.rname, res.Name)
		})
	}
}

func TestResolveErrors(t *testing.T) {
	inline := mustSchema(t, `{"type":"object","properties":{}}`)
	reg := mapRegistry{}
	bp := loadAgent(t, "security-scanner")
	tests := []struct {
		name  string
		spec  blueprint.RunSpec
		reg   registry.Registry
		is    error
		field string
		text  string
	}{
		{name: "inline and name", spec: blueprint.RunSpec{Inline: inline, Name: "x"}, reg: reg, is: blueprint.ErrSchemaConflict},
		{name: "missing name", spec: blueprint.RunSpec{Name: "nonexistent-schema"}, reg: reg, is: blueprint.ErrSchemaNotFound, text: `blueprint: output schema "nonexistent-schema" not found`},
		{name: "name without registry", spec: blueprint.RunSpec{Name: "x"}, is: blueprint.ErrSchemaNotFound},
		{name: "registry failure", spec: blueprint.RunSpec{Name: "x"}, reg: failingRegistry{}, text: `blueprint: output schema "x": disk on fire`},
		{name: "negative retries", spec: blueprint.RunSpec{Options: blueprint.OutputOptions{MaxRetries: ptr(-1)}}, reg: reg, field: "output_schema_options.max_retries"},
		{name: "unknown mode", spec: blueprint.RunSpec{Options: blueprint.OutputOptions{ValidationMode: "fuzzy"}}, reg: reg, field: "output_schema_options.validation_mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := blueprint.ResolveOutputSchema(context.Background(), bp, tt.spec, tt.reg)
			require.Error(t, err)
			assert.Nil(t, res)
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
			if tt.field != "" {
				var fe *blueprint.FieldError
				require.ErrorAs(t, err, &fe)
				assert.Equal(t, tt.field, fe.Field)
			}
			if tt.text != "" {
				assert.Equal(t, tt.text, err.Error())
			}
		})
	}
}

func TestSchemaNotFoundMatchesBothNames(t *testing.T) {
	_, err := blueprint.ResolveOutputSchema(context.Background(), nil, blueprint.RunSpec{Name: "nonexistent-schema"}, mapRegistry{})
	assert.ErrorIs(t, err, registry.ErrNotFound)
	assert.ErrorIs(t, err, blueprint.ErrSchemaNotFound)
	var nf *blueprint.SchemaNotFoundError
	require.ErrorAs(t, err, &nf)
	assert.Equal(t, "nonexistent-schema", nf.Name)
	data, jerr := json.Marshal(nf)
	require.NoError(t, jerr)
	assert.JSONEq(t, `{"error":"SchemaNotFound","message":"Output schema 'nonexistent-schema' not found","status_code":404}`, string(data))
}

func TestLenientResolves(t *testing.T) {
	none, err := blueprint.Parse([]byte(`{"name":"none","default_output_schema_options":{"validation_mode":"lenient"}}`))
	require.NoError(t, err)
	res, err := blueprint.ResolveOutputSchema(context.Background(), none, blueprint.RunSpec{}, nil)
	require.NoError(t, err, "no schema applies, so no validation happens")
	assert.Equal(t, blueprint.ValidationLenient, res.Options.ValidationMode)

	sec := loadAgent(t, "security-scanner")
	res, err = blueprint.ResolveOutputSchema(context.Background(), sec, blueprint.RunSpec{Options: blueprint.OutputOptions{ValidationMode: "lenient"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, blueprint.ValidationLenient, res.Options.ValidationMode)
	res, err = blueprint.ResolveOutputSchema(context.Background(), sec, blueprint.RunSpec{Options: blueprint.OutputOptions{ValidationMode: "strict"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, blueprint.ValidationStrict, res.Options.ValidationMode)
}

func TestResolveOptionsMerge(t *testing.T) {
	withDefaults := loadAgent(t, "code-analyzer") // max_retries 3, extract_json true
	strictBP, err := blueprint.Parse([]byte(`{"name":"s","output_schema":{"type":"object","properties":{}},
		"default_output_schema_options":{"strict_json_only":true,"extract_json":false,"max_retries":0}}`))
	require.NoError(t, err)
	plain := loadAgent(t, "summarizer")

	lib := blueprint.DefaultOptions()
	tests := []struct {
		name string
		bp   *blueprint.Blueprint
		run  blueprint.OutputOptions
		want blueprint.EffectiveOptions
	}{
		{name: "library defaults", bp: plain, want: lib},
		{name: "nil blueprint gets library defaults", want: lib},
		{name: "blueprint over library", bp: withDefaults, want: blueprint.EffectiveOptions{MaxRetries: 3, ExtractJSON: true, ValidationMode: blueprint.ValidationStrict}},
		{name: "run over blueprint", bp: withDefaults, run: blueprint.OutputOptions{MaxRetries: ptr(1)}, want: blueprint.EffectiveOptions{MaxRetries: 1, ExtractJSON: true, ValidationMode: blueprint.ValidationStrict}},
		{name: "run zero values count", bp: withDefaults, run: blueprint.OutputOptions{MaxRetries: ptr(0), ExtractJSON: ptr(false)}, want: blueprint.EffectiveOptions{ValidationMode: blueprint.ValidationStrict}},
		{name: "blueprint booleans and zero retries", bp: strictBP, want: blueprint.EffectiveOptions{MaxRetries: 0, ExtractJSON: false, StrictJSONOnly: true, ValidationMode: blueprint.ValidationStrict}},
		{name: "run over blueprint booleans", bp: strictBP, run: blueprint.OutputOptions{StrictJSONOnly: ptr(false), ValidationMode: blueprint.ValidationStrict}, want: blueprint.EffectiveOptions{ValidationMode: blueprint.ValidationStrict}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := blueprint.ResolveOutputSchema(context.Background(), tt.bp, blueprint.RunSpec{Options: tt.run}, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Options)
		})
	}
	assert.Equal(t, blueprint.EffectiveOptions{MaxRetries: 2, ExtractJSON: true, StrictJSONOnly: false, ValidationMode: blueprint.ValidationStrict}, lib)
}

func TestRunSpecJSON(t *testing.T) {
	var spec blueprint.RunSpec
	require.NoError(t, json.Unmarshal([]byte(`{
		"output_schema": {"type":"object","required":["files","loc"],"properties":{"files":{"type":"integer"},"loc":{"type":"integer"}}},
		"output_schema_options": {"max_retries": 3, "extract_json": true, "strict_json_only": false, "validation_mode": "strict"}}`), &spec))
	require.NotNil(t, spec.Inline)
	assert.Equal(t, 3, *spec.Options.MaxRetries)
	assert.False(t, *spec.Options.StrictJSONOnly)
	res, err := blueprint.ResolveOutputSchema(context.Background(), loadAgent(t, "summarizer"), spec, nil)
	require.NoError(t, err)
	assert.Equal(t, blueprint.SourceInline, res.Source)
	assert.Equal(t, 3, res.Options.MaxRetries)
}
