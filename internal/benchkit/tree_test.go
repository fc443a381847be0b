package benchkit_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/benchkit"
)

// TestTreeJSON checks the tree's shape: its node count, that it is JSON, and
// how many nodes are of the bad kind.
func TestTreeJSON(t *testing.T) {
	for _, tc := range []struct{ depth, badEvery, nodes, bad int }{
		{0, 0, 1, 0},
		{2, 0, 7, 0},
		{2, 3, 7, 3},
		{11, 25, 4095, 164},
	} {
		text := benchkit.TreeJSON(tc.depth, tc.badEvery)
		require.True(t, json.Valid([]byte(text)), "depth %d", tc.depth)
		assert.Equal(t, tc.nodes, strings.Count(text, `"name":`), "depth %d", tc.depth)
		assert.Equal(t, tc.bad, strings.Count(text, `"link"`), "depth %d every %d", tc.depth, tc.badEvery)
	}
	var v any
	require.NoError(t, json.Unmarshal([]byte(benchkit.TreeJSON(1, 0)), &v))
	assert.Equal(t, map[string]any{"name": "n0", "kind": "dir", "children": []any{
		map[string]any{"name": "n1", "kind": "file"}, map[string]any{"name": "n2", "kind": "file"}}}, v)
	require.True(t, json.Valid([]byte(benchkit.TreeSchema)))
}
