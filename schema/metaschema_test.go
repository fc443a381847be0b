package schema_test

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

// TestMetaSchemaRef checks that a $ref to either draft's meta-schema
// resolves without a loader, and that the built-in meta-schemas judge
// schemas as the drafts do.
func TestMetaSchemaRef(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		value  string
		valid  bool
	}{
		{"2020-12 accepts a schema", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, `{"type":"string","minLength":1}`, true},
		{"2020-12 rejects a negative minLength", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, `{"minLength":-1}`, false},
		{"2020-12 rejects an unknown type", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, `{"type":"strin"}`, false},
		{"2020-12 checks nested schemas", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, `{"properties":{"a":{"items":{"maxItems":"3"}}}}`, false},
		{"2020-12 accepts boolean schemas", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, `{"properties":{"a":false}}`, true},
		{"2020-12 rejects a non-schema", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, `12`, false},
		{"2020-12 vocabulary document", `{"$ref":"https://json-schema.org/draft/2020-12/meta/validation"}`, `{"required":["a","a"]}`, false},
		{"$defs checked against the meta-schema", `{"$schema":"https://json-schema.org/draft/2020-12/schema","$ref":"https://json-schema.org/draft/2020-12/schema"}`, `{"$defs":{"x":{"type":1}}}`, false},
		{"draft-07 accepts a schema", `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"http://json-schema.org/draft-07/schema#"}`, `{"items":[{"type":"string"}],"additionalItems":false}`, true},
		{"draft-07 rejects a bad definition", `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"http://json-schema.org/draft-07/schema#"}`, `{"definitions":{"x":{"type":1}}}`, false},
		{"https and a trailing # are the same document", `{"$ref":"https://json-schema.org/draft/2020-12/schema#"}`, `{"minimum":"0"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			vs, err := s.ValidateJSON([]byte(tt.value))
			require.NoError(t, err)
			assert.Equal(t, tt.valid, len(vs) == 0, "violations: %v", vs)
		})
	}
}

// TestMetaSchemaNotAWildcard checks that only the meta-schema documents
// are built in: any other json-schema.org document is still a remote ref.
func TestMetaSchemaNotAWildcard(t *testing.T) {
	_, err := schema.Parse([]byte(`{"$ref":"https://json-schema.org/draft/2020-12/meta/nonsense"}`))
	require.Error(t, err)
	assert.True(t, errors.Is(err, schema.ErrRemoteRef), "%v", err)
}

// TestCustomMetaSchema checks that a root $schema naming a meta-schema the
// loader supplies is read under that meta-schema's draft, with a warning,
// and refused without a loader.
func TestCustomMetaSchema(t *testing.T) {
	const doc = `{"$schema":"https://example.com/meta.json","type":"object","required":["a"]}`
	loader := func(uri string) ([]byte, error) {
		switch uri {
		case "https://example.com/meta.json":
			return []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/meta.json",` +
				`"$dynamicAnchor":"meta","allOf":[{"$ref":"https://json-schema.org/draft/2020-12/schema"}]}`), nil
		case "https://example.com/meta7.json":
			return []byte(`{"$schema":"http://json-schema.org/draft-07/schema#"}`), nil
		case "https://example.com/nodraft.json":
			return []byte(`{"type":"object"}`), nil
		}
		return nil, os.ErrNotExist
	}

	s, err := schema.ParseWith([]byte(doc), &schema.ParseOptions{Loader: loader})
	require.NoError(t, err)
	vs, err := s.ValidateJSON([]byte(`{}`))
	require.NoError(t, err)
	require.Len(t, vs, 1)
	assert.Equal(t, "required", vs[0].Keyword)
	vs, err = s.ValidateJSON([]byte(`{"a":1}`))
	require.NoError(t, err)
	assert.Empty(t, vs)
	require.NotEmpty(t, s.Warnings())
	assert.Contains(t, s.Warnings()[0].Message, "custom meta-schema")
	assert.Equal(t, string(doc), string(s.JSON()), "the author's bytes are kept")

	// A draft-07 meta-schema gives draft-07 rules: array-form items.
	s, err = schema.ParseWith([]byte(`{"$schema":"https://example.com/meta7.json","items":[{"type":"string"}],"additionalItems":false}`),
		&schema.ParseOptions{Loader: loader})
	require.NoError(t, err)
	vs, err = s.ValidateJSON([]byte(`["a",1]`))
	require.NoError(t, err)
	assert.NotEmpty(t, vs)

	for _, tt := range []struct {
		name string
		doc  string
		opts *schema.ParseOptions
	}{
		{"no loader", doc, nil},
		{"meta-schema not found", `{"$schema":"https://example.com/missing.json"}`, &schema.ParseOptions{Loader: loader}},
		{"meta-schema without a known draft", `{"$schema":"https://example.com/nodraft.json"}`, &schema.ParseOptions{Loader: loader}},
		{"relative $schema", `{"$schema":"meta.json"}`, &schema.ParseOptions{Loader: loader}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.ParseWith([]byte(tt.doc), tt.opts)
			require.Error(t, err)
			assert.True(t, errors.Is(err, schema.ErrUnsupportedDraft), "%v", err)
		})
	}
}
