package schema_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
	"github.com/agentio/agentio/schema/dialect"
)

// TestRealWorldReadings checks the readings Parse gives schemas found in
// the wild that jsonschema-go alone refuses: a $ref into a part of the
// document that is not a schema keyword, relative $id values without a
// base URI, and draft-04's fragment ids.
func TestRealWorldReadings(t *testing.T) {
	tests := []struct {
		name    string
		schema  string
		valid   []string
		invalid []string
		warning string // a warning message contains this; "" for none
	}{
		{
			name:    "ref to a top-level non-keyword",
			schema:  `{"type":"object","properties":{"team":{"$ref":"#/team"}},"team":{"type":"string","minLength":2}}`,
			valid:   []string{`{"team":"ab"}`, `{}`},
			invalid: []string{`{"team":1}`, `{"team":"a"}`},
			warning: "not a schema keyword",
		},
		{
			name:    "ref through a definition's non-keyword member",
			schema:  `{"definitions":{"opts":{"local":{"type":"integer"}}},"$schema":"http://json-schema.org/draft-07/schema#","items":{"$ref":"#/definitions/opts/local"}}`,
			valid:   []string{`[1,2]`},
			invalid: []string{`["x"]`},
			warning: "not a schema keyword",
		},
		{
			name:    "hoisted value with its own such ref",
			schema:  `{"$ref":"#/x/a","x":{"a":{"properties":{"b":{"$ref":"#/x/b"}}},"b":{"type":"boolean"}}}`,
			valid:   []string{`{"b":true}`},
			invalid: []string{`{"b":"yes"}`},
			warning: "not a schema keyword",
		},
		{
			name:    "relative ids without a base",
			schema:  `{"type":"object","properties":{"ip":{"$id":"/properties/ip","type":"string"}},"required":["ip"]}`,
			valid:   []string{`{"ip":"x"}`},
			invalid: []string{`{}`, `{"ip":1}`},
			warning: "relative $id",
		},
		{
			name:    "relative root id",
			schema:  `{"$id":"example.org/schemas/a.json","type":"integer"}`,
			valid:   []string{`1`},
			invalid: []string{`"1"`},
			warning: "relative $id",
		},
		{
			name:    "draft-04 fragment id",
			schema:  `{"$schema":"http://json-schema.org/draft-04/schema#","definitions":{"p":{"id":"#prio","type":"integer"}},"properties":{"priority":{"$ref":"#prio"}}}`,
			valid:   []string{`{"priority":1}`},
			invalid: []string{`{"priority":"high"}`},
		},
		{
			name:   "ordinary refs are untouched",
			schema: `{"$defs":{"n":{"type":"number"}},"items":{"$ref":"#/$defs/n"}}`,
			valid:  []string{`[1]`}, invalid: []string{`["a"]`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			assert.Equal(t, tt.schema, string(s.JSON()), "the author's bytes are kept")
			for _, v := range tt.valid {
				vs, err := s.ValidateJSON([]byte(v))
				require.NoError(t, err)
				assert.Empty(t, vs, v)
			}
			for _, v := range tt.invalid {
				vs, err := s.ValidateJSON([]byte(v))
				require.NoError(t, err)
				assert.NotEmpty(t, vs, v)
			}
			var msgs []string
			for _, w := range s.Warnings() {
				msgs = append(msgs, w.Message)
			}
			if tt.warning == "" {
				assert.Empty(t, msgs)
				return
			}
			found := false
			for _, m := range msgs {
				found = found || strings.Contains(m, tt.warning)
			}
			assert.True(t, found, "warnings %q lack %q", msgs, tt.warning)
			// A provider's dialect starts from the document as read, so
			// the converted schema is usable.
			conv, err := dialect.Convert(s, dialect.OpenAI)
			require.NoError(t, err)
			_, err = schema.Parse(conv.Schema)
			assert.NoError(t, err, "%s", conv.Schema)
		})
	}
}

// TestRealWorldRefusals checks what is still refused: a pointer that leads
// nowhere, and a target that carries its own $id.
func TestRealWorldRefusals(t *testing.T) {
	for _, doc := range []string{
		`{"properties":{"a":{"$ref":"#/nothing"}}}`,
		`{"properties":{"a":{"$ref":"#/x"}},"x":{"$id":"https://example.com/x","type":"string"}}`,
	} {
		_, err := schema.Parse([]byte(doc))
		assert.Error(t, err, doc)
	}
}
