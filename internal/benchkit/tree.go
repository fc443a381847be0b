package benchkit

import (
	"fmt"
	"strings"
)

// TreeSchema is the schema the tree of [TreeJSON] fills: a node has a name and a kind, "dir"
// or "file", and may have children, which are nodes.
const TreeSchema = `{"$ref":"#/$defs/node","$defs":{"node":{"type":"object","required":["name","kind"],"properties":{
	"name":{"type":"string","minLength":1},
	"kind":{"enum":["dir","file"]},
	"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`

// TreeJSON returns a full binary tree of the given depth (2^(depth+1)-1
// nodes): inner nodes are dirs, leaves files, and when badEvery > 0 every
// badEvery-th node in document order has the kind "link", which TreeSchema
// does not allow.
func TreeJSON(depth, badEvery int) string {
	var b strings.Builder
	count := 0
	var node func(depth int)
	node = func(depth int) {
		kind := "dir"
		if depth == 0 {
			kind = "file"
		}
		if badEvery > 0 && count%badEvery == 0 {
			kind = "link"
		}
		fmt.Fprintf(&b, `{"name":"n%d","kind":%q`, count, kind)
		count++
		if depth > 0 {
			b.WriteString(`,"children":[`)
			node(depth - 1)
			b.WriteByte(',')
			node(depth - 1)
			b.WriteByte(']')
		}
		b.WriteByte('}')
	}
	node(depth)
	return b.String()
}
