package dialect

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/internal/schematree"
)

// OpenAI's documented limits for strict schemas ("Supported schemas" in the
// Structured Outputs guide), and our own bounds on the rewrite.
const (
	openaiWrapKey        = "value"
	openaiMaxProperties  = 5000   // object properties in the whole schema
	openaiMaxDepth       = 10     // levels of object nesting
	openaiMaxEnumValues  = 1000   // enum values across all enums
	openaiMaxStringChars = 120000 // property names, definition names, enum and const strings
	openaiLargeEnum      = 250    // a string enum with more values than this ...
	openaiLargeEnumChars = 15000  // ... may total at most this many characters
	openaiMaxInlines     = 1000   // $ref-with-siblings expansions, against blow-up
	openaiNoteLimit      = 200    // bytes of a keyword value written into a description
	openaiMaxRefHops     = 32     // $ref chains followed by Restore
)

// openaiFormat reports whether strict mode supports the string format f.
func openaiFormat(f string) bool {
	switch f {
	case "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid":
		return true
	}
	return false
}

// openaiKeeps reports whether strict mode accepts keyword k (format is
// checked apart).
func openaiKeeps(k string) bool {
	switch k {
	case "type", "description", "title", "enum", "const", "anyOf", "$ref", "$defs", "definitions",
		"properties", "required", "additionalProperties", "items", "pattern",
		"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems":
		return true
	}
	return false
}

// openaiDescribes reports whether keyword k is one strict mode rejects
// that still tells the model something: it moves into the description.
func openaiDescribes(k string) bool {
	switch k {
	case "minLength", "maxLength", "format", "minProperties", "maxProperties", "propertyNames",
		"uniqueItems", "contains", "minContains", "maxContains", "not", "if", "then", "else",
		"dependentRequired", "dependentSchemas", "dependencies", "default", "examples",
		"contentEncoding", "contentMediaType", "contentSchema",
		"unevaluatedItems", "unevaluatedProperties", "additionalItems":
		return true
	}
	return false
}

// typeKeywords returns the keywords that make a schema describe values of
// some type; a schema with none of them accepts any value.
func typeKeywords() []string {
	return []string{"type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf", "properties", "items", "prefixItems"}
}

// convertOpenAI rewrites the schema document src for OpenAI's strict mode.
func convertOpenAI(src []byte) (*Conversion, error) {
	root, err := jsontree.Decode(src, schematree.MaxDepth)
	if err != nil {
		return nil, fmt.Errorf("%w: openai dialect: %w", ErrUnconvertible, err)
	}
	doc := root
	switch root.Kind {
	case jsontree.Object:
	case jsontree.Bool:
		if !root.Bool {
			return nil, fmt.Errorf("%w: openai dialect: the schema false accepts no value", ErrUnconvertible)
		}
		doc = &jsontree.Node{Kind: jsontree.Object}
	default:
		return nil, fmt.Errorf("%w: openai dialect: the schema is not a JSON object", ErrUnconvertible)
	}

	conv := &Conversion{Dialect: OpenAI}
	var changes []Change
	if !openaiObjectRoot(doc) {
		doc = openaiWrap(doc, openaiWrapKey)
		conv.Wrapped, conv.WrapKey = true, openaiWrapKey
		changes = append(changes, Change{Path: "$", Kind: ChangeWrappedRoot,
			Detail: fmt.Sprintf("the root is not an object schema: wrapped as the required property %q", openaiWrapKey)})
	}
	unwrap := func(v any) any { return v }
	if conv.Wrapped {
		unwrap = func(v any) any {
			if m, ok := v.(map[string]any); ok {
				if inner, ok := m[openaiWrapKey]; ok {
					return inner
				}
			}
			return v
		}
	}

	c := &openaiConverter{
		root:     doc.DeepCopy(),
		optional: map[*jsontree.Node]map[string]bool{},
		active:   map[string]bool{},
	}
	strict := c.convert()
	if len(c.blockers) == 0 {
		c.checkLimits(strict)
	}
	if len(c.blockers) > 0 {
		conv.Schema = doc.AppendJSON(nil)
		conv.Changes = append(changes, c.blockers...)
		if conv.Wrapped {
			conv.restore = unwrap
		}
		return conv, nil
	}
	conv.Strict = true
	conv.Schema = strict.AppendJSON(nil)
	conv.Changes = append(changes, c.changes...)
	r := &openaiRestorer{root: strict, optional: c.optional}
	conv.restore = func(v any) any { return unwrap(r.value(v, strict, 0)) }
	conv.rewrites = true
	return conv, nil
}

// openaiObjectRoot reports whether doc describes objects without a union
// at its root (following a root $ref, and the branches of a root allOf),
// so it needs no wrapping.
func openaiObjectRoot(doc *jsontree.Node) bool { return objectSchema(doc, doc, 0) }

// objectSchema reports whether o, a schema in doc, describes objects
// without a union; depth bounds the references and allOf branches
// followed.
func objectSchema(doc, o *jsontree.Node, depth int) bool {
	if depth > openaiMaxRefHops {
		return false
	}
	if ref, ok := o.StringMember("$ref"); ok {
		to := doc.ResolveRef(ref)
		return to != nil && to.Kind == jsontree.Object && objectSchema(doc, to, depth+1)
	}
	if isUnion(o.Get("anyOf")) || isUnion(o.Get("oneOf")) || o.Has("enum") || o.Has("const") || o.Has("items") {
		return false
	}
	if t := o.Get("type"); t != nil {
		return t.IsString("object")
	}
	if all, ok := o.ArrayMember("allOf"); ok && len(all) > 0 {
		for _, b := range all {
			if b.Kind != jsontree.Object || !objectSchema(doc, b, depth+1) {
				return false
			}
		}
		return true
	}
	return o.Has("properties") || o.Has("additionalProperties") || o.Has("patternProperties")
}

// isUnion reports whether v is an anyOf/oneOf list with at least one branch
// that describes a type, rather than a list of extra constraints
// ({"required": [...]}).
func isUnion(v *jsontree.Node) bool {
	if v == nil || v.Kind != jsontree.Array {
		return false
	}
	for _, b := range v.Items {
		if b.Kind != jsontree.Object {
			return true
		}
		for _, k := range typeKeywords() {
			if b.Has(k) {
				return true
			}
		}
	}
	return false
}

// openaiWrap returns {"type":"object","properties":{key: inner},...} with
// inner's $schema, $id and definitions hoisted and its references rewritten
// to keep pointing where they did.
func openaiWrap(inner *jsontree.Node, key string) *jsontree.Node {
	inner = inner.Clone()
	prefix := "#/properties/" + jsonpath.EscapeToken(key)
	rewriteRefs(inner, func(ref string) string {
		switch {
		case ref == "#":
			return prefix
		case strings.HasPrefix(ref, "#/$defs/") || strings.HasPrefix(ref, "#/definitions/"):
			return ref
		case strings.HasPrefix(ref, "#/"):
			return prefix + ref[1:]
		default:
			return ref
		}
	})
	w := &jsontree.Node{Kind: jsontree.Object}
	for _, k := range []string{"$schema", "$id"} {
		if v := inner.Get(k); v != nil {
			w.Set(k, v)
			inner.Del(k)
		}
	}
	w.Set("type", &jsontree.Node{Kind: jsontree.String, Text: "object"})
	w.Set("properties", &jsontree.Node{Kind: jsontree.Object, Keys: []string{key}, Values: []*jsontree.Node{inner}})
	w.Set("required", &jsontree.Node{Kind: jsontree.Array, Items: []*jsontree.Node{{Kind: jsontree.String, Text: key}}})
	w.Set("additionalProperties", &jsontree.Node{Kind: jsontree.Bool})
	for _, k := range []string{"$defs", "definitions"} {
		if v := inner.Get(k); v != nil {
			w.Set(k, v)
			inner.Del(k)
		}
	}
	return w
}

// An openaiConverter rewrites one schema document for strict mode. It
// works on its own copy of the document and is used once.
type openaiConverter struct {
	root     *jsontree.Node // the source document, for resolving references
	changes  []Change
	blockers []Change
	optional map[*jsontree.Node]map[string]bool // converted object → formerly optional properties
	active   map[string]bool                    // references being inlined
	inlines  int
}

func (c *openaiConverter) change(path *jsonpath.Chain, kind ChangeKind, format string, args ...any) {
	enforced := kind == ChangeMovedToDescription || kind == ChangeOneOfToAnyOf
	c.changes = append(c.changes, Change{Path: path.String(), Kind: kind, Detail: fmt.Sprintf(format, args...), Enforced: enforced})
}

func (c *openaiConverter) block(path *jsonpath.Chain, format string, args ...any) {
	c.blockers = append(c.blockers, Change{Path: path.String(), Kind: ChangeNotStrict, Detail: fmt.Sprintf(format, args...)})
}

// convert returns the strict form of the whole document.
func (c *openaiConverter) convert() *jsontree.Node {
	c.renameDefinitions()
	c.pruneDefinitions()
	out := c.node(c.root, nil)
	if out.Kind != jsontree.Object {
		return &jsontree.Node{Kind: jsontree.Object}
	}
	if !typeIncludes(out, "object") || out.Has("anyOf") || out.Has("$ref") {
		c.block(nil, "the root must be an object schema without anyOf")
	}
	return out
}

// node converts the schema v found at path.
func (c *openaiConverter) node(v *jsontree.Node, path *jsonpath.Chain) *jsontree.Node {
	switch v.Kind {
	case jsontree.Object:
		return c.schema(v, path)
	case jsontree.Bool:
		c.block(path, "the boolean schema %t has no strict form", v.Bool)
		return v
	default:
		c.block(path, "a schema must be a JSON object")
		return v
	}
}

// schema converts one schema object; src is not modified.
func (c *openaiConverter) schema(src *jsontree.Node, path *jsonpath.Chain) *jsontree.Node {
	n := src.Clone()
	var inlined []string
	defer func() {
		for _, ref := range inlined {
			delete(c.active, ref)
		}
	}()
	n = c.inlineRef(n, path, &inlined)
	if !c.unions(n, path) {
		return n
	}
	if !c.mergeAllOf(n, path, &inlined) {
		return n
	}
	if !c.inferType(n, path) {
		return n
	}
	c.keywords(n, path)
	c.children(n, path)
	if typeIncludes(n, "object") {
		c.object(n, path)
	}
	if typeIncludes(n, "array") && !n.Has("items") {
		c.block(path, "an array without items (any elements) has no strict form")
	}
	return n
}

// onlyAnnotations reports whether n's keywords besides $ref are all
// annotations a model can do without.
func onlyAnnotations(n *jsontree.Node) bool {
	for _, k := range n.Keys {
		switch k {
		case "$ref", "description", "title", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly":
		default:
			return false
		}
	}
	return true
}

// unions rewrites oneOf as anyOf. It reports false when n cannot be
// converted further.
func (c *openaiConverter) unions(n *jsontree.Node, path *jsonpath.Chain) bool {
	if !isUnion(n.Get("oneOf")) {
		return true // absent, or extra constraints moved to the description later
	}
	if isUnion(n.Get("anyOf")) {
		c.block(path, "both anyOf and oneOf list alternatives")
		return false
	}
	if n.Has("anyOf") {
		c.describe(n, path, "anyOf")
	}
	n.Rename("oneOf", "anyOf")
	c.change(path, ChangeOneOfToAnyOf, "oneOf rewritten as anyOf (the local validator still checks oneOf)")
	return true
}

// mergeAllOf merges the branches of an allOf into n. It reports false
// when they cannot be merged. A branch that is a $ref stays active (in
// inlined) while n's children are converted, so a recursive allOf is
// caught rather than merged forever.
func (c *openaiConverter) mergeAllOf(n *jsontree.Node, path *jsonpath.Chain, inlined *[]string) bool {
	for round := 0; n.Has("allOf"); round++ {
		branches, ok := n.ArrayMember("allOf")
		if !ok || round >= 8 {
			c.block(path, "allOf cannot be merged")
			return false
		}
		n.Del("allOf")
		for i, b := range branches {
			if ref, ok := b.StringMember("$ref"); ok {
				if c.active[ref] || c.inlines >= openaiMaxInlines {
					c.block(path, "allOf through $ref %q is recursive and cannot be merged", ref)
					return false
				}
				c.active[ref] = true
				*inlined = append(*inlined, ref)
				c.inlines++
			}
			bo := deref(c.root, b)
			if bo == nil {
				c.block(path.Key("allOf").Index(i), "allOf branch is not a schema object in this document")
				return false
			}
			if !c.mergeInto(n, bo, path) {
				return false
			}
		}
		c.change(path, ChangeMergedAllOf, "the %d branches of allOf merged into the schema", len(branches))
	}
	return true
}

// mergeInto merges the allOf branch b into n.
func (c *openaiConverter) mergeInto(n, b *jsontree.Node, path *jsonpath.Chain) bool {
	for i, k := range b.Keys {
		v := b.Values[i]
		switch k {
		case "$defs", "definitions", "$schema", "$id", "$comment":
		case "description", "title":
			if !n.Has(k) {
				n.Set(k, v)
			}
		case "properties":
			if v.Kind != jsontree.Object {
				c.block(path, "allOf branch has properties that are not an object")
				return false
			}
			np := &jsontree.Node{Kind: jsontree.Object}
			if old := n.ObjectMember("properties"); old != nil {
				np = old.Clone()
			}
			for j, name := range v.Keys {
				if old := np.Get(name); old != nil && !old.Equal(v.Values[j]) {
					c.block(path.Key("properties").Key(name), "allOf branches define property %q differently", name)
					return false
				}
				np.Set(name, v.Values[j])
			}
			n.Set("properties", np)
		case "required":
			req, _ := n.ArrayMember("required")
			merged := &jsontree.Node{Kind: jsontree.Array, Items: slices.Clone(req)}
			if v.Kind == jsontree.Array {
				for _, r := range v.Items {
					if !containsValue(merged.Items, r) {
						merged.Items = append(merged.Items, r)
					}
				}
			}
			n.Set("required", merged)
		default:
			if old := n.Get(k); old != nil && !old.Equal(v) {
				c.block(path, "allOf branches disagree on %s", k)
				return false
			}
			n.Set(k, v)
		}
	}
	return true
}

// inferType adds the type a typeless schema's keywords imply. It reports
// false when n accepts a value of any type.
func (c *openaiConverter) inferType(n *jsontree.Node, path *jsonpath.Chain) bool {
	if n.Has("type") || n.Has("enum") || n.Has("const") || n.Has("$ref") || isUnion(n.Get("anyOf")) {
		return true
	}
	switch {
	case n.Has("properties") || n.Has("additionalProperties") || n.Has("patternProperties") || n.Has("required"):
		n.Set("type", &jsontree.Node{Kind: jsontree.String, Text: "object"})
		c.change(path, ChangeAddedType, `type "object" added (the schema has object keywords)`)
	case n.Has("items") || n.Has("prefixItems"):
		n.Set("type", &jsontree.Node{Kind: jsontree.String, Text: "array"})
		c.change(path, ChangeAddedType, `type "array" added (the schema has array keywords)`)
	default:
		c.block(path, "the schema accepts a value of any type (no type, enum, const or anyOf)")
		return false
	}
	return true
}

// keywords keeps the keywords strict mode accepts, moves the others into
// the description or drops them, and blocks on those that cannot be
// expressed.
func (c *openaiConverter) keywords(n *jsontree.Node, path *jsonpath.Chain) {
	var notes []string
	keys := slices.Clone(n.Keys)
	vals := slices.Clone(n.Values)
	for i, k := range keys {
		v := vals[i]
		switch {
		case (k == "anyOf" || k == "oneOf") && !isUnion(v):
			notes = append(notes, c.describe(n, path, k))
		case k == "format":
			if v.Kind == jsontree.String && openaiFormat(v.Text) && typeIncludes(n, "string") {
				continue
			}
			notes = append(notes, c.describe(n, path, k))
		case k == "exclusiveMinimum" || k == "exclusiveMaximum":
			if v.Kind == jsontree.Bool {
				notes = append(notes, c.describe(n, path, k))
			}
		case k == "description":
			if v.Kind != jsontree.String {
				n.Del(k)
				c.change(path, ChangeDropped, "description that is not a string dropped")
			}
		case k == "unevaluatedProperties" && v.IsFalse():
			n.Del(k)
			c.change(path, ChangeDropped, "unevaluatedProperties false dropped (objects are closed)")
		case k == "patternProperties":
			if v.Kind == jsontree.Object && len(v.Keys) == 0 {
				n.Del(k)
				c.change(path, ChangeDropped, "empty patternProperties dropped")
				continue
			}
			c.block(path, "patternProperties (keys chosen by the model) has no strict form")
		case k == "prefixItems":
			c.block(path, "prefixItems (a tuple) has no strict form")
		case k == "items":
			if v.Kind == jsontree.Array {
				c.block(path, "items as a list (a draft-07 tuple) has no strict form")
			}
		case k == "$dynamicRef" || k == "$recursiveRef":
			c.block(path, "%s has no strict form", k)
		case openaiKeeps(k):
		case openaiDescribes(k):
			notes = append(notes, c.describe(n, path, k))
		default:
			n.Del(k)
			c.change(path, ChangeDropped, "%s dropped", k)
		}
	}
	if len(notes) == 0 {
		return
	}
	text := "(" + strings.Join(notes, "; ") + ")"
	if d, _ := n.StringMember("description"); d != "" {
		text = d + " " + text
	}
	n.Set("description", &jsontree.Node{Kind: jsontree.String, Text: text})
}

// describe removes keyword k from n and returns the note for the
// description.
func (c *openaiConverter) describe(n *jsontree.Node, path *jsonpath.Chain, k string) string {
	note := k + ": " + compactText(n.Get(k), openaiNoteLimit)
	n.Del(k)
	c.change(path, ChangeMovedToDescription, "%s moved into the description", k)
	return note
}

// children converts the schemas nested in n.
func (c *openaiConverter) children(n *jsontree.Node, path *jsonpath.Chain) {
	for _, k := range []string{"properties", "$defs", "definitions"} {
		m := n.Get(k)
		if m == nil {
			continue
		}
		if m.Kind != jsontree.Object {
			c.block(path.Key(k), "%s is not an object", k)
			continue
		}
		// The names are distinct already: no need for set's search.
		out := &jsontree.Node{Kind: jsontree.Object, Keys: slices.Clone(m.Keys), Values: make([]*jsontree.Node, len(m.Values))}
		at := path.Key(k)
		for i, name := range m.Keys {
			out.Values[i] = c.node(m.Values[i], at.Key(name))
		}
		n.Set(k, out)
	}
	if items := n.Get("items"); items != nil && items.Kind != jsontree.Array {
		n.Set("items", c.node(items, path.Key("items")))
	}
	if v := n.Get("anyOf"); v != nil {
		if v.Kind != jsontree.Array {
			c.block(path.Key("anyOf"), "anyOf is not a list")
			return
		}
		out := &jsontree.Node{Kind: jsontree.Array, Items: make([]*jsontree.Node, len(v.Items))}
		at := path.Key("anyOf")
		for i, b := range v.Items {
			out.Items[i] = c.node(b, at.Index(i))
		}
		n.Set("anyOf", out)
	}
}

// object closes the object n and makes every property required, the
// optional ones nullable.
func (c *openaiConverter) object(n *jsontree.Node, path *jsonpath.Chain) {
	props := n.ObjectMember("properties")
	count := 0
	if props != nil {
		count = len(props.Keys)
	}
	ap := n.Get("additionalProperties")
	switch {
	case ap.IsFalse():
	case count == 0:
		c.block(path, "an object without properties (any keys) has no strict form")
		return
	case ap != nil && !isTrueSchema(ap):
		c.block(path, "additionalProperties with a schema (a map) has no strict form")
		return
	default:
		n.Set("additionalProperties", &jsontree.Node{Kind: jsontree.Bool})
		c.change(path, ChangeClosedObject, "additionalProperties false added")
	}
	required := map[string]bool{}
	if v := n.Get("required"); v != nil {
		var list []*jsontree.Node
		if v.Kind == jsontree.Array {
			list = v.Items
		}
		for _, r := range list {
			var name string
			if r.Kind == jsontree.String {
				name = r.Text
			}
			if props == nil || !props.Has(name) {
				c.block(path, "required property %q is not declared in properties", name)
				return
			}
			required[name] = true
		}
	}
	if count == 0 {
		return
	}
	all := &jsontree.Node{Kind: jsontree.Array, Items: make([]*jsontree.Node, 0, count)}
	optional := map[string]bool{}
	for i, name := range props.Keys {
		all.Items = append(all.Items, &jsontree.Node{Kind: jsontree.String, Text: name})
		if required[name] {
			continue
		}
		props.Values[i] = openaiNullable(props.Values[i])
		optional[name] = true
		c.change(path.Key("properties").Key(name), ChangeMadeNullable,
			"optional property %q made required and nullable; Restore removes its null", name)
	}
	n.Set("required", all)
	if len(optional) > 0 {
		c.optional[n] = optional
	}
}

// isTrueSchema reports whether v accepts everything (true or {}).
func isTrueSchema(v *jsontree.Node) bool {
	if v.Kind == jsontree.Bool {
		return v.Bool
	}
	return v.Kind == jsontree.Object && len(v.Keys) == 0
}

// openaiNullable returns the converted schema o extended to accept null:
// a type list for scalars, anyOf with {"type":"null"} otherwise.
func openaiNullable(o *jsontree.Node) *jsontree.Node {
	if o.Kind != jsontree.Object {
		return o
	}
	if t := o.Get("type"); t != nil && !o.Has("const") && !o.Has("anyOf") && !typeIncludes(o, "object") && !typeIncludes(o, "array") {
		switch t.Kind {
		case jsontree.String:
			if t.Text != "null" {
				o.Set("type", &jsontree.Node{Kind: jsontree.Array, Items: []*jsontree.Node{t, {Kind: jsontree.String, Text: "null"}}})
			}
		case jsontree.Array:
			if !containsValue(t.Items, &jsontree.Node{Kind: jsontree.String, Text: "null"}) {
				o.Set("type", &jsontree.Node{Kind: jsontree.Array, Items: append(slices.Clone(t.Items), &jsontree.Node{Kind: jsontree.String, Text: "null"})})
			}
		}
		if list, ok := o.ArrayMember("enum"); ok && !containsValue(list, &jsontree.Node{Kind: jsontree.Null}) {
			o.Set("enum", &jsontree.Node{Kind: jsontree.Array, Items: append(slices.Clone(list), &jsontree.Node{Kind: jsontree.Null})})
		}
		return o
	}
	if typeIncludes(o, "null") {
		return o
	}
	if list, ok := o.ArrayMember("enum"); ok && !o.Has("anyOf") && !o.Has("$ref") && !o.Has("const") {
		if !containsValue(list, &jsontree.Node{Kind: jsontree.Null}) {
			o.Set("enum", &jsontree.Node{Kind: jsontree.Array, Items: append(slices.Clone(list), &jsontree.Node{Kind: jsontree.Null})})
		}
		return o
	}
	if branches, ok := o.ArrayMember("anyOf"); ok && onlyKeys(o, "anyOf", "description", "title") {
		for _, b := range branches {
			if b.Kind == jsontree.Object && len(b.Keys) == 1 && b.Get("type").IsString("null") {
				return o
			}
		}
		o.Set("anyOf", &jsontree.Node{Kind: jsontree.Array, Items: append(slices.Clone(branches), nullSchema())})
		return o
	}
	return &jsontree.Node{Kind: jsontree.Object, Keys: []string{"anyOf"}, Values: []*jsontree.Node{{Kind: jsontree.Array, Items: []*jsontree.Node{o, nullSchema()}}}}
}

// nullSchema returns a new {"type":"null"}.
func nullSchema() *jsontree.Node {
	return &jsontree.Node{Kind: jsontree.Object, Keys: []string{"type"}, Values: []*jsontree.Node{{Kind: jsontree.String, Text: "null"}}}
}

// typeIncludes reports whether o's type is t or lists t.
func typeIncludes(o *jsontree.Node, t string) bool {
	v := o.Get("type")
	if v == nil {
		return false
	}
	switch v.Kind {
	case jsontree.String:
		return v.Text == t
	case jsontree.Array:
		return containsValue(v.Items, &jsontree.Node{Kind: jsontree.String, Text: t})
	}
	return false
}

// onlyKeys reports whether o has no keys but those listed.
func onlyKeys(o *jsontree.Node, keys ...string) bool {
	for _, k := range o.Keys {
		if !slices.Contains(keys, k) {
			return false
		}
	}
	return true
}

// containsValue reports whether list holds the scalar v (an object or an
// array in list is never equal to it).
func containsValue(list []*jsontree.Node, v *jsontree.Node) bool {
	for _, e := range list {
		if e.Kind < jsontree.Array && e.Equal(v) {
			return true
		}
	}
	return false
}

// objectOrNil returns v when it is an object, else nil.
func objectOrNil(v *jsontree.Node) *jsontree.Node {
	if v == nil || v.Kind != jsontree.Object {
		return nil
	}
	return v
}
