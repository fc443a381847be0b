package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/shared"
	"github.com/agentio/agentio/schema"
)

// TestValidAllocatesNothing holds the claim of Validate's and
// ValidateJSON's docs: a valid value costs no allocation, with the
// keywords that keep state (anyOf and oneOf keep verdicts per part of the
// value, in scratch space kept between calls), $ref, uniqueItems over a
// short array, patterns and enums.
func TestValidAllocatesNothing(t *testing.T) {
	if shared.Race {
		t.Skip("the race detector makes sync.Pool drop what it keeps")
	}
	cases := []struct {
		name, schema, doc string
		// decodes: ValidateJSON decodes part or all of the document, as
		// its doc says: a string with escapes under a string keyword, an
		// array or object a keyword compares whole, a key with escapes.
		decodes bool
	}{
		{"object", `{"type":"object","required":["a","b"],"additionalProperties":false,"properties":{"a":{"type":"integer","minimum":0},"b":{"type":"string","maxLength":5}}}`,
			`{"a":3,"b":"xy"}`, false},
		{"anyOf over objects", `{"type":"array","items":{"anyOf":[{"type":"object","required":["x"]},{"type":"object","required":["y"]}]}}`,
			`[{"y":1},{"x":2},{"y":3}]`, false},
		{"oneOf over arrays", `{"oneOf":[{"type":"array","maxItems":1},{"type":"array","minItems":3}]}`,
			`[1,2,3]`, false},
		{"$ref, recursive", `{"$ref":"#/$defs/n","$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"},"v":{"type":"number"}}}}}`,
			`{"v":1,"next":{"v":2,"next":{"v":3}}}`, false},
		{"$ref beside keywords", `{"$defs":{"base":{"type":"object"}},"type":"array","items":{"$ref":"#/$defs/base","required":["id"]}}`,
			`[{"id":1},{"id":2}]`, false},
		{"uniqueItems, strings", `{"type":"array","uniqueItems":true}`, `["a","b","c","d"]`, false},
		{"uniqueItems, numbers", `{"type":"array","uniqueItems":true}`, `[1,2,3,-0.5]`, false},
		{"uniqueItems, objects", `{"type":"array","uniqueItems":true}`, `[{"a":1},{"a":2},[1],[2]]`, true},
		{"const of an object", `{"const":{"a":[1,2]}}`, `{"a":[1,2]}`, true},
		{"a string with escapes under a pattern", `{"properties":{"s":{"type":"string","pattern":"^[a-z\u00e9]+$"}}}`, `{"s":"caf\u00e9"}`, true},
		{"a key with escapes", `{"type":"object"}`, `{"caf\u00e9":1}`, true},
		{"pattern and enum", `{"type":"object","properties":{"id":{"pattern":"^[A-Z]{3}-[0-9]+$"},"s":{"enum":["open","closed"]}}}`,
			`{"id":"ABC-12","s":"closed"}`, false},
		{"allOf, not, if", `{"allOf":[{"type":"object"},{"not":{"required":["z"]}}],"if":{"required":["a"]},"then":{"required":["b"]}}`,
			`{"a":1,"b":2}`, false},
		{"dependentRequired, propertyNames", `{"type":"object","dependentRequired":{"a":["b"]},"propertyNames":{"maxLength":3}}`,
			`{"a":1,"b":2}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tc.schema))
			require.NoError(t, err)
			var v any
			require.NoError(t, json.Unmarshal([]byte(tc.doc), &v))
			require.Empty(t, s.Validate(v))
			doc := []byte(tc.doc)
			assert.Zero(t, testing.AllocsPerRun(100, func() { s.Validate(v) }), "Validate")
			if allocs := testing.AllocsPerRun(100, func() { _, _ = s.ValidateJSON(doc) }); tc.decodes {
				assert.NotZero(t, allocs, "ValidateJSON decodes what it compares whole")
			} else {
				assert.Zero(t, allocs, "ValidateJSON")
			}
		})
	}
}

// TestDecodeEnumStringsAllocateNothing holds Decode's doc: a string its
// subschema's enum allows costs no allocation, so rows of such strings
// cost what their objects do, where a string no enum names is one
// allocation more.
func TestDecodeEnumStringsAllocateNothing(t *testing.T) {
	if shared.Race {
		t.Skip("the race detector adds allocations of its own")
	}
	s, err := schema.Parse([]byte(`{"type":"array","items":{"type":"object","properties":{"kind":{"enum":["dir","file",3]},"name":{"type":"string"}}}}`))
	require.NoError(t, err)
	rows := func(n int, member string) []byte {
		b := []byte("[")
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"`+member+`":"file"}`...)
		}
		return append(b, ']')
	}
	allocs := func(doc []byte) float64 {
		_, vs, err := s.Decode(doc)
		require.NoError(t, err)
		require.Empty(t, vs)
		return testing.AllocsPerRun(20, func() { _, _, _ = s.Decode(doc) })
	}
	perRow := func(member string) float64 { return (allocs(rows(400, member)) - allocs(rows(200, member))) / 200 }
	// An object costs its map: two allocations.
	assert.InDelta(t, 2, perRow("kind"), 0.05, "a string the enum allows")
	assert.InDelta(t, 3, perRow("name"), 0.05, "a string no enum names is boxed")
}
