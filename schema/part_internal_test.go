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
// the same part however often it is asked of; scalars have none.
func TestPartOf(t *testing.T) {
	for n := range 20 {
		a, b := map[string]any{}, map[string]any{}
		for i := range n {
			a[string(rune('a'+i))] = i
			b[string(rune('a'+i))] = i
		}
		pa, ok := partOf(a)
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
