package schematree_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/internal/schematree"
)

func TestShapes(t *testing.T) {
	kws := schematree.Keywords()
	assert.True(t, slices.IsSorted(kws))
	for _, k := range kws {
		assert.NotZero(t, schematree.ShapeOf(k), k)
	}
	for _, k := range []string{"type", "enum", "required", "minimum", "$ref", "description"} {
		assert.Zero(t, schematree.ShapeOf(k), k)
	}
	assert.Equal(t, schematree.Items, schematree.ShapeOf("items"))
	assert.Equal(t, schematree.Dependencies, schematree.ShapeOf("dependencies"))
	assert.True(t, schematree.IsAnnotation("title"))
	assert.False(t, schematree.IsAnnotation("type"))
	assert.True(t, slices.IsSorted(schematree.Annotations()))
}

const doc = `{
	"properties": {"a": {"type": "string"}, "b": {"items": [{"type": "integer"}, true]}},
	"items": {"type": "null"},
	"allOf": [{"required": ["a"]}],
	"dependencies": {"a": ["b"], "b": {"properties": {"c": false}}},
	"enum": [{"properties": {"not": "a schema"}}]
}`

func TestWalk(t *testing.T) {
	root, err := jsontree.Decode([]byte(doc), schematree.MaxDepth)
	require.NoError(t, err)
	var paths []string
	schematree.Walk(root, nil, func(n *jsontree.Node, at *jsonpath.Chain) {
		paths = append(paths, at.String())
	})
	assert.Equal(t, []string{
		"$",
		"$.properties.a", "$.properties.b", "$.properties.b.items[0]", "$.properties.b.items[1]",
		"$.items",
		"$.allOf[0]",
		"$.dependencies.b", "$.dependencies.b.properties.c",
	}, paths, "a dependency list and an enum value are not schemas")

	// Rewrite replaces the direct subschemas only.
	schematree.Rewrite(root, func(child *jsontree.Node, steps ...jsonpath.Step) *jsontree.Node {
		return &jsontree.Node{Kind: jsontree.Bool, Bool: true}
	})
	assert.Equal(t, `{"properties":{"a":true,"b":true},"items":true,"allOf":[true],"dependencies":{"a":["b"],"b":true},"enum":[{"properties":{"not":"a schema"}}]}`,
		string(root.AppendJSON(nil)))
}

// TestVisit visits what Walk walks, in the same order.
func TestVisit(t *testing.T) {
	root, err := jsontree.Decode([]byte(doc), schematree.MaxDepth)
	require.NoError(t, err)
	var walked, visited []*jsontree.Node
	schematree.Walk(root, nil, func(n *jsontree.Node, _ *jsonpath.Chain) { walked = append(walked, n) })
	schematree.Visit(root, func(n *jsontree.Node) { visited = append(visited, n) })
	assert.Equal(t, walked, visited)
	assert.Len(t, visited, 9)
}
