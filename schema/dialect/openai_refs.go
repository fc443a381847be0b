package dialect

import (
	"strings"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/internal/schematree"
)

// rewriteRefs replaces, in place, every $ref in n and below by
// mapRef(ref).
func rewriteRefs(n *jsontree.Node, mapRef func(string) string) {
	schematree.Visit(n, func(s *jsontree.Node) {
		if ref, ok := s.StringMember("$ref"); ok {
			s.Set("$ref", &jsontree.Node{Kind: jsontree.String, Text: mapRef(ref)})
		}
	})
}

// renameDefinitions moves the root's draft-07 definitions into $defs, the
// form OpenAI documents, and rewrites the references to them.
func (c *openaiConverter) renameDefinitions() {
	defs := c.root.ObjectMember("definitions")
	if defs == nil {
		return
	}
	target := c.root.ObjectMember("$defs")
	if target == nil {
		target = &jsontree.Node{Kind: jsontree.Object}
	} else {
		target = target.Clone()
	}
	for i, name := range defs.Keys {
		if target.Has(name) {
			c.block((*jsonpath.Chain)(nil).Key("definitions"), "definition %q exists in both definitions and $defs", name)
			return
		}
		target.Set(name, defs.Values[i])
	}
	c.root.Del("definitions")
	c.root.Set("$defs", target)
	rewriteRefs(c.root, func(ref string) string {
		if strings.HasPrefix(ref, "#/definitions/") {
			return "#/$defs/" + ref[len("#/definitions/"):]
		}
		return ref
	})
	c.change(nil, ChangeRenamedDefinitions, "definitions moved to $defs")
}

// pruneDefinitions drops the root's $defs that no reference reaches, so
// that an unused definition cannot make the schema non-strict.
func (c *openaiConverter) pruneDefinitions() {
	defs := c.root.ObjectMember("$defs")
	if defs == nil {
		return
	}
	used := map[string]bool{}
	var queue []*jsontree.Node
	collect := func(s *jsontree.Node) {
		ref, ok := s.StringMember("$ref")
		if !ok || !strings.HasPrefix(ref, "#/$defs/") {
			return
		}
		name := jsontree.UnescapeRefToken(strings.SplitN(ref[len("#/$defs/"):], "/", 2)[0])
		if used[name] {
			return
		}
		used[name] = true
		if d := defs.ObjectMember(name); d != nil {
			queue = append(queue, d)
		}
	}
	top := c.root.Clone()
	top.Del("$defs")
	schematree.Visit(top, func(n *jsontree.Node) { collect(n) })
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		schematree.Visit(d, func(n *jsontree.Node) { collect(n) })
	}
	kept := &jsontree.Node{Kind: jsontree.Object}
	for i, name := range defs.Keys {
		if used[name] {
			kept.Keys = append(kept.Keys, name)
			kept.Values = append(kept.Values, defs.Values[i])
			continue
		}
		c.change((*jsonpath.Chain)(nil).Key("$defs").Key(name), ChangeDropped, "definition %q dropped: no $ref uses it", name)
	}
	if len(kept.Keys) == 0 {
		c.root.Del("$defs")
		return
	}
	c.root.Set("$defs", kept)
}

// inlineRef replaces a $ref that has sibling keywords by the schema it
// points to, the siblings winning; OpenAI wants a $ref alone.
func (c *openaiConverter) inlineRef(n *jsontree.Node, path *jsonpath.Chain, inlined *[]string) *jsontree.Node {
	for n.Has("$ref") && len(n.Keys) > 1 {
		ref, ok := n.StringMember("$ref")
		if !ok {
			c.block(path, "$ref is not a string")
			return n
		}
		if c.active[ref] || c.inlines >= openaiMaxInlines {
			if onlyAnnotations(n) {
				for _, k := range append([]string(nil), n.Keys...) {
					if k != "$ref" {
						n.Del(k)
						c.change(path, ChangeDropped, "%s beside the recursive $ref %q dropped", k, ref)
					}
				}
				return n
			}
			c.block(path, "$ref %q with sibling keywords is recursive and cannot be inlined", ref)
			return n
		}
		target := c.root.ResolveRef(ref)
		if target == nil || target.Kind != jsontree.Object {
			c.block(path, "$ref %q does not point to a schema object in this document", ref)
			return n
		}
		merged := target.Clone()
		for _, k := range []string{"$defs", "definitions", "$schema", "$id"} {
			merged.Del(k)
		}
		for i, k := range n.Keys {
			if k != "$ref" {
				merged.Set(k, n.Values[i])
			}
		}
		c.active[ref] = true
		*inlined = append(*inlined, ref)
		c.inlines++
		c.change(path, ChangeInlinedRef, "$ref %q with sibling keywords replaced by the schema it points to", ref)
		n = merged
	}
	if ref, ok := n.StringMember("$ref"); ok {
		if c.root.ResolveRef(ref) == nil {
			c.block(path, "$ref %q does not point into this document", ref)
		}
	}
	return n
}

// deref returns the schema object v is, or the one its chain of bare
// $refs (a $ref alone in its object) points to in the document root; nil
// when v is not an object, the chain leads nowhere, or it is longer than
// openaiMaxRefHops. The converter calls it on the source document, the
// restorer on the strict one, where no $ref has siblings.
func deref(root, v *jsontree.Node) *jsontree.Node {
	o := objectOrNil(v)
	for hops := 0; o != nil; hops++ {
		ref, ok := o.StringMember("$ref")
		if !ok || len(o.Keys) > 1 {
			return o
		}
		if hops == openaiMaxRefHops {
			return nil
		}
		o = objectOrNil(root.ResolveRef(ref))
	}
	return nil
}
