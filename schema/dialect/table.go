package dialect

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentio/agentio/internal/clip"
	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/internal/schematree"
)

// A keywordRule says what a table dialect does with one keyword.
type keywordRule uint8

const (
	// ruleDrop removes the keyword: it means nothing to the model
	// ($comment, examples) or is unknown. The default for keywords a
	// table does not list.
	//lint:ignore U1000 the zero value, named for the reader: convert's default case
	ruleDrop keywordRule = iota
	// ruleKeep sends the keyword as written (subschemas converted).
	ruleKeep
	// ruleDescribe removes the keyword and writes it into the description,
	// so that the model still reads the constraint it cannot be held to.
	ruleDescribe
)

// A tableDialect is a provider dialect stated as a table: what becomes of
// each keyword, plus a few structural rewrites. Anthropic,
// Gemini and Ollama are tables over one walk of the schema
// tree (convertTable); OpenAI, whose strict mode needs more
// rewriting, has its own converter.
type tableDialect struct {
	name  Dialect
	rules map[string]keywordRule
	// formats are the "format" values kept; others are described.
	formats map[string]bool
	// closeObjects sets additionalProperties false on every object schema
	// that leaves it open (true or absent).
	closeObjects bool
	// oneOfAsAnyOf rewrites oneOf as anyOf.
	oneOfAsAnyOf bool
	// propertyOrdering adds the author's property order as
	// "propertyOrdering" to every object with properties.
	propertyOrdering bool
	// maxMinItems is the largest minItems kept (-1: any); a larger one is
	// described.
	maxMinItems int
	// strict is whether the converted schema may be sent with the
	// provider's strict flag (unless a ChangeNotStrict reason appears).
	strict bool
}

// common holds the rules every table shares.
func tableRules(keep, describe []string) map[string]keywordRule {
	m := map[string]keywordRule{}
	for _, k := range []string{"type", "properties", "required", "items", "enum", "description", "title", "$ref", "$defs", "anyOf"} {
		m[k] = ruleKeep
	}
	for _, k := range keep {
		m[k] = ruleKeep
	}
	for _, k := range describe {
		m[k] = ruleDescribe
	}
	return m
}

func setOf(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// tableConverter is one conversion by a table.
type tableConverter struct {
	t       *tableDialect
	changes []Change
	strict  bool
}

func (c *tableConverter) change(path *jsonpath.Chain, kind ChangeKind, enforced bool, format string, args ...any) {
	c.changes = append(c.changes, Change{Path: path.String(), Kind: kind, Detail: fmt.Sprintf(format, args...), Enforced: enforced})
}

// convertTable rewrites the document src by the table t.
func convertTable(t *tableDialect, src []byte) (*Conversion, error) {
	root, err := jsontree.Decode(src, schematree.MaxDepth)
	if err != nil {
		return nil, err
	}
	if root.IsFalse() {
		return nil, fmt.Errorf("%w: %s dialect: the schema false accepts no value", ErrUnconvertible, t.name)
	}
	c := &tableConverter{t: t, strict: t.strict}
	doc := root.DeepCopy()
	c.anchorsToPointers(doc)
	out := c.node(doc, nil)
	return &Conversion{Dialect: t.name, Schema: out.AppendJSON(nil), Strict: c.strict, Changes: c.changes}, nil
}

// anchorsToPointers rewrites every $ref to a plain-name anchor ("#item",
// set by $anchor or a draft-07 "$id": "#item") as a JSON Pointer to the
// subschema, and removes the anchors: providers follow pointers into the
// document, not anchors.
func (c *tableConverter) anchorsToPointers(doc *jsontree.Node) {
	anchors := map[string]string{}
	schematree.Walk(doc, nil, func(n *jsontree.Node, at *jsonpath.Chain) {
		if n.Kind != jsontree.Object {
			return
		}
		for _, k := range []string{"$anchor", "$id"} {
			if v, ok := n.StringMember(k); ok && (k == "$anchor" || strings.HasPrefix(v, "#")) {
				name := strings.TrimPrefix(v, "#")
				if _, dup := anchors[name]; !dup && name != "" && !strings.HasPrefix(name, "/") {
					anchors[name] = "#" + at.Pointer()
				}
				n.Del(k)
				c.changes = append(c.changes, Change{Path: at.String(), Kind: ChangeDropped,
					Detail: fmt.Sprintf("%s %q dropped (references to it point into the document instead)", k, clip.Ellipsis(v, 60))})
			}
		}
	})
	if len(anchors) == 0 {
		return
	}
	rewriteRefs(doc, func(ref string) string {
		if p, ok := anchors[strings.TrimPrefix(ref, "#")]; ok && strings.HasPrefix(ref, "#") {
			return p
		}
		return ref
	})
}

// node converts the schema n (modified in place) found at path.
func (c *tableConverter) node(n *jsontree.Node, path *jsonpath.Chain) *jsontree.Node {
	if n.Kind != jsontree.Object {
		return n // true, false: kept
	}
	var notes []string
	describe := func(k string) {
		notes = append(notes, k+": "+compactText(n.Get(k), openaiNoteLimit))
		n.Del(k)
		c.change(path, ChangeMovedToDescription, true, "%s moved into the description", k)
	}
	for _, k := range slices.Clone(n.Keys) {
		v := n.Get(k)
		rule := c.t.rules[k]
		switch {
		case k == "oneOf" && c.t.oneOfAsAnyOf && !n.Has("anyOf"):
			n.Rename("oneOf", "anyOf")
			c.change(path, ChangeOneOfToAnyOf, true, "oneOf rewritten as anyOf (the model may match several branches; local validation still requires one)")
			continue
		case k == "format" && rule == ruleKeep:
			if v.Kind != jsontree.String || !c.t.formats[v.Text] {
				describe(k)
			}
			continue
		case k == "minItems" && rule == ruleKeep && c.t.maxMinItems >= 0:
			if least, ok := numberValue(v); !ok || least > float64(c.t.maxMinItems) {
				describe(k)
			}
			continue
		case k == "description" && v.Kind != jsontree.String:
			n.Del(k)
			c.change(path, ChangeDropped, false, "description that is not a string dropped")
			continue
		case rule == ruleKeep:
			continue
		case rule == ruleDescribe:
			describe(k)
		default: // ruleDrop
			n.Del(k)
			c.change(path, ChangeDropped, !schematree.IsAnnotation(k) && k != "$schema", "%s dropped", k)
		}
	}
	c.children(n, path)
	if c.t.closeObjects && isObjectSchema(n) {
		switch ap := n.Get("additionalProperties"); {
		case ap == nil || (ap.Kind == jsontree.Bool && ap.Bool):
			n.Set("additionalProperties", &jsontree.Node{Kind: jsontree.Bool, Bool: false})
			c.change(path, ChangeClosedObject, false, "additionalProperties false added: the model sends only the declared properties")
		case ap.Kind == jsontree.Object:
			c.strict = false
			c.changes = append(c.changes, Change{Path: path.Key("additionalProperties").String(), Kind: ChangeNotStrict,
				Detail: "a map (additionalProperties with a schema) has no closed form", Enforced: true})
		}
	}
	if c.t.propertyOrdering {
		if props := n.ObjectMember("properties"); props != nil && len(props.Keys) > 1 && !n.Has("propertyOrdering") {
			order := &jsontree.Node{Kind: jsontree.Array}
			for _, k := range props.Keys {
				order.Items = append(order.Items, &jsontree.Node{Kind: jsontree.String, Text: k})
			}
			n.Set("propertyOrdering", order)
			c.change(path, ChangePropertyOrdering, false, "propertyOrdering added: the author's property order")
		}
	}
	if len(notes) > 0 {
		text := "(" + strings.Join(notes, "; ") + ")"
		if d, _ := n.StringMember("description"); d != "" {
			text = d + " " + text
		}
		n.Set("description", &jsontree.Node{Kind: jsontree.String, Text: text})
	}
	return n
}

// children converts the subschemas of n that the table keeps.
func (c *tableConverter) children(n *jsontree.Node, path *jsonpath.Chain) {
	schematree.Rewrite(n, func(child *jsontree.Node, steps ...jsonpath.Step) *jsontree.Node {
		if child.Kind != jsontree.Object && child.Kind != jsontree.Bool {
			return child
		}
		return c.node(child, schematree.Extend(path, steps...))
	})
}

// isObjectSchema reports whether n describes objects: its type is object,
// or it has properties and no type.
func isObjectSchema(n *jsontree.Node) bool {
	if t := n.Get("type"); t != nil {
		return t.Kind == jsontree.String && t.Text == "object"
	}
	return n.Has("properties")
}

func numberValue(v *jsontree.Node) (float64, bool) {
	if v == nil || v.Kind != jsontree.Number {
		return 0, false
	}
	var f float64
	_, err := fmt.Sscan(v.Text, &f)
	return f, err == nil
}
