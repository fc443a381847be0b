package schema

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
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

// openaiFormats are the string formats strict mode supports.
var openaiFormats = map[string]bool{
	"date-time": true, "time": true, "date": true, "duration": true, "email": true,
	"hostname": true, "ipv4": true, "ipv6": true, "uuid": true,
}

// openaiKept are the keywords strict mode accepts (format is checked apart).
var openaiKept = map[string]bool{
	"type": true, "description": true, "title": true, "enum": true, "const": true,
	"anyOf": true, "$ref": true, "$defs": true, "definitions": true,
	"properties": true, "required": true, "additionalProperties": true, "items": true,
	"pattern":    true,
	"multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true,
	"minItems": true, "maxItems": true,
}

// openaiDescribed are the keywords strict mode rejects that still tell the
// model something: they move into the description.
var openaiDescribed = map[string]bool{
	"minLength": true, "maxLength": true, "format": true,
	"minProperties": true, "maxProperties": true, "propertyNames": true,
	"uniqueItems": true, "contains": true, "minContains": true, "maxContains": true,
	"not": true, "if": true, "then": true, "else": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true,
	"default": true, "examples": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true,
	"unevaluatedItems": true, "unevaluatedProperties": true, "additionalItems": true,
}

// typeKeywords make a schema describe values of some type; a schema with
// none of them accepts any value.
var typeKeywords = []string{"type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf", "properties", "items", "prefixItems"}

// convertOpenAI rewrites the schema document src for OpenAI's strict mode.
func convertOpenAI(src []byte) (*Conversion, error) {
	root, err := decodeOrdered(src)
	if err != nil {
		return nil, fmt.Errorf("schema: openai dialect: %w", err)
	}
	var doc *ordObject
	switch r := root.(type) {
	case *ordObject:
		doc = r
	case bool:
		if !r {
			return nil, errors.New("schema: openai dialect: the schema false accepts no value")
		}
		doc = newOrdObject()
	default:
		return nil, errors.New("schema: openai dialect: the schema is not a JSON object")
	}

	conv := &Conversion{Dialect: DialectOpenAI}
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
		root:     deepCopyOrdered(doc).(*ordObject),
		optional: map[*ordObject]map[string]bool{},
		active:   map[string]bool{},
	}
	strict := c.convert()
	if len(c.blockers) == 0 {
		c.checkLimits(strict)
	}
	if len(c.blockers) > 0 {
		conv.Schema = appendOrdered(nil, doc)
		conv.Changes = append(changes, c.blockers...)
		if conv.Wrapped {
			conv.restore = unwrap
		}
		return conv, nil
	}
	conv.Strict = true
	conv.Schema = appendOrdered(nil, strict)
	conv.Changes = append(changes, c.changes...)
	r := &openaiRestorer{root: strict, optional: c.optional}
	conv.restore = func(v any) any { return unwrap(r.value(v, strict, 0)) }
	return conv, nil
}

// openaiObjectRoot reports whether doc describes objects without a union
// at its root (following a root $ref, and the branches of a root allOf),
// so it needs no wrapping.
func openaiObjectRoot(doc *ordObject) bool { return objectSchema(doc, doc, 0) }

// objectSchema reports whether o, a schema in doc, describes objects
// without a union; depth bounds the references and allOf branches
// followed.
func objectSchema(doc, o *ordObject, depth int) bool {
	if depth > openaiMaxRefHops {
		return false
	}
	if ref, ok := o.str("$ref"); ok {
		t, _ := resolveLocalRef(doc, ref)
		to, ok := t.(*ordObject)
		return ok && objectSchema(doc, to, depth+1)
	}
	if isUnion(o.vals["anyOf"]) || isUnion(o.vals["oneOf"]) || o.has("enum") || o.has("const") || o.has("items") {
		return false
	}
	if t, ok := o.get("type"); ok {
		return t == "object"
	}
	if all, ok := o.vals["allOf"].([]any); ok && len(all) > 0 {
		for _, b := range all {
			bo, ok := b.(*ordObject)
			if !ok || !objectSchema(doc, bo, depth+1) {
				return false
			}
		}
		return true
	}
	return o.has("properties") || o.has("additionalProperties") || o.has("patternProperties")
}

// isUnion reports whether v is an anyOf/oneOf list with at least one branch
// that describes a type, rather than a list of extra constraints
// ({"required": [...]}).
func isUnion(v any) bool {
	branches, ok := v.([]any)
	if !ok {
		return false
	}
	for _, b := range branches {
		o, ok := b.(*ordObject)
		if !ok {
			return true
		}
		for _, k := range typeKeywords {
			if o.has(k) {
				return true
			}
		}
	}
	return false
}

// openaiWrap returns {"type":"object","properties":{key: inner},...} with
// inner's $schema, $id and definitions hoisted and its references rewritten
// to keep pointing where they did.
func openaiWrap(inner *ordObject, key string) *ordObject {
	inner = inner.clone()
	prefix := "#/properties/" + strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
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
	w := newOrdObject()
	for _, k := range []string{"$schema", "$id"} {
		if v, ok := inner.get(k); ok {
			w.set(k, v)
			inner.del(k)
		}
	}
	w.set("type", "object")
	props := newOrdObject()
	props.set(key, inner)
	w.set("properties", props)
	w.set("required", []any{key})
	w.set("additionalProperties", false)
	for _, k := range []string{"$defs", "definitions"} {
		if v, ok := inner.get(k); ok {
			w.set(k, v)
			inner.del(k)
		}
	}
	return w
}

// subschemaKeys are the keywords whose value is a schema, a list of
// schemas (lists) or a map of names to schemas (maps).
var (
	subschemaKeys = []string{"additionalProperties", "items", "not", "if", "then", "else",
		"contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema"}
	subschemaLists = []string{"anyOf", "oneOf", "allOf", "prefixItems", "items"}
	subschemaMaps  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)

// eachSubschema calls fn for every schema nested in o (not o itself),
// depth first.
func eachSubschema(o *ordObject, fn func(*ordObject)) {
	visit := func(v any) {
		if c, ok := v.(*ordObject); ok {
			fn(c)
			eachSubschema(c, fn)
		}
	}
	for _, k := range subschemaKeys {
		visit(o.vals[k])
	}
	for _, k := range subschemaLists {
		if l, ok := o.vals[k].([]any); ok {
			for _, v := range l {
				visit(v)
			}
		}
	}
	for _, k := range subschemaMaps {
		if m := o.obj(k); m != nil {
			for _, name := range m.keys {
				visit(m.vals[name])
			}
		}
	}
}

// rewriteRefs replaces, in place, every $ref in o and below by map(ref).
func rewriteRefs(o *ordObject, mapRef func(string) string) {
	fix := func(s *ordObject) {
		if ref, ok := s.str("$ref"); ok {
			s.set("$ref", mapRef(ref))
		}
	}
	fix(o)
	eachSubschema(o, fix)
}

// An openaiConverter rewrites one schema document for strict mode. It
// works on its own copy of the document and is used once.
type openaiConverter struct {
	root     *ordObject // the source document, for resolving references
	changes  []Change
	blockers []Change
	optional map[*ordObject]map[string]bool // converted object → formerly optional properties
	active   map[string]bool                // references being inlined
	inlines  int
}

func (c *openaiConverter) change(path, kind, format string, args ...any) {
	c.changes = append(c.changes, Change{Path: path, Kind: kind, Detail: fmt.Sprintf(format, args...)})
}

func (c *openaiConverter) block(path, format string, args ...any) {
	c.blockers = append(c.blockers, Change{Path: path, Kind: ChangeNotStrict, Detail: fmt.Sprintf(format, args...)})
}

// convert returns the strict form of the whole document.
func (c *openaiConverter) convert() *ordObject {
	c.renameDefinitions()
	c.pruneDefinitions()
	out, ok := c.node(c.root, "$").(*ordObject)
	if !ok {
		return newOrdObject()
	}
	if !typeIncludes(out, "object") || out.has("anyOf") || out.has("$ref") {
		c.block("$", "the root must be an object schema without anyOf")
	}
	return out
}

// renameDefinitions moves the root's draft-07 definitions into $defs, the
// form OpenAI documents, and rewrites the references to them.
func (c *openaiConverter) renameDefinitions() {
	defs := c.root.obj("definitions")
	if defs == nil {
		return
	}
	target := c.root.obj("$defs")
	if target == nil {
		target = newOrdObject()
	} else {
		target = target.clone()
	}
	for _, name := range defs.keys {
		if target.has(name) {
			c.block("$.definitions", "definition %q exists in both definitions and $defs", name)
			return
		}
		target.set(name, defs.vals[name])
	}
	c.root.del("definitions")
	c.root.set("$defs", target)
	rewriteRefs(c.root, func(ref string) string {
		if strings.HasPrefix(ref, "#/definitions/") {
			return "#/$defs/" + ref[len("#/definitions/"):]
		}
		return ref
	})
	c.change("$", ChangeRenamedDefinitions, "definitions moved to $defs")
}

// pruneDefinitions drops the root's $defs that no reference reaches, so
// that an unused definition cannot make the schema non-strict.
func (c *openaiConverter) pruneDefinitions() {
	defs := c.root.obj("$defs")
	if defs == nil {
		return
	}
	used := map[string]bool{}
	var queue []*ordObject
	collect := func(s *ordObject) {
		ref, ok := s.str("$ref")
		if !ok || !strings.HasPrefix(ref, "#/$defs/") {
			return
		}
		name := unescapeRefSegment(strings.SplitN(ref[len("#/$defs/"):], "/", 2)[0])
		if used[name] {
			return
		}
		used[name] = true
		if d, ok := defs.vals[name].(*ordObject); ok {
			queue = append(queue, d)
		}
	}
	top := c.root.clone()
	top.del("$defs")
	collect(top)
	eachSubschema(top, collect)
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		collect(d)
		eachSubschema(d, collect)
	}
	kept := newOrdObject()
	for _, name := range defs.keys {
		if used[name] {
			kept.set(name, defs.vals[name])
			continue
		}
		c.change(childPath(childPath("$", "$defs"), name), ChangeDropped, "definition %q dropped: no $ref uses it", name)
	}
	if len(kept.keys) == 0 {
		c.root.del("$defs")
		return
	}
	c.root.set("$defs", kept)
}

// node converts the schema v found at path.
func (c *openaiConverter) node(v any, path string) any {
	switch n := v.(type) {
	case *ordObject:
		return c.schema(n, path)
	case bool:
		c.block(path, "the boolean schema %t has no strict form", n)
		return n
	default:
		c.block(path, "a schema must be a JSON object")
		return v
	}
}

// schema converts one schema object; src is not modified.
func (c *openaiConverter) schema(src *ordObject, path string) *ordObject {
	n := src.clone()
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
	if typeIncludes(n, "array") && !n.has("items") {
		c.block(path, "an array without items (any elements) has no strict form")
	}
	return n
}

// inlineRef replaces a $ref that has sibling keywords by the schema it
// points to, the siblings winning; OpenAI wants a $ref alone.
func (c *openaiConverter) inlineRef(n *ordObject, path string, inlined *[]string) *ordObject {
	for n.has("$ref") && len(n.keys) > 1 {
		ref, ok := n.str("$ref")
		if !ok {
			c.block(path, "$ref is not a string")
			return n
		}
		if c.active[ref] || c.inlines >= openaiMaxInlines {
			if onlyAnnotations(n) {
				for _, k := range append([]string(nil), n.keys...) {
					if k != "$ref" {
						n.del(k)
						c.change(path, ChangeDropped, "%s beside the recursive $ref %q dropped", k, ref)
					}
				}
				return n
			}
			c.block(path, "$ref %q with sibling keywords is recursive and cannot be inlined", ref)
			return n
		}
		t, _ := resolveLocalRef(c.root, ref)
		target, ok := t.(*ordObject)
		if !ok {
			c.block(path, "$ref %q does not point to a schema object in this document", ref)
			return n
		}
		merged := target.clone()
		for _, k := range []string{"$defs", "definitions", "$schema", "$id"} {
			merged.del(k)
		}
		for _, k := range n.keys {
			if k != "$ref" {
				merged.set(k, n.vals[k])
			}
		}
		c.active[ref] = true
		*inlined = append(*inlined, ref)
		c.inlines++
		c.change(path, ChangeInlinedRef, "$ref %q with sibling keywords replaced by the schema it points to", ref)
		n = merged
	}
	if ref, ok := n.str("$ref"); ok {
		if _, found := resolveLocalRef(c.root, ref); !found {
			c.block(path, "$ref %q does not point into this document", ref)
		}
	}
	return n
}

// onlyAnnotations reports whether n's keywords besides $ref are all
// annotations a model can do without.
func onlyAnnotations(n *ordObject) bool {
	for _, k := range n.keys {
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
func (c *openaiConverter) unions(n *ordObject, path string) bool {
	one, ok := n.get("oneOf")
	if !ok || !isUnion(one) {
		return true // absent, or extra constraints moved to the description later
	}
	if isUnion(n.vals["anyOf"]) {
		c.block(path, "both anyOf and oneOf list alternatives")
		return false
	}
	if n.has("anyOf") {
		c.describe(n, path, "anyOf")
	}
	n.rename("oneOf", "anyOf")
	c.change(path, ChangeOneOfToAnyOf, "oneOf rewritten as anyOf (the local validator still checks oneOf)")
	return true
}

// mergeAllOf merges the branches of an allOf into n. It reports false
// when they cannot be merged. A branch that is a $ref stays active (in
// inlined) while n's children are converted, so a recursive allOf is
// caught rather than merged forever.
func (c *openaiConverter) mergeAllOf(n *ordObject, path string, inlined *[]string) bool {
	for round := 0; n.has("allOf"); round++ {
		branches, ok := n.vals["allOf"].([]any)
		if !ok || round >= 8 {
			c.block(path, "allOf cannot be merged")
			return false
		}
		n.del("allOf")
		for i, b := range branches {
			if bo, ok := b.(*ordObject); ok {
				if ref, ok := bo.str("$ref"); ok {
					if c.active[ref] || c.inlines >= openaiMaxInlines {
						c.block(path, "allOf through $ref %q is recursive and cannot be merged", ref)
						return false
					}
					c.active[ref] = true
					*inlined = append(*inlined, ref)
					c.inlines++
				}
			}
			bo := c.deref(b)
			if bo == nil {
				c.block(indexPath(childPath(path, "allOf"), i), "allOf branch is not a schema object in this document")
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

// deref returns the schema object v is, or that its bare $ref chain
// points to in the source document.
func (c *openaiConverter) deref(v any) *ordObject {
	o, _ := v.(*ordObject)
	for i := 0; o != nil && i < openaiMaxRefHops; i++ {
		ref, ok := o.str("$ref")
		if !ok || len(o.keys) > 1 {
			return o
		}
		t, _ := resolveLocalRef(c.root, ref)
		o, _ = t.(*ordObject)
	}
	if o != nil && o.has("$ref") && len(o.keys) == 1 {
		return nil
	}
	return o
}

// mergeInto merges the allOf branch b into n.
func (c *openaiConverter) mergeInto(n, b *ordObject, path string) bool {
	for _, k := range b.keys {
		v := b.vals[k]
		switch k {
		case "$defs", "definitions", "$schema", "$id", "$comment":
		case "description", "title":
			if !n.has(k) {
				n.set(k, v)
			}
		case "properties":
			bp, ok := v.(*ordObject)
			if !ok {
				c.block(path, "allOf branch has properties that are not an object")
				return false
			}
			np := newOrdObject()
			if old := n.obj("properties"); old != nil {
				np = old.clone()
			}
			for _, name := range bp.keys {
				if old, ok := np.get(name); ok && !equalOrdered(old, bp.vals[name]) {
					c.block(childPath(childPath(path, "properties"), name), "allOf branches define property %q differently", name)
					return false
				}
				np.set(name, bp.vals[name])
			}
			n.set("properties", np)
		case "required":
			req, _ := n.vals["required"].([]any)
			merged := append([]any(nil), req...)
			add, _ := v.([]any)
			for _, r := range add {
				if !containsValue(merged, r) {
					merged = append(merged, r)
				}
			}
			n.set("required", merged)
		default:
			if old, ok := n.get(k); ok && !equalOrdered(old, v) {
				c.block(path, "allOf branches disagree on %s", k)
				return false
			}
			n.set(k, v)
		}
	}
	return true
}

// inferType adds the type a typeless schema's keywords imply. It reports
// false when n accepts a value of any type.
func (c *openaiConverter) inferType(n *ordObject, path string) bool {
	if n.has("type") || n.has("enum") || n.has("const") || n.has("$ref") || isUnion(n.vals["anyOf"]) {
		return true
	}
	switch {
	case n.has("properties") || n.has("additionalProperties") || n.has("patternProperties") || n.has("required"):
		n.set("type", "object")
		c.change(path, ChangeAddedType, `type "object" added (the schema has object keywords)`)
	case n.has("items") || n.has("prefixItems"):
		n.set("type", "array")
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
func (c *openaiConverter) keywords(n *ordObject, path string) {
	var notes []string
	for _, k := range append([]string(nil), n.keys...) {
		v := n.vals[k]
		switch {
		case (k == "anyOf" || k == "oneOf") && !isUnion(v):
			notes = append(notes, c.describe(n, path, k))
		case k == "format":
			if f, ok := v.(string); ok && openaiFormats[f] && typeIncludes(n, "string") {
				continue
			}
			notes = append(notes, c.describe(n, path, k))
		case k == "exclusiveMinimum" || k == "exclusiveMaximum":
			if _, ok := v.(bool); ok {
				notes = append(notes, c.describe(n, path, k))
			}
		case k == "description":
			if _, ok := v.(string); !ok {
				n.del(k)
				c.change(path, ChangeDropped, "description that is not a string dropped")
			}
		case k == "unevaluatedProperties" && v == false:
			n.del(k)
			c.change(path, ChangeDropped, "unevaluatedProperties false dropped (objects are closed)")
		case k == "patternProperties":
			if m, ok := v.(*ordObject); ok && len(m.keys) == 0 {
				n.del(k)
				c.change(path, ChangeDropped, "empty patternProperties dropped")
				continue
			}
			c.block(path, "patternProperties (keys chosen by the model) has no strict form")
		case k == "prefixItems":
			c.block(path, "prefixItems (a tuple) has no strict form")
		case k == "items":
			if _, ok := v.([]any); ok {
				c.block(path, "items as a list (a draft-07 tuple) has no strict form")
			}
		case k == "$dynamicRef" || k == "$recursiveRef":
			c.block(path, "%s has no strict form", k)
		case openaiKept[k]:
		case openaiDescribed[k]:
			notes = append(notes, c.describe(n, path, k))
		default:
			n.del(k)
			c.change(path, ChangeDropped, "%s dropped", k)
		}
	}
	if len(notes) == 0 {
		return
	}
	text := "(" + strings.Join(notes, "; ") + ")"
	if d, _ := n.str("description"); d != "" {
		text = d + " " + text
	}
	n.set("description", text)
}

// describe removes keyword k from n and returns the note for the
// description.
func (c *openaiConverter) describe(n *ordObject, path, k string) string {
	note := k + ": " + compactText(n.vals[k], openaiNoteLimit)
	n.del(k)
	c.change(path, ChangeMovedToDescription, "%s moved into the description", k)
	return note
}

// children converts the schemas nested in n.
func (c *openaiConverter) children(n *ordObject, path string) {
	for _, k := range []string{"properties", "$defs", "definitions"} {
		v, ok := n.get(k)
		if !ok {
			continue
		}
		m, ok := v.(*ordObject)
		if !ok {
			c.block(childPath(path, k), "%s is not an object", k)
			continue
		}
		out := newOrdObject()
		for _, name := range m.keys {
			out.set(name, c.node(m.vals[name], childPath(childPath(path, k), name)))
		}
		n.set(k, out)
	}
	if items, ok := n.get("items"); ok {
		if _, isList := items.([]any); !isList {
			n.set("items", c.node(items, childPath(path, "items")))
		}
	}
	if v, ok := n.get("anyOf"); ok {
		branches, ok := v.([]any)
		if !ok {
			c.block(childPath(path, "anyOf"), "anyOf is not a list")
			return
		}
		out := make([]any, len(branches))
		for i, b := range branches {
			out[i] = c.node(b, indexPath(childPath(path, "anyOf"), i))
		}
		n.set("anyOf", out)
	}
}

// object closes the object n and makes every property required, the
// optional ones nullable.
func (c *openaiConverter) object(n *ordObject, path string) {
	props := n.obj("properties")
	count := 0
	if props != nil {
		count = len(props.keys)
	}
	ap, hasAP := n.get("additionalProperties")
	switch {
	case hasAP && ap == false:
	case count == 0:
		c.block(path, "an object without properties (any keys) has no strict form")
		return
	case hasAP && !isTrueSchema(ap):
		c.block(path, "additionalProperties with a schema (a map) has no strict form")
		return
	default:
		n.set("additionalProperties", false)
		c.change(path, ChangeClosedObject, "additionalProperties false added")
	}
	required := map[string]bool{}
	if v, ok := n.get("required"); ok {
		list, _ := v.([]any)
		for _, r := range list {
			name, _ := r.(string)
			if props == nil || !props.has(name) {
				c.block(path, "required property %q is not declared in properties", name)
				return
			}
			required[name] = true
		}
	}
	if count == 0 {
		return
	}
	all := make([]any, 0, count)
	optional := map[string]bool{}
	for _, name := range props.keys {
		all = append(all, name)
		if required[name] {
			continue
		}
		props.set(name, openaiNullable(props.vals[name]))
		optional[name] = true
		c.change(childPath(childPath(path, "properties"), name), ChangeMadeNullable,
			"optional property %q made required and nullable; Restore removes its null", name)
	}
	n.set("required", all)
	if len(optional) > 0 {
		c.optional[n] = optional
	}
}

// isTrueSchema reports whether v accepts everything (true or {}).
func isTrueSchema(v any) bool {
	if b, ok := v.(bool); ok {
		return b
	}
	o, ok := v.(*ordObject)
	return ok && len(o.keys) == 0
}

// openaiNullable returns the converted schema v extended to accept null:
// a type list for scalars, anyOf with {"type":"null"} otherwise.
func openaiNullable(v any) any {
	o, ok := v.(*ordObject)
	if !ok {
		return v
	}
	if t, ok := o.get("type"); ok && !o.has("const") && !o.has("anyOf") && !typeIncludes(o, "object") && !typeIncludes(o, "array") {
		switch t := t.(type) {
		case string:
			if t != "null" {
				o.set("type", []any{t, "null"})
			}
		case []any:
			if !containsValue(t, "null") {
				o.set("type", append(append([]any(nil), t...), "null"))
			}
		}
		if e, ok := o.get("enum"); ok {
			if list, ok := e.([]any); ok && !containsValue(list, nil) {
				o.set("enum", append(append([]any(nil), list...), nil))
			}
		}
		return o
	}
	if typeIncludes(o, "null") {
		return o
	}
	if list, ok := o.vals["enum"].([]any); ok && !o.has("anyOf") && !o.has("$ref") && !o.has("const") {
		if !containsValue(list, nil) {
			o.set("enum", append(append([]any(nil), list...), nil))
		}
		return o
	}
	if branches, ok := o.vals["anyOf"].([]any); ok && onlyKeys(o, "anyOf", "description", "title") {
		for _, b := range branches {
			if bo, ok := b.(*ordObject); ok && len(bo.keys) == 1 && bo.vals["type"] == "null" {
				return o
			}
		}
		o.set("anyOf", append(append([]any(nil), branches...), nullSchema()))
		return o
	}
	w := newOrdObject()
	w.set("anyOf", []any{o, nullSchema()})
	return w
}

func nullSchema() *ordObject {
	o := newOrdObject()
	o.set("type", "null")
	return o
}

// checkLimits blocks on the sizes over OpenAI's documented limits.
func (c *openaiConverter) checkLimits(root *ordObject) {
	var props, enums, chars int
	visit := func(o *ordObject) {
		if p := o.obj("properties"); p != nil {
			props += len(p.keys)
			for _, k := range p.keys {
				chars += utf8.RuneCountInString(k)
			}
		}
		for _, k := range []string{"$defs", "definitions"} {
			if d := o.obj(k); d != nil {
				for _, name := range d.keys {
					chars += utf8.RuneCountInString(name)
				}
			}
		}
		if list, ok := o.vals["enum"].([]any); ok {
			enums += len(list)
			enumChars := 0
			for _, e := range list {
				if s, ok := e.(string); ok {
					enumChars += utf8.RuneCountInString(s)
				}
			}
			chars += enumChars
			if len(list) > openaiLargeEnum && enumChars > openaiLargeEnumChars {
				c.block("$", "an enum of %d values totals %d characters (at most %d over %d values)",
					len(list), enumChars, openaiLargeEnumChars, openaiLargeEnum)
			}
		}
		if s, ok := o.vals["const"].(string); ok {
			chars += utf8.RuneCountInString(s)
		}
	}
	visit(root)
	eachSubschema(root, visit)
	if props > openaiMaxProperties {
		c.block("$", "%d object properties (at most %d)", props, openaiMaxProperties)
	}
	if enums > openaiMaxEnumValues {
		c.block("$", "%d enum values (at most %d)", enums, openaiMaxEnumValues)
	}
	if chars > openaiMaxStringChars {
		c.block("$", "names and enum/const strings total %d characters (at most %d)", chars, openaiMaxStringChars)
	}
	if d := c.depth(root, root, map[*ordObject]bool{}, map[*ordObject]int{}); d > openaiMaxDepth {
		c.block("$", "objects nested %d levels deep (at most %d)", d, openaiMaxDepth)
	}
}

// depth returns how many object levels v nests, following references;
// a recursive reference adds nothing.
func (c *openaiConverter) depth(root *ordObject, v any, onPath map[*ordObject]bool, memo map[*ordObject]int) int {
	o, ok := v.(*ordObject)
	if !ok {
		return 0
	}
	if ref, ok := o.str("$ref"); ok {
		t, _ := resolveLocalRef(root, ref)
		to, ok := t.(*ordObject)
		if !ok || onPath[to] {
			return 0
		}
		return c.depth(root, to, onPath, memo)
	}
	if d, ok := memo[o]; ok {
		return d
	}
	onPath[o] = true
	best := 0
	consider := func(v any) {
		if d := c.depth(root, v, onPath, memo); d > best {
			best = d
		}
	}
	if p := o.obj("properties"); p != nil {
		for _, k := range p.keys {
			consider(p.vals[k])
		}
	}
	consider(o.vals["items"])
	if branches, ok := o.vals["anyOf"].([]any); ok {
		for _, b := range branches {
			consider(b)
		}
	}
	delete(onPath, o)
	if typeIncludes(o, "object") {
		best++
	}
	memo[o] = best
	return best
}

// An openaiRestorer maps a value produced against a strict schema back:
// it removes the nulls of formerly optional properties. It only reads its
// fields, so it may be used concurrently.
type openaiRestorer struct {
	root     *ordObject
	optional map[*ordObject]map[string]bool
}

// deref follows s's $ref chain in the converted document.
func (r *openaiRestorer) deref(s any) *ordObject {
	o, _ := s.(*ordObject)
	for i := 0; o != nil && i < openaiMaxRefHops; i++ {
		ref, ok := o.str("$ref")
		if !ok {
			return o
		}
		t, _ := resolveLocalRef(r.root, ref)
		o, _ = t.(*ordObject)
	}
	return nil
}

// value restores v produced against schema s; hops counts the unions
// crossed without descending into v.
func (r *openaiRestorer) value(v any, s any, hops int) any {
	o := r.deref(s)
	if o == nil || v == nil || hops > openaiMaxRefHops {
		return v
	}
	if branches, ok := o.vals["anyOf"].([]any); ok {
		if b := r.pick(v, branches); b != nil {
			return r.value(v, b, hops+1)
		}
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		props := o.obj("properties")
		optional := r.optional[o]
		if props == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if e == nil && optional[k] {
				continue
			}
			if ps, ok := props.get(k); ok {
				out[k] = r.value(e, ps, 0)
				continue
			}
			out[k] = e
		}
		return out
	case []any:
		items, ok := o.get("items")
		if !ok {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = r.value(e, items, 0)
		}
		return out
	}
	return v
}

// pick chooses the anyOf branch v was produced against: for an object the
// branch with exactly its keys (strict objects have all keys), else the
// first branch of v's kind.
func (r *openaiRestorer) pick(v any, branches []any) any {
	switch x := v.(type) {
	case map[string]any:
		var fallback any
		for _, b := range branches {
			o := r.deref(b)
			if o == nil {
				continue
			}
			if props := o.obj("properties"); props != nil && len(props.keys) == len(x) {
				same := true
				for k := range x {
					if !props.has(k) {
						same = false
						break
					}
				}
				if same {
					return b
				}
			}
			if fallback == nil && (typeIncludes(o, "object") || o.has("anyOf")) {
				fallback = b
			}
		}
		return fallback
	case []any:
		for _, b := range branches {
			if o := r.deref(b); o != nil && (typeIncludes(o, "array") || o.has("anyOf")) {
				return b
			}
		}
	}
	return nil
}

// typeIncludes reports whether o's type is t or lists t.
func typeIncludes(o *ordObject, t string) bool {
	switch v := o.vals["type"].(type) {
	case string:
		return v == t
	case []any:
		return containsValue(v, t)
	}
	return false
}

// onlyKeys reports whether o has no keys but those listed.
func onlyKeys(o *ordObject, keys ...string) bool {
	for _, k := range o.keys {
		found := false
		for _, want := range keys {
			if k == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// containsValue reports whether list holds the scalar v.
func containsValue(list []any, v any) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}

// equalOrdered reports whether two decoded values are equal, key order
// ignored.
func equalOrdered(a, b any) bool {
	switch x := a.(type) {
	case *ordObject:
		y, ok := b.(*ordObject)
		if !ok || len(x.keys) != len(y.keys) {
			return false
		}
		for k, v := range x.vals {
			w, ok := y.vals[k]
			if !ok || !equalOrdered(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalOrdered(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}
