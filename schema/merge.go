package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/internal/schematree"
)

// A Property is an object property to merge into a schema with
// [MergeProperties].
type Property struct {
	// Name is the property's name, as it appears in the object.
	Name string
	// Schema constrains the property's value. Nil means any value ({}).
	// It is embedded as written, so a "$ref" inside it resolves against
	// the merged document: a schema whose references point into itself
	// ("#/$defs/...") is refused unless its root has an "$id".
	Schema *Schema
	// Required adds Name to the merged schema's "required" list.
	Required bool
}

// A MergeError reports a property that cannot be merged into a schema.
// [MergeProperties] and [MergePrompt] return it.
type MergeError struct {
	// Property is the name of the property being merged.
	Property string
	// Reason says why it cannot be merged.
	Reason string
}

// Error returns "schema: cannot merge property <name>: <reason>".
func (e *MergeError) Error() string {
	return fmt.Sprintf("schema: cannot merge property %q: %s", e.Property, e.Reason)
}

// promptProperty returns what [MergePrompt] adds when s has no "prompt"
// property: {"type":"string","minLength":1}.
func promptProperty() *jsontree.Node {
	return &jsontree.Node{Kind: jsontree.Object, Keys: []string{"type", "minLength"},
		Values: []*jsontree.Node{{Kind: jsontree.String, Text: "string"}, {Kind: jsontree.Number, Text: "1"}}}
}

// MergePrompt returns the parameters schema of an autonomous agent: s with
// a required "prompt" property, the one parameter such an agent always
// needs. A nil s gives the implicit schema
//
//	{"type":"object","properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}
//
// Otherwise the result is s with its type set to "object", a "prompt"
// property of {"type":"string","minLength":1} added when s has none (a
// "prompt" property s already has is kept as its author wrote it), and
// "prompt" appended to "required" when it is not listed there. It follows
// the rules of [MergeProperties]: s is never modified, and s itself is
// returned when it already meets all three conditions.
func MergePrompt(s *Schema) (*Schema, error) {
	return merge(s, []treeProperty{{name: "prompt", schema: promptProperty(), required: true}})
}

// MergeProperties returns a schema that describes an object with the
// properties of s plus props, in that order. For each [Property]:
//
//   - it is added to "properties" when s has no property of that name; a
//     property s already has is kept as its author wrote it (the first of
//     several props with one name wins the same way);
//   - when Required is set, its name is appended to "required" unless it is
//     listed there already.
//
// The result's "type" is "object" (a schema of another type could not hold
// the properties). A "$ref" at the root of s moves into "allOf", so that
// draft-07, which ignores the keywords beside a "$ref", still sees the
// added ones; for draft 2020-12 the two forms mean the same. Keywords
// that limit names or counts (propertyNames, maxProperties) are left as
// written. A nil s is the empty schema {}; the schema true is too; false
// admits no value and gives a [*MergeError].
//
// s is never modified: the result is compiled from new bytes that keep the
// author's key order and indentation style, and is s itself when nothing
// had to change. The error is a [*MergeError] or the [*InvalidSchemaError]
// of compiling the merged document with [Parse] (so a schema that needed a
// [Loader] for a remote $ref fails with [ErrRemoteRef]).
func MergeProperties(s *Schema, props ...Property) (*Schema, error) {
	trees := make([]treeProperty, len(props))
	for i, p := range props {
		trees[i] = treeProperty{name: p.Name, schema: &jsontree.Node{Kind: jsontree.Object}, required: p.Required}
		if p.Schema == nil {
			continue
		}
		tree, err := decodeTree(p.Schema.JSON(), schematree.MaxDepth)
		if err != nil {
			return nil, &MergeError{Property: p.Name, Reason: err.Error()}
		}
		if ref, ok := localRef(tree); ok {
			return nil, &MergeError{Property: p.Name, Reason: fmt.Sprintf("its reference %q would resolve against the merged document (give its root an $id)", ref)}
		}
		trees[i].schema = tree
	}
	return merge(s, trees)
}

// A treeProperty is a [Property] whose schema is decoded.
type treeProperty struct {
	name     string
	schema   *jsontree.Node
	required bool
}

// merge does the work of [MergeProperties] on a tree decoded from the JSON
// text of s, so that what it does not touch keeps the author's order.
func merge(s *Schema, props []treeProperty) (*Schema, error) {
	src := []byte("{}")
	if s != nil {
		src = s.JSON()
	}
	fail := func(reason string) error {
		name := ""
		if len(props) > 0 {
			name = props[0].name
		}
		return &MergeError{Property: name, Reason: reason}
	}
	root, err := decodeTree(src, schematree.MaxDepth)
	switch {
	case err != nil:
		return nil, fail("the schema is not a JSON object")
	case root.Kind == jsontree.Bool && root.Bool:
		root = &jsontree.Node{Kind: jsontree.Object}
	case root.Kind == jsontree.Bool:
		return nil, fail("the schema is false and admits no value")
	case root.Kind != jsontree.Object:
		return nil, fail("the schema is not a JSON object")
	}
	changed := false

	if ref := root.Get("$ref"); ref != nil {
		allOf := []*jsontree.Node{{Kind: jsontree.Object, Keys: []string{"$ref"}, Values: []*jsontree.Node{ref}}}
		if a := root.Get("allOf"); a != nil {
			if a.Kind != jsontree.Array {
				return nil, fail("allOf is not an array")
			}
			allOf = append(allOf, a.Items...)
			root.Del("allOf")
		}
		root.Rename("$ref", "allOf")
		root.Set("allOf", &jsontree.Node{Kind: jsontree.Array, Items: allOf})
		changed = true
	}

	if t := root.Get("type"); !t.IsString("object") {
		object := &jsontree.Node{Kind: jsontree.String, Text: "object"}
		if t != nil {
			root.Set("type", object)
		} else {
			// After the "$schema" and "$id" that lead the object, where a
			// reader looks for the type.
			i := 0
			for i < len(root.Keys) && (root.Keys[i] == "$schema" || root.Keys[i] == "$id") {
				i++
			}
			root.Keys = slices.Insert(root.Keys, i, "type")
			root.Values = slices.Insert(root.Values, i, object)
		}
		changed = true
	}

	properties := root.Get("properties")
	if properties == nil {
		properties = &jsontree.Node{Kind: jsontree.Object}
	} else if properties.Kind != jsontree.Object {
		return nil, fail("properties is not an object")
	}
	required := root.Get("required")
	if required == nil {
		required = &jsontree.Node{Kind: jsontree.Array}
	} else if required.Kind != jsontree.Array {
		return nil, fail("required is not an array")
	}
	for _, p := range props {
		if !properties.Has(p.name) {
			properties.Set(p.name, p.schema)
			root.Set("properties", properties)
			changed = true
		}
		if p.required && !slices.ContainsFunc(required.Items, func(e *jsontree.Node) bool { return e.IsString(p.name) }) {
			required.Items = append(required.Items, &jsontree.Node{Kind: jsontree.String, Text: p.name})
			root.Set("required", required)
			changed = true
		}
	}
	if !changed {
		return s, nil
	}
	doc, err := layoutLike(root.AppendJSON(nil), src)
	if err != nil {
		return nil, fail(err.Error())
	}
	return Parse(doc)
}

// localRef returns the first "$ref" or "$dynamicRef" under the schema n, in
// document order, that points into n ("#..."): embedded in another
// document, it would resolve against that document instead. A schema whose
// root has an "$id" is its own base, so it has none.
func localRef(n *jsontree.Node) (string, bool) {
	if n.Has("$id") {
		return "", false
	}
	var ref string
	schematree.Visit(n, func(sub *jsontree.Node) {
		for _, kw := range []string{"$ref", "$dynamicRef"} {
			if r, ok := sub.StringMember(kw); ok && ref == "" && strings.HasPrefix(r, "#") {
				ref = r
			}
		}
	})
	return ref, ref != ""
}

// layoutLike formats doc in the style of src: compact when src is on one
// line, else indented with src's indent unit; a final newline when src has
// one.
func layoutLike(doc, src []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := json.Compact(&out, doc); err != nil {
		return nil, err
	}
	if nl := bytes.IndexByte(src, '\n'); nl >= 0 {
		indent := "  "
		rest := src[nl+1:]
		if n := len(rest) - len(bytes.TrimLeft(rest, " \t")); n > 0 {
			indent = string(rest[:n])
		}
		var indented bytes.Buffer
		if err := json.Indent(&indented, out.Bytes(), "", indent); err != nil {
			return nil, err
		}
		out = indented
	}
	if bytes.HasSuffix(src, []byte("\n")) {
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}
