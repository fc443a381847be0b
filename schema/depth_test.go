package schema_test

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

// treeSchema describes a value that nests to any depth: the recursive shape
// under which jsonschema-go's cost on invalid values explodes with depth.
const treeSchema = `{"$defs": {"n": {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#/$defs/n"}}]}}, "$ref": "#/$defs/n"}`

func nest(leaf any, depth int) any {
	v := leaf
	for range depth {
		v = []any{v}
	}
	return v
}

func TestValidateDepthLimit(t *testing.T) {
	s, err := schema.Parse([]byte(treeSchema))
	require.NoError(t, err)

	assert.Empty(t, s.Validate(nest(1.0, schema.DefaultMaxDepth)), "the limit itself is allowed")
	assert.NotEmpty(t, s.Validate(nest("x", schema.DefaultMaxDepth)), "an invalid value within the limit is diagnosed as usual")

	vs := s.Validate(nest(1.0, schema.DefaultMaxDepth+1))
	require.Len(t, vs, 1)
	assert.Equal(t, "maxDepth", vs[0].Keyword)
	assert.Equal(t, "the value nests more than 128 levels deep; flatten it", vs[0].Message)
	assert.Len(t, vs[0].Pointer, 2*schema.DefaultMaxDepth, "it points at the first container beyond the limit")

	// A hostile depth is refused at once, valid or not.
	for _, leaf := range []any{1.0, "x"} {
		vs := s.Validate(nest(leaf, 5000))
		require.Len(t, vs, 1)
		assert.Equal(t, "maxDepth", vs[0].Keyword)
	}
}

func TestValidateDepthLimitPath(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "object"}`))
	require.NoError(t, err)
	// Keys are walked in sorted order, so the place reported is stable.
	v := map[string]any{"b": nest(1.0, 10), "a": map[string]any{"x": nest(1.0, 10)}}
	s2, err := schema.ParseWith([]byte(`{"type": "object"}`), &schema.ParseOptions{MaxDepth: 5})
	require.NoError(t, err)
	vs := s2.Validate(v)
	require.Len(t, vs, 1)
	assert.Equal(t, "$.a.x[0][0][0]", vs[0].Path, "the sixth container: the root is the first level")
	assert.Equal(t, "/a/x/0/0/0", vs[0].Pointer)
	assert.Empty(t, s.Validate(v), "the default limit allows it")
}

func TestParseWithNegativeMaxDepth(t *testing.T) {
	_, err := schema.ParseWith([]byte(`{}`), &schema.ParseOptions{MaxDepth: -1})
	assert.True(t, errors.Is(err, schema.ErrInvalidOption), "got %v", err)
}

// BenchmarkValidateDeepInvalid is the worst case the depth limit bounds: an
// invalid value at the limit under a recursive schema.
func BenchmarkValidateDeepInvalid(b *testing.B) {
	s, err := schema.Parse([]byte(treeSchema))
	if err != nil {
		b.Fatal(err)
	}
	v := nest("x", schema.DefaultMaxDepth)
	b.ReportAllocs()
	for range b.N {
		s.Validate(v)
	}
}

// A MaxDepth far beyond any stack still checks what nests within reach:
// the nesting of subschema applications is bounded, never negative.
func TestParseWithHugeMaxDepth(t *testing.T) {
	for _, depth := range []int{math.MaxInt, math.MaxInt/8 + 1, 1 << 40} {
		hugeMaxDepth(t, depth)
	}
}

func hugeMaxDepth(t *testing.T, depth int) {
	s, err := schema.ParseWith([]byte(`{"type":"object","properties":{"a":{"type":"integer"}}}`), &schema.ParseOptions{MaxDepth: depth})
	require.NoError(t, err)
	assert.Empty(t, s.Validate(map[string]any{"a": 1.0}))
	vs := s.Validate(map[string]any{"a": "x"})
	require.Len(t, vs, 1)
	assert.Equal(t, "type", vs[0].Keyword)
	vs, err = s.ValidateJSON([]byte(`{"a":"x"}`))
	require.NoError(t, err)
	require.Len(t, vs, 1)
	assert.Equal(t, "type", vs[0].Keyword)
	assert.Equal(t, "invalid", schema.FastBytesVerdict(s, []byte(`{"a":"x"}`)))
}

// A schema that takes a dozen applications at each level of the value
// (allOf around a $ref and an anyOf) is decided by the fast path however
// deeply the value nests within MaxDepth: the bound on applications grows
// with the schema's size, not by a fixed number per level.
func TestDeepApplicationChains(t *testing.T) {
	sch := `{"$ref":"#/$defs/n","$defs":{"n":{"allOf":[{"allOf":[{"allOf":[{"$ref":"#/$defs/m"}]}]}]},"m":{"anyOf":[{"type":"integer"},{"allOf":[{"allOf":[{"type":"object","required":["a"],"properties":{"a":{"allOf":[{"allOf":[{"$ref":"#/$defs/n"}]}]}}}]}]}]}}}`
	for _, n := range []int{800, 1600, 3200} {
		s, err := schema.ParseWith([]byte(sch), &schema.ParseOptions{MaxDepth: n + 8})
		require.NoError(t, err)
		bad := strings.Repeat(`{"a":`, n) + `"x"` + strings.Repeat("}", n)
		good := strings.Repeat(`{"a":`, n) + `1` + strings.Repeat("}", n)
		var v any
		require.NoError(t, json.Unmarshal([]byte(bad), &v))
		assert.Equal(t, "invalid", schema.FastVerdict(s, v), "depth %d", n)
		assert.Equal(t, "invalid", schema.FastBytesVerdict(s, []byte(bad)), "depth %d", n)
		assert.Equal(t, "valid", schema.FastBytesVerdict(s, []byte(good)), "depth %d", n)
		vs := s.Validate(v)
		require.NotEmpty(t, vs, "depth %d", n)
	}
}
