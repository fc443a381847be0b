package schema_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

// allEntryPoints returns the violations of doc from Validate, ValidateJSON,
// Decode and DecodeString, requiring them to agree.
func allEntryPoints(t *testing.T, s *schema.Schema, doc string, v any) []schema.Violation {
	t.Helper()
	got := s.Validate(v)
	vj, err := s.ValidateJSON([]byte(doc))
	require.NoError(t, err)
	assert.Equal(t, got, vj, "ValidateJSON %s", doc)
	_, vd, err := s.Decode([]byte(doc))
	require.NoError(t, err)
	assert.Equal(t, got, vd, "Decode %s", doc)
	_, vds, err := s.DecodeString(doc)
	require.NoError(t, err)
	assert.Equal(t, got, vds, "DecodeString %s", doc)
	return got
}

// TestRefBesideFormat holds the diagnostic pass to "format" beside a $ref
// under 2020-12 with ParseOptions.AssertFormat: the schema is not a $ref
// alone, so its own format is asserted as well as its target's keywords
// (as 0593199 does, and as draft-07 ignores it).
func TestRefBesideFormat(t *testing.T) {
	email := func(at, pointer, schemaPath string) schema.Violation {
		return schema.Violation{Path: at, Pointer: pointer, Keyword: "format", SchemaPath: schemaPath,
			Message: "'not-an-email' is not an email address such as name@example.com (format 'email')"}
	}
	for _, tc := range []struct {
		doc, inst string
		v         any
		want      []schema.Violation
	}{
		{`{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","format":"email"}`, `"not-an-email"`, "not-an-email",
			[]schema.Violation{email("$", "", "/format")}},
		{`{"$defs":{"s":{"type":"string"}},"properties":{"e":{"$ref":"#/$defs/s","format":"email"}}}`,
			`{"e":"not-an-email"}`, map[string]any{"e": "not-an-email"},
			[]schema.Violation{email("$.e", "/e", "/properties/e/format")}},
		{`{"$defs":{"s":{"type":"string"}},"items":{"$ref":"#/$defs/s","format":"email"}}`,
			`["a@example.com","not-an-email"]`, []any{"a@example.com", "not-an-email"},
			[]schema.Violation{email("$[1]", "/1", "/items/format")}},
	} {
		s, err := schema.ParseWith([]byte(tc.doc), &schema.ParseOptions{AssertFormat: true})
		require.NoError(t, err, tc.doc)
		assert.Equal(t, tc.want, allEntryPoints(t, s, tc.inst, tc.v), tc.doc)
	}
}

// refChain is a document whose root is a $ref to the first of n
// definitions, each a $ref alone to the next, the last an array (or
// string) of items that start the chain again.
func refChain(n int, draft string) string {
	var b strings.Builder
	b.WriteString(`{"$schema":"` + draft + `","$defs":{`)
	for i := range n {
		fmt.Fprintf(&b, `"d%d":{"$ref":"#/$defs/d%d"},`, i, i+1)
	}
	fmt.Fprintf(&b, `"d%d":{"type":["array","string"],"items":{"$ref":"#/$defs/d0"}}},"$ref":"#/$defs/d0"}`, n)
	return b.String()
}

// TestRefOnlyTooDeep holds the violation the diagnostic pass reports when
// applications nest past their bound inside a chain of $ref-only
// subschemas to the one 0593199 reports: it names the $ref's target, the
// subschema that could not be applied, under 2020-12 as under draft-07.
func TestRefOnlyTooDeep(t *testing.T) {
	opts := &schema.ParseOptions{MaxDepth: 1}
	s07, err := schema.ParseWith([]byte(refChain(4100, "http://json-schema.org/draft-07/schema#")), opts)
	require.NoError(t, err)
	s20, err := schema.ParseWith([]byte(refChain(4100, "https://json-schema.org/draft/2020-12/schema")), opts)
	require.NoError(t, err)
	want := []schema.Violation{{Path: "$[0]", Pointer: "/0", SchemaPath: "/$defs/d4001",
		Message: "the value or the schema nests too deeply to check further"}}
	assert.Equal(t, want, allEntryPoints(t, s07, `[1]`, []any{1.0}), "draft-07")
	assert.Equal(t, want, allEntryPoints(t, s20, `[1]`, []any{1.0}), "2020-12")
}
