package schema

import (
	"strings"

	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/internal/schematree"
)

// A draft is the set of validation rules a schema is compiled under.
// jsonschema-go knows two: draft 2020-12 and draft-07.
type draft uint8

const (
	draft2020 draft = iota
	draft7
)

// The $schema values jsonschema-go accepts. It applies draft-07 rules only
// for draft7URI (or its https twin) and refuses to validate anything under
// any other non-empty $schema, so the root's $schema is always rewritten to
// one of these two before compiling.
const (
	draft2020URI = "https://json-schema.org/draft/2020-12/schema"
	draft7URI    = "http://json-schema.org/draft-07/schema#"
)

func (d draft) String() string {
	if d == draft7 {
		return "draft-07"
	}
	return "draft 2020-12"
}

// A dialect is what a root $schema says, once normalised.
type dialect uint8

const (
	dialectNone dialect = iota // no $schema: detected from the keywords used
	dialect2020
	dialect2019
	dialect7
	dialect6
	dialect4
)

// parseDialect normalises a $schema value: http or https, with or without
// "www.", with or without a trailing "#".
func parseDialect(uri string) (dialect, bool) {
	u := strings.TrimSuffix(strings.TrimSpace(uri), "#")
	u = strings.TrimPrefix(u, "https://")
	u = strings.TrimPrefix(u, "http://")
	u = strings.TrimPrefix(u, "www.")
	switch strings.TrimSuffix(u, "/") {
	case "json-schema.org/draft/2020-12/schema":
		return dialect2020, true
	case "json-schema.org/draft/2019-09/schema":
		return dialect2019, true
	case "json-schema.org/draft-07/schema":
		return dialect7, true
	case "json-schema.org/draft-06/schema":
		return dialect6, true
	case "json-schema.org/draft-04/schema":
		return dialect4, true
	}
	return dialectNone, false
}

// detectDraft decides the rules root is compiled under. An explicit
// $schema wins: 2020-12 as itself; draft-07, draft-06 and draft-04 under
// draft-07 rules (draft-04 documents are rewritten first, see
// rewriteDraft4). Without $schema (or with 2019-09, which jsonschema-go
// cannot apply), a schema that uses a draft-07-only form (array-form items,
// additionalItems, dependencies) and no 2020-12-only keyword is draft-07;
// anything else is 2020-12.
func detectDraft(root *jsontree.Node) (draft, dialect, *InvalidSchemaError) {
	if sv := root.Get("$schema"); sv != nil && sv.Kind == jsontree.String {
		dl, ok := parseDialect(sv.Text)
		if !ok {
			return draft2020, dialectNone, &InvalidSchemaError{
				Path:   "$.$schema",
				Reason: "unsupported $schema " + quote(sv.Text, 80) + ": use draft 2020-12 (" + draft2020URI + ") or draft-07 (" + draft7URI + ")",
				Err:    ErrUnsupportedDraft,
			}
		}
		switch dl {
		case dialect2020:
			return draft2020, dl, nil
		case dialect7, dialect6, dialect4:
			return draft7, dl, nil
		}
		d, _ := formsDraft(root)
		return d, dl, nil
	}
	d, _ := formsDraft(root)
	return d, dialectNone, nil
}

// formsDraft looks for keywords that only one draft has, anywhere in the
// document. It returns draft7 when draft-07-only forms are used and no
// 2020-12-only keyword is; mixed reports whether both kinds occur.
func formsDraft(root *jsontree.Node) (d draft, mixed bool) {
	var has7, has2020 bool
	schematree.Visit(root, func(n *jsontree.Node) {
		if n.Kind != jsontree.Object {
			return
		}
		for i, k := range n.Keys {
			switch k {
			case "additionalItems", "dependencies":
				has7 = true
			case "items":
				if n.Values[i].Kind == jsontree.Array {
					has7 = true
				}
			case "prefixItems", "dependentRequired", "dependentSchemas", "unevaluatedItems",
				"unevaluatedProperties", "$dynamicRef", "$dynamicAnchor", "$anchor", "minContains", "maxContains":
				has2020 = true
			}
		}
	})
	if has7 && !has2020 {
		return draft7, false
	}
	return draft2020, has7 && has2020
}

// rewriteDraft4 turns draft-04 forms into their draft-07 equivalents, in
// place: a boolean exclusiveMinimum/exclusiveMaximum qualifies minimum/
// maximum; an "id" that is a bare fragment ("#name", draft-04's way to
// name a subschema for a $ref) becomes the draft-07 "$id" of the same
// meaning. Any other draft-04 "id" is left alone (and ignored), as
// jsonschema-go does, since relative ids would otherwise need a base URI.
func rewriteDraft4(root *jsontree.Node) {
	schematree.Visit(root, func(n *jsontree.Node) {
		if n.Kind != jsontree.Object {
			return
		}
		if id, ok := n.StringMember("id"); ok && len(id) > 1 && id[0] == '#' && !n.Has("$id") {
			n.Set("$id", &jsontree.Node{Kind: jsontree.String, Text: id})
			n.Del("id")
		}
		for _, pair := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
			ex := n.Get(pair[0])
			if ex == nil || ex.Kind != jsontree.Bool {
				continue
			}
			bound := n.Get(pair[1])
			if ex.Bool && bound != nil {
				n.Set(pair[0], bound)
				n.Del(pair[1])
			} else {
				n.Del(pair[0])
			}
		}
	})
}
