package schema

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPartOf holds partOf, which reads a map's identity without reflect,
// to reflect's reading of it, and to what a part must tell apart: two
// maps, or two slices, with equal contents are different parts; a map is
// the same part however often it is asked of; scalars and empty arrays
// and objects have none.
func TestPartOf(t *testing.T) {
	for n := range 20 {
		a, b := map[string]any{}, map[string]any{}
		for i := range n {
			a[string(rune('a'+i))] = i
			b[string(rune('a'+i))] = i
		}
		pa, ok := partOf(a)
		if n == 0 {
			require.False(t, ok, "an empty map is checked again, not kept")
			_, ok = partOf([]any{})
			require.False(t, ok, "an empty slice too")
			continue
		}
		require.True(t, ok)
		assert.Equal(t, part{reflect.ValueOf(a).Pointer(), n}, pa)
		again, _ := partOf(any(a))
		assert.Equal(t, pa, again)
		pb, _ := partOf(b)
		assert.NotEqual(t, pa, pb, "equal maps, different parts")
		s1, s2 := make([]any, n+1), make([]any, n+1)
		p1, ok := partOf(s1)
		require.True(t, ok)
		p2, _ := partOf(s2)
		assert.NotEqual(t, p1, p2, "equal slices, different parts")
		assert.Equal(t, n+1, p1.len)
	}
	for _, v := range []any{nil, "s", 1.0, true} {
		_, ok := partOf(v)
		assert.False(t, ok, "%v", v)
	}
}

// TestNilMapAndNilSliceAreDifferentParts: a nil map and a nil []any are
// both at address 0, and were one part to the fast path's memo, keyed by
// node and part, which handed the verdict of the first to the second:
// under anyOf [object, string], [nil map, nil slice] passed.
func TestNilMapAndNilSliceAreDifferentParts(t *testing.T) {
	pm, okm := partOf(map[string]any(nil))
	ps, oks := partOf([]any(nil))
	if okm && oks {
		assert.NotEqual(t, pm, ps, "a nil map and a nil slice are one part")
	}

	s, err := Parse([]byte(`{"type":"array","items":{"anyOf":[{"type":"object"},{"type":"string"}]}}`))
	require.NoError(t, err)
	require.NotEmpty(t, s.Validate([]any{[]any(nil)}), "a nil slice is an array")
	vs := s.Validate([]any{map[string]any(nil), []any(nil)})
	if assert.Len(t, vs, 1, "the nil slice at $[1] is no object or string") {
		assert.Equal(t, "$[1]", vs[0].Path)
	}
}
