package schematree

import (
	"slices"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
)

// MaxDepth is the deepest nesting of JSON arrays and objects a schema
// document may have.
const MaxDepth = 256

// A Shape says what value a keyword holding subschemas takes.
type Shape uint8

// The shapes; the zero Shape is a keyword that holds no subschemas.
const (
	Schema       Shape = iota + 1 // one schema
	List                          // an array of schemas
	Map                           // an object whose values are schemas
	Items                         // a schema, or (draft-07) an array of schemas
	Dependencies                  // an object of schemas or string arrays
)

// keywords are the keywords holding subschemas, sorted.
var keywords = []string{
	"$defs", "additionalItems", "additionalProperties", "allOf", "anyOf", "contains", "contentSchema",
	"definitions", "dependencies", "dependentSchemas", "else", "if", "items", "not", "oneOf",
	"patternProperties", "prefixItems", "properties", "propertyNames", "then", "unevaluatedItems",
	"unevaluatedProperties",
}

// Keywords returns the keywords whose values hold subschemas, sorted. The
// caller may modify the slice.
func Keywords() []string { return slices.Clone(keywords) }

// ShapeOf returns the shape of keyword k's value, or 0 when k holds no
// subschemas.
func ShapeOf(k string) Shape {
	switch k {
	case "additionalProperties", "propertyNames", "unevaluatedProperties", "not", "if", "then", "else",
		"contains", "additionalItems", "unevaluatedItems", "contentSchema":
		return Schema
	case "allOf", "anyOf", "oneOf", "prefixItems":
		return List
	case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
		return Map
	case "items":
		return Items
	case "dependencies":
		return Dependencies
	}
	return 0
}

// A position is where a subschema sits under its parent: the keyword and,
// in a list or a map, the element.
type position struct {
	key    string
	elem   jsonpath.Step
	nested bool // elem is set
}

// steps returns p as the steps from the parent.
func (p position) steps() []jsonpath.Step {
	if p.nested {
		return []jsonpath.Step{jsonpath.Key(p.key), p.elem}
	}
	return []jsonpath.Step{jsonpath.Key(p.key)}
}

// chain returns at extended by p.
func (p position) chain(at *jsonpath.Chain) *jsonpath.Chain {
	at = at.Key(p.key)
	switch {
	case !p.nested:
	case p.elem.Kind == jsonpath.KindIndex:
		at = at.Index(p.elem.Index)
	default:
		at = at.Key(p.elem.Key)
	}
	return at
}

// each is the one loop over the subschemas directly under the schema n, in
// document order: it replaces each with what fn returns. Values in schema
// positions that are not objects are passed to fn too (a boolean schema,
// or a mistake the caller reports); a dependencies entry that is a list of
// names is not a schema.
func each(n *jsontree.Node, fn func(child *jsontree.Node, at position) *jsontree.Node) {
	if n == nil || n.Kind != jsontree.Object {
		return
	}
	for i, k := range n.Keys {
		v := n.Values[i]
		switch shape := ShapeOf(k); shape {
		case Schema:
			n.Values[i] = fn(v, position{key: k})
		case List, Items:
			switch {
			case v.Kind == jsontree.Array:
				for j, e := range v.Items {
					v.Items[j] = fn(e, position{key: k, elem: jsonpath.Index(j), nested: true})
				}
			case shape == Items:
				n.Values[i] = fn(v, position{key: k})
			}
		case Map, Dependencies:
			if v.Kind != jsontree.Object {
				continue
			}
			for j, e := range v.Values {
				if shape == Dependencies && e.Kind == jsontree.Array {
					continue
				}
				v.Values[j] = fn(e, position{key: k, elem: jsonpath.Key(v.Keys[j]), nested: true})
			}
		}
	}
}

// Children calls fn with each subschema directly under the schema n, in
// document order, and the steps from n to it: the keyword, then the index
// in a list or the name in a map. Values in schema positions that are not
// objects are passed to fn too (a boolean schema, or a mistake the caller
// reports); a dependencies entry that is a list of names is not a schema.
func Children(n *jsontree.Node, fn func(child *jsontree.Node, steps ...jsonpath.Step)) {
	each(n, func(child *jsontree.Node, at position) *jsontree.Node {
		fn(child, at.steps()...)
		return child
	})
}

// Rewrite replaces each subschema directly under the schema n with what fn
// returns for it, in document order; fn gets the steps from n as
// [Children] gives them. n is modified in place.
func Rewrite(n *jsontree.Node, fn func(child *jsontree.Node, steps ...jsonpath.Step) *jsontree.Node) {
	each(n, func(child *jsontree.Node, at position) *jsontree.Node {
		return fn(child, at.steps()...)
	})
}

// Walk calls fn on the schema n, at the location at, and on every
// subschema under it, in document order, with its location. Values in
// schema positions that are not objects are passed to fn but not descended
// into.
func Walk(n *jsontree.Node, at *jsonpath.Chain, fn func(n *jsontree.Node, at *jsonpath.Chain)) {
	fn(n, at)
	each(n, func(child *jsontree.Node, p position) *jsontree.Node {
		Walk(child, p.chain(at), fn)
		return child
	})
}

// Visit is [Walk] for a caller that needs no locations: it calls fn on n
// and every subschema under it, in document order, and builds no path.
func Visit(n *jsontree.Node, fn func(n *jsontree.Node)) {
	fn(n)
	each(n, func(child *jsontree.Node, _ position) *jsontree.Node {
		Visit(child, fn)
		return child
	})
}

// Extend returns c extended by steps.
func Extend(c *jsonpath.Chain, steps ...jsonpath.Step) *jsonpath.Chain {
	for _, s := range steps {
		if s.Kind == jsonpath.KindIndex {
			c = c.Index(s.Index)
		} else {
			c = c.Key(s.Key)
		}
	}
	return c
}

// annotations are the keywords that carry no validation but are known,
// sorted.
var annotations = []string{
	"$comment", "$vocabulary", "contentEncoding", "contentMediaType", "default", "deprecated",
	"description", "examples", "format", "readOnly", "title", "writeOnly",
}

// IsAnnotation reports whether k is a known keyword that carries no
// validation (title, description, examples, format as an annotation, ...).
func IsAnnotation(k string) bool {
	_, found := slices.BinarySearch(annotations, k)
	return found
}

// Annotations returns the keywords [IsAnnotation] knows, sorted. The caller
// may modify the slice.
func Annotations() []string { return slices.Clone(annotations) }
