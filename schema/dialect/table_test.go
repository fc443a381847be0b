package dialect_test

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/shared"
	"github.com/agentio/agentio/schema"
	"github.com/agentio/agentio/schema/dialect"
)

// everyKeyword uses every draft 2020-12 keyword at least once.
const everyKeyword = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.com/every.json",
  "$comment": "every keyword",
  "title": "Every keyword",
  "description": "A schema that uses them all",
  "type": "object",
  "required": ["name", "tags"],
  "properties": {
    "name": {"type": "string", "minLength": 1, "maxLength": 80, "pattern": "^[a-z]+$", "format": "email"},
    "when": {"type": "string", "format": "date-time"},
    "odd": {"type": "string", "format": "hex-color"},
    "count": {"type": "integer", "minimum": 0, "maximum": 10, "exclusiveMinimum": -1, "exclusiveMaximum": 11, "multipleOf": 1},
    "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 5, "uniqueItems": true,
             "contains": {"const": "x"}, "minContains": 1, "maxContains": 2, "unevaluatedItems": false},
    "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}]},
    "kind": {"enum": ["a", "b"], "default": "a", "examples": ["a"], "deprecated": false, "readOnly": true, "writeOnly": false},
    "fixed": {"const": 3},
    "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "any": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    "all": {"allOf": [{"type": "object"}, {"properties": {"a": {"type": "string"}}}]},
    "neg": {"not": {"type": "null"}},
    "cond": {"if": {"type": "string"}, "then": {"minLength": 1}, "else": {"type": "number"}},
    "map": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "propertyNames": {"maxLength": 10},
            "minProperties": 1, "maxProperties": 3, "dependentRequired": {"a": ["b"]}, "dependentSchemas": {"a": {"required": ["c"]}},
            "unevaluatedProperties": false},
    "ref": {"$ref": "#/$defs/item"},
    "dyn": {"$dynamicRef": "#node"},
    "encoded": {"type": "string", "contentEncoding": "base64", "contentMediaType": "application/json"}
  },
  "$defs": {
    "item": {"$anchor": "item", "type": "object", "properties": {"id": {"type": "string"}}},
    "node": {"$dynamicAnchor": "node", "type": "object"}
  }
}`

// TestTableDialects converts a schema using every keyword to each table
// dialect and checks that it converts, that the result is itself a valid
// JSON Schema, and which keywords are reported lost.
func TestTableDialects(t *testing.T) {
	s, err := schema.Parse([]byte(everyKeyword))
	require.NoError(t, err)
	tests := []struct {
		dialect   dialect.Dialect
		described []string // keywords moved into descriptions, sorted, with duplicates
		strict    bool
	}{
		{dialect.Anthropic, []string{"dependentRequired", "dependentSchemas", "else", "exclusiveMaximum", "exclusiveMinimum",
			"format", "if", "maxContains", "maxItems", "maxLength", "maxProperties", "maximum", "minContains", "minItems",
			"minLength", "minProperties", "minimum", "multipleOf", "not", "patternProperties", "prefixItems", "propertyNames", "then",
			"uniqueItems", "unevaluatedItems", "unevaluatedProperties", "contains"}, true},
		{dialect.Gemini, []string{"allOf", "const", "contains", "dependentRequired", "dependentSchemas", "else", "exclusiveMaximum",
			"exclusiveMinimum", "format", "if", "maxContains", "maxLength", "maxProperties", "minContains", "minLength", "minProperties",
			"multipleOf", "not", "pattern", "patternProperties", "propertyNames", "then", "uniqueItems", "unevaluatedItems", "unevaluatedProperties"}, false},
		{dialect.Ollama, []string{"contains", "dependentRequired", "dependentSchemas", "else", "format", "format", "if", "maxContains",
			"maxProperties", "minContains", "minProperties", "multipleOf", "not", "patternProperties", "propertyNames", "then",
			"uniqueItems", "unevaluatedItems", "unevaluatedProperties"}, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.dialect), func(t *testing.T) {
			conv, err := dialect.Convert(s, tt.dialect)
			require.NoError(t, err)
			assert.Equal(t, tt.dialect, conv.Dialect)
			_, err = schema.Parse(conv.Schema)
			require.NoError(t, err, "the converted schema is a JSON Schema: %s", conv.Schema)
			var described []string
			for _, c := range conv.Changes {
				if c.Kind == dialect.ChangeMovedToDescription {
					assert.True(t, c.Enforced, "%v", c)
					described = append(described, strings.TrimSuffix(c.Detail, " moved into the description"))
				}
			}
			sort.Strings(described)
			want := append([]string(nil), tt.described...)
			sort.Strings(want)
			assert.Equal(t, want, described)
			assert.Equal(t, tt.strict, conv.Strict)
			assert.NotContains(t, string(conv.Schema), `"$comment"`)
			assert.NotContains(t, string(conv.Schema), `"examples"`)
		})
	}
}

func TestTableDialectRewrites(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"b":{"type":"string","minLength":2},"a":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`))
	require.NoError(t, err)

	conv, err := dialect.Convert(s, dialect.Anthropic)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(conv.Schema, &v))
	assert.Equal(t, false, v["additionalProperties"], "objects are closed")
	props := v["properties"].(map[string]any)
	assert.Contains(t, props["a"], "anyOf")
	assert.Equal(t, "(minLength: 2)", props["b"].(map[string]any)["description"])

	conv, err = dialect.Convert(s, dialect.Gemini)
	require.NoError(t, err)
	assert.Contains(t, string(conv.Schema), `"propertyOrdering":["b","a"]`, "the author's order, not sorted")

	conv, err = dialect.Convert(s, dialect.Ollama)
	require.NoError(t, err)
	assert.Contains(t, string(conv.Schema), `"minLength":2`, "Ollama's grammar takes lengths")
	assert.Contains(t, string(conv.Schema), `"oneOf"`)

	// A map has no closed form: not strict, with the reason.
	m, err := schema.Parse([]byte(`{"type":"object","additionalProperties":{"type":"integer"}}`))
	require.NoError(t, err)
	conv, err = dialect.Convert(m, dialect.Anthropic)
	require.NoError(t, err)
	assert.False(t, conv.Strict)
	assert.Equal(t, dialect.ChangeNotStrict, conv.Changes[len(conv.Changes)-1].Kind)

	f, err := schema.Parse([]byte(`false`))
	require.NoError(t, err)
	_, err = dialect.Convert(f, dialect.Gemini)
	assert.ErrorIs(t, err, dialect.ErrUnconvertible)
}

// TestTableDialectsCorpus converts every schema of the real-world sample
// to each table dialect: no error but for the schema false, and every
// result is itself a JSON Schema Parse accepts.
func TestTableDialectsCorpus(t *testing.T) {
	shared.Measuring(t)
	data, err := os.ReadFile(shared.Corpus(t, "schema_tests.sample.jsonl"))
	require.NoError(t, err)
	counts := map[dialect.Dialect]int{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec struct {
			ID     string          `json:"id"`
			Schema json.RawMessage `json:"schema"`
		}
		require.NoError(t, json.Unmarshal(line, &rec))
		s, err := schema.Parse(rec.Schema)
		if err != nil {
			continue
		}
		for _, d := range []dialect.Dialect{dialect.Anthropic, dialect.Gemini, dialect.Ollama} {
			conv, err := dialect.Convert(s, d)
			if err != nil {
				assert.ErrorIs(t, err, dialect.ErrUnconvertible, "%s %s", rec.ID, d)
				continue
			}
			_, err = schema.Parse(conv.Schema)
			if assert.NoError(t, err, "%s %s: %s", rec.ID, d, conv.Schema) {
				counts[d]++
			}
		}
	}
	t.Logf("schemas converted and parsed again: %v", counts)
}
