package schema_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

// Review of #38. ValidateJSON's doc (schema.go:319) and the package doc
// (doc.go:26) say a valid document allocates nothing "but for the keywords
// that compare whole values" (enum/const of an array or object,
// uniqueItems beyond 16 plain items). A valid document whose string has an
// escape, under any string keyword, allocates (json.Unmarshal in
// byteRun.str); one whose key has an escape is left undecided and decoded
// in full. Neither is among the exceptions the docs name.
func TestReviewValidateJSONAllocatesOnEscapes(t *testing.T) {
	for _, c := range []struct{ name, sch, doc string }{
		{"escaped string under minLength", `{"properties":{"s":{"type":"string","minLength":1}}}`, `{"s":"caf\u00e9"}`},
		{"escaped string under pattern", `{"properties":{"s":{"type":"string","pattern":"^[a-z\u00e9]+$"}}}`, `{"s":"caf\u00e9"}`},
		{"escaped key", `{"type":"object"}`, `{"caf\u00e9":1}`},
	} {
		s, err := schema.Parse([]byte(c.sch))
		assert.NoError(t, err)
		doc := []byte(c.doc)
		vs, err := s.ValidateJSON(doc)
		assert.NoError(t, err)
		assert.Empty(t, vs, "%s: the document is valid", c.name)
		allocs := testing.AllocsPerRun(100, func() { _, _ = s.ValidateJSON(doc) })
		t.Logf("%s: %s on %s: %.0f allocations, bytes verdict %s", c.name, c.sch, c.doc, allocs, schema.FastBytesVerdict(s, doc))
		assert.Zero(t, allocs, "%s: ValidateJSON of a valid document allocates, no keyword comparing whole values involved", c.name)
	}
}

// Review of #38: nesting under anyOf through $ref, with MaxDepth raised to
// the document's nesting, is said to be linear (compiled.maxApplications).
// With a schema that takes 12 applications per level (allOf wrappers
// around the $ref and the anyOf), an invalid document 800 deep is judged
// in well under a second, but 1600 deep (past maxDiagnoseDepth +
// applicationsPerLevel*MaxDepth applications, where the fast path turns
// undecided and Validate falls back to jsonschema-go) takes about a minute:
// doubling the depth multiplied the time by 566 in the run reported. Timed
// beside it, jsonschema-go alone takes 11 s at 800 and 61 s at 1600: the
// bound of 8 applications per level hands any schema that needs more per
// level to the superlinear authority. Takes ~2 minutes.
func TestReviewDeepAnyOfPastApplicationBound(t *testing.T) {
	sch := `{"$ref":"#/$defs/n","$defs":{"n":{"allOf":[{"allOf":[{"allOf":[{"$ref":"#/$defs/m"}]}]}]},"m":{"anyOf":[{"type":"integer"},{"allOf":[{"allOf":[{"type":"object","required":["a"],"properties":{"a":{"allOf":[{"allOf":[{"$ref":"#/$defs/n"}]}]}}}]}]}]}}}`
	var js jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(sch), &js))
	resolved, err := js.Resolve(nil)
	require.NoError(t, err)
	times := map[int]time.Duration{}
	for _, n := range []int{800, 1600} {
		s, err := schema.ParseWith([]byte(sch), &schema.ParseOptions{MaxDepth: n + 8})
		require.NoError(t, err)
		doc := strings.Repeat(`{"a":`, n) + `"x"` + strings.Repeat("}", n)
		var v any
		require.NoError(t, json.Unmarshal([]byte(doc), &v))
		start := time.Now()
		authErr := resolved.Validate(v)
		authority := time.Since(start)
		start = time.Now()
		vs := s.Validate(v)
		times[n] = time.Since(start)
		t.Logf("depth %d: Validate %v (%d violations, fast verdict %s); jsonschema-go alone %v (invalid: %v)", n, times[n], len(vs), schema.FastVerdict(s, v), authority, authErr != nil)
	}
	assert.Less(t, float64(times[1600]), 8*float64(times[800]), "doubling the nesting grew Validate's time %.0fx", float64(times[1600])/float64(times[800]))
}
