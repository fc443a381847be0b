package schema

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
)

// This file holds the two readings Parse gives real-world schemas that
// jsonschema-go refuses but whose meaning is clear: a $ref into a part of
// the document that is not a schema keyword, and relative $id values in a
// document without a base URI.

// defaultBaseURI is the base URI of a document whose root has no absolute
// $id but which uses relative $id values: the specification leaves such a
// base to the application. The host is in RFC 2606's reserved .invalid
// domain, so it can never name a real document.
const defaultBaseURI = "https://agentio.invalid/schema.json"

// readRealWorld gives the root document both readings, in place, and
// returns a warning for each place it changed; none means the document is
// untouched.
func readRealWorld(root *jsontree.Node, d draft) []Warning {
	warnings := hoistRefTargets(root, d)
	if needsBase(root) {
		base, _ := url.Parse(defaultBaseURI)
		id := base
		if rel, ok := root.StringMember("$id"); ok {
			if u, err := url.Parse(rel); err == nil {
				id = base.ResolveReference(u)
			}
		}
		root.Set("$id", &jsontree.Node{Kind: jsontree.String, Text: id.String()})
		warnings = append(warnings, Warning{Path: "$", Keyword: "$id",
			Message: "the document uses relative $id values without an absolute base URI; its root is read as " + quote(id.String(), 120)})
	}
	return warnings
}

// needsBase reports whether the document root uses a relative $id (not
// a bare fragment) without an absolute $id at its root: jsonschema-go
// refuses such documents unless they get a base URI.
func needsBase(root *jsontree.Node) bool {
	if id, ok := root.StringMember("$id"); ok {
		if u, err := url.Parse(id); err == nil && u.IsAbs() {
			return false
		}
	}
	found := false
	walkSchemas(root, func(n *jsontree.Node) {
		if found || n.Kind != jsontree.Object {
			return
		}
		if id, ok := n.StringMember("$id"); ok && !strings.HasPrefix(id, "#") {
			if u, err := url.Parse(id); err == nil && !u.IsAbs() {
				found = true
			}
		}
	})
	return found
}

// hoistRefTargets makes local $refs that point into a part of the document
// that is not a schema keyword ({"$ref": "#/team"} with "team" beside
// "properties") work: the value pointed to, when it is an object or a
// boolean without an $id, is copied under the root's $defs (definitions in
// draft-07) with the pointer as its name, and the $ref is rewritten to
// point there. jsonschema-go follows pointers through schema keywords only;
// many validators follow them anywhere. Each such $ref gets a warning.
// Values copied may hold such $refs themselves; they are handled too.
func hoistRefTargets(root *jsontree.Node, d draft) []Warning {
	if root.Kind != jsontree.Object {
		return nil
	}
	defsKey := "$defs"
	if d == draft7 {
		defsKey = "definitions"
	}
	var warnings []Warning
	hoisted := map[string]string{} // pointer -> new $ref
	var visit func(n *jsontree.Node, path jsonpath.Path)
	visit = func(n *jsontree.Node, path jsonpath.Path) {
		walkSchemasAt(n, path, func(s *jsontree.Node, at jsonpath.Path) {
			if s.Kind != jsontree.Object {
				return
			}
			ref, ok := s.StringMember("$ref")
			if !ok || !strings.HasPrefix(ref, "#/") {
				return
			}
			if to, done := hoisted[ref]; done {
				s.Set("$ref", &jsontree.Node{Kind: jsontree.String, Text: to})
				return
			}
			toks := strings.Split(ref[2:], "/")
			for i := range toks {
				toks[i] = jsontree.UnescapeRefToken(toks[i])
			}
			if schemaLocation(root, toks) {
				return
			}
			target := root.ResolveRef(ref)
			if target == nil || (target.Kind != jsontree.Object && target.Kind != jsontree.Bool) || target.Has("$id") {
				return // left for compile to report
			}
			defs := root.Get(defsKey)
			if defs == nil {
				defs = &jsontree.Node{Kind: jsontree.Object}
				root.Set(defsKey, defs)
			} else if defs.Kind != jsontree.Object {
				return
			}
			name := "/" + strings.Join(toks, "/")
			if defs.Has(name) {
				return
			}
			to := "#/" + jsonpath.EscapeToken(defsKey) + "/" + jsonpath.EscapeToken(name)
			hoisted[ref] = to
			copied := target.DeepCopy()
			defs.Set(name, copied)
			s.Set("$ref", &jsontree.Node{Kind: jsontree.String, Text: to})
			warnings = append(warnings, Warning{Path: jsonpath.Format(append(at, jsonpath.Key("$ref"))), Keyword: "$ref",
				Message: "$ref " + quote(ref, 80) + " points into a part of the document that is not a schema keyword; it is read as a schema there"})
			visit(copied, jsonpath.Path{jsonpath.Key(defsKey), jsonpath.Key(name)})
		})
	}
	visit(root, nil)
	return warnings
}

// walkSchemasAt is walkSchemas with each subschema's location.
func walkSchemasAt(n *jsontree.Node, at jsonpath.Path, fn func(*jsontree.Node, jsonpath.Path)) {
	fn(n, at)
	if n.Kind != jsontree.Object {
		return
	}
	step := func(steps ...jsonpath.Step) jsonpath.Path {
		out := make(jsonpath.Path, len(at), len(at)+len(steps))
		copy(out, at)
		return append(out, steps...)
	}
	for i, k := range n.Keys {
		v := n.Values[i]
		key := jsonpath.Key(k)
		switch subschemaKeywords[k] {
		case shapeSchema:
			walkSchemasAt(v, step(key), fn)
		case shapeSchemaList, shapeItems:
			if v.Kind == jsontree.Array {
				for j, e := range v.Items {
					walkSchemasAt(e, step(key, jsonpath.Index(j)), fn)
				}
			} else if subschemaKeywords[k] == shapeItems {
				walkSchemasAt(v, step(key), fn)
			}
		case shapeSchemaMap, shapeDependencies:
			if v.Kind == jsontree.Object {
				for j, e := range v.Values {
					if subschemaKeywords[k] == shapeDependencies && e.Kind == jsontree.Array {
						continue
					}
					walkSchemasAt(e, step(key, jsonpath.Key(v.Keys[j])), fn)
				}
			}
		}
	}
}

// schemaLocation reports whether the pointer toks, from the root schema,
// steps through schema keywords only, so that jsonschema-go can follow it.
// A pointer that leads nowhere also counts: compile reports it.
func schemaLocation(root *jsontree.Node, toks []string) bool {
	cur := root
	for i := 0; i < len(toks); i++ {
		if cur == nil || cur.Kind != jsontree.Object {
			return true
		}
		v := cur.Get(toks[i])
		if v == nil {
			return true
		}
		switch subschemaKeywords[toks[i]] {
		case shapeSchema:
			cur = v
		case shapeItems, shapeSchemaList:
			if v.Kind != jsontree.Array {
				if subschemaKeywords[toks[i]] == shapeSchemaList {
					return true
				}
				cur = v
				continue
			}
			if i+1 >= len(toks) {
				return false // the list itself is not a schema
			}
			j, err := strconv.Atoi(toks[i+1])
			if err != nil || j < 0 || j >= len(v.Items) {
				return true
			}
			cur, i = v.Items[j], i+1
		case shapeSchemaMap, shapeDependencies:
			if i+1 >= len(toks) {
				return false
			}
			cur, i = v.Get(toks[i+1]), i+1
		default:
			return false
		}
	}
	return true
}

// dialectSource returns the document dialect conversions start from: the
// author's bytes, or the document as Parse read it when readRealWorld
// changed it (a provider cannot follow what jsonschema-go cannot).
func (s *Schema) dialectSource() []byte {
	if s.c != nil && s.c.dialectSource != nil {
		return s.c.dialectSource
	}
	return s.JSON()
}
