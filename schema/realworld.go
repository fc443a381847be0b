package schema

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/internal/schematree"
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
	schematree.Visit(root, func(n *jsontree.Node) {
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
	var visit func(n *jsontree.Node, path *jsonpath.Chain)
	visit = func(n *jsontree.Node, path *jsonpath.Chain) {
		schematree.Walk(n, path, func(s *jsontree.Node, at *jsonpath.Chain) {
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
			warnings = append(warnings, Warning{Path: at.Key("$ref").String(), Keyword: "$ref",
				Message: "$ref " + quote(ref, 80) + " points into a part of the document that is not a schema keyword; it is read as a schema there"})
			visit(copied, (*jsonpath.Chain)(nil).Key(defsKey).Key(name))
		})
	}
	visit(root, nil)
	return warnings
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
		switch schematree.ShapeOf(toks[i]) {
		case schematree.Schema:
			cur = v
		case schematree.Items, schematree.List:
			if v.Kind != jsontree.Array {
				if schematree.ShapeOf(toks[i]) == schematree.List {
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
		case schematree.Map, schematree.Dependencies:
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

// Document returns the schema document as Parse read it: the author's
// bytes, or, when Parse had to read a real-world schema differently from
// how it is written (a $ref into a part that is not a schema keyword, see
// the package documentation), that reading. A provider's dialect starts
// from it (package schema/dialect), as a provider cannot follow what the
// validator cannot. The caller may modify the returned slice.
func (s *Schema) Document() []byte {
	if s != nil && s.c != nil && s.c.dialectSource != nil {
		return bytes.Clone(s.c.dialectSource)
	}
	return s.JSON()
}
