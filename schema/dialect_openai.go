package schema

import (
	"fmt"
	"slices"
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
	root, err := decodeTree(src, maxSchemaDepth)
	if err != nil {
		return nil, fmt.Errorf("%w: openai dialect: %w", ErrUnconvertible, err)
	}
	doc := root
	switch root.kind {
	case jObject:
	case jBool:
		if !root.b {
			return nil, fmt.Errorf("%w: openai dialect: the schema false accepts no value", ErrUnconvertible)
		}
		doc = &jnode{kind: jObject}
	default:
		return nil, fmt.Errorf("%w: openai dialect: the schema is not a JSON object", ErrUnconvertible)
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
		root:     doc.deepCopy(),
		optional: map[*jnode]map[string]bool{},
		active:   map[string]bool{},
	}
	strict := c.convert()
	if len(c.blockers) == 0 {
		c.checkLimits(strict)
	}
	if len(c.blockers) > 0 {
		conv.Schema = doc.appendJSON(nil)
		conv.Changes = append(changes, c.blockers...)
		if conv.Wrapped {
			conv.restore = unwrap
		}
		return conv, nil
	}
	conv.Strict = true
	conv.Schema = strict.appendJSON(nil)
	conv.Changes = append(changes, c.changes...)
	r := &openaiRestorer{root: strict, optional: c.optional}
	conv.restore = func(v any) any { return unwrap(r.value(v, strict, 0)) }
	conv.rewrites = true
	return conv, nil
}

// openaiObjectRoot reports whether doc describes objects without a union
// at its root (following a root $ref, and the branches of a root allOf),
// so it needs no wrapping.
func openaiObjectRoot(doc *jnode) bool { return objectSchema(doc, doc, 0) }

// objectSchema reports whether o, a schema in doc, describes objects
// without a union; depth bounds the references and allOf branches
// followed.
func objectSchema(doc, o *jnode, depth int) bool {
	if depth > openaiMaxRefHops {
		return false
	}
	if ref, ok := o.str("$ref"); ok {
		to := doc.resolveRef(ref)
		return to != nil && to.kind == jObject && objectSchema(doc, to, depth+1)
	}
	if isUnion(o.get("anyOf")) || isUnion(o.get("oneOf")) || o.has("enum") || o.has("const") || o.has("items") {
		return false
	}
	if t := o.get("type"); t != nil {
		return t.isString("object")
	}
	if all, ok := o.list("allOf"); ok && len(all) > 0 {
		for _, b := range all {
			if b.kind != jObject || !objectSchema(doc, b, depth+1) {
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
func isUnion(v *jnode) bool {
	if v == nil || v.kind != jArray {
		return false
	}
	for _, b := range v.arr {
		if b.kind != jObject {
			return true
		}
		for _, k := range typeKeywords {
			if b.has(k) {
				return true
			}
		}
	}
	return false
}

// openaiWrap returns {"type":"object","properties":{key: inner},...} with
// inner's $schema, $id and definitions hoisted and its references rewritten
// to keep pointing where they did.
func openaiWrap(inner *jnode, key string) *jnode {
	inner = inner.clone()
	prefix := "#/properties/" + escapePointer(key)
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
	w := &jnode{kind: jObject}
	for _, k := range []string{"$schema", "$id"} {
		if v := inner.get(k); v != nil {
			w.set(k, v)
			inner.del(k)
		}
	}
	w.set("type", &jnode{kind: jString, s: "object"})
	w.set("properties", &jnode{kind: jObject, keys: []string{key}, vals: []*jnode{inner}})
	w.set("required", &jnode{kind: jArray, arr: []*jnode{{kind: jString, s: key}}})
	w.set("additionalProperties", &jnode{kind: jBool})
	for _, k := range []string{"$defs", "definitions"} {
		if v := inner.get(k); v != nil {
			w.set(k, v)
			inner.del(k)
		}
	}
	return w
}

// rewriteRefs replaces, in place, every $ref in n and below by
// mapRef(ref).
func rewriteRefs(n *jnode, mapRef func(string) string) {
	walkSchemas(n, func(s *jnode) {
		if ref, ok := s.str("$ref"); ok {
			s.set("$ref", &jnode{kind: jString, s: mapRef(ref)})
		}
	})
}

// An openaiConverter rewrites one schema document for strict mode. It
// works on its own copy of the document and is used once.
type openaiConverter struct {
	root     *jnode // the source document, for resolving references
	changes  []Change
	blockers []Change
	optional map[*jnode]map[string]bool // converted object → formerly optional properties
	active   map[string]bool            // references being inlined
	inlines  int
}

func (c *openaiConverter) change(path *ipath, kind, format string, args ...any) {
	enforced := kind == ChangeMovedToDescription || kind == ChangeOneOfToAnyOf
	c.changes = append(c.changes, Change{Path: path.segments().jsonPath(), Kind: kind, Detail: fmt.Sprintf(format, args...), Enforced: enforced})
}

func (c *openaiConverter) block(path *ipath, format string, args ...any) {
	c.blockers = append(c.blockers, Change{Path: path.segments().jsonPath(), Kind: ChangeNotStrict, Detail: fmt.Sprintf(format, args...)})
}

// convert returns the strict form of the whole document.
func (c *openaiConverter) convert() *jnode {
	c.renameDefinitions()
	c.pruneDefinitions()
	out := c.node(c.root, nil)
	if out.kind != jObject {
		return &jnode{kind: jObject}
	}
	if !typeIncludes(out, "object") || out.has("anyOf") || out.has("$ref") {
		c.block(nil, "the root must be an object schema without anyOf")
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
		target = &jnode{kind: jObject}
	} else {
		target = target.clone()
	}
	for i, name := range defs.keys {
		if target.has(name) {
			c.block((*ipath)(nil).key("definitions"), "definition %q exists in both definitions and $defs", name)
			return
		}
		target.set(name, defs.vals[i])
	}
	c.root.del("definitions")
	c.root.set("$defs", target)
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
	defs := c.root.obj("$defs")
	if defs == nil {
		return
	}
	used := map[string]bool{}
	var queue []*jnode
	collect := func(s *jnode) {
		ref, ok := s.str("$ref")
		if !ok || !strings.HasPrefix(ref, "#/$defs/") {
			return
		}
		name := unescapeRefToken(strings.SplitN(ref[len("#/$defs/"):], "/", 2)[0])
		if used[name] {
			return
		}
		used[name] = true
		if d := defs.obj(name); d != nil {
			queue = append(queue, d)
		}
	}
	top := c.root.clone()
	top.del("$defs")
	walkSchemas(top, collect)
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		walkSchemas(d, collect)
	}
	kept := &jnode{kind: jObject}
	for i, name := range defs.keys {
		if used[name] {
			kept.keys = append(kept.keys, name)
			kept.vals = append(kept.vals, defs.vals[i])
			continue
		}
		c.change((*ipath)(nil).key("$defs").key(name), ChangeDropped, "definition %q dropped: no $ref uses it", name)
	}
	if len(kept.keys) == 0 {
		c.root.del("$defs")
		return
	}
	c.root.set("$defs", kept)
}

// node converts the schema v found at path.
func (c *openaiConverter) node(v *jnode, path *ipath) *jnode {
	switch v.kind {
	case jObject:
		return c.schema(v, path)
	case jBool:
		c.block(path, "the boolean schema %t has no strict form", v.b)
		return v
	default:
		c.block(path, "a schema must be a JSON object")
		return v
	}
}

// schema converts one schema object; src is not modified.
func (c *openaiConverter) schema(src *jnode, path *ipath) *jnode {
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
func (c *openaiConverter) inlineRef(n *jnode, path *ipath, inlined *[]string) *jnode {
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
		target := c.root.resolveRef(ref)
		if target == nil || target.kind != jObject {
			c.block(path, "$ref %q does not point to a schema object in this document", ref)
			return n
		}
		merged := target.clone()
		for _, k := range []string{"$defs", "definitions", "$schema", "$id"} {
			merged.del(k)
		}
		for i, k := range n.keys {
			if k != "$ref" {
				merged.set(k, n.vals[i])
			}
		}
		c.active[ref] = true
		*inlined = append(*inlined, ref)
		c.inlines++
		c.change(path, ChangeInlinedRef, "$ref %q with sibling keywords replaced by the schema it points to", ref)
		n = merged
	}
	if ref, ok := n.str("$ref"); ok {
		if c.root.resolveRef(ref) == nil {
			c.block(path, "$ref %q does not point into this document", ref)
		}
	}
	return n
}

// onlyAnnotations reports whether n's keywords besides $ref are all
// annotations a model can do without.
func onlyAnnotations(n *jnode) bool {
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
func (c *openaiConverter) unions(n *jnode, path *ipath) bool {
	if !isUnion(n.get("oneOf")) {
		return true // absent, or extra constraints moved to the description later
	}
	if isUnion(n.get("anyOf")) {
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
func (c *openaiConverter) mergeAllOf(n *jnode, path *ipath, inlined *[]string) bool {
	for round := 0; n.has("allOf"); round++ {
		branches, ok := n.list("allOf")
		if !ok || round >= 8 {
			c.block(path, "allOf cannot be merged")
			return false
		}
		n.del("allOf")
		for i, b := range branches {
			if ref, ok := b.str("$ref"); ok {
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
				c.block(path.key("allOf").index(i), "allOf branch is not a schema object in this document")
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

// deref returns the schema object v is, or the one its chain of bare
// $refs (a $ref alone in its object) points to in the document root; nil
// when v is not an object, the chain leads nowhere, or it is longer than
// openaiMaxRefHops. The converter calls it on the source document, the
// restorer on the strict one, where no $ref has siblings.
func deref(root, v *jnode) *jnode {
	o := objectOrNil(v)
	for hops := 0; o != nil; hops++ {
		ref, ok := o.str("$ref")
		if !ok || len(o.keys) > 1 {
			return o
		}
		if hops == openaiMaxRefHops {
			return nil
		}
		o = objectOrNil(root.resolveRef(ref))
	}
	return nil
}

// mergeInto merges the allOf branch b into n.
func (c *openaiConverter) mergeInto(n, b *jnode, path *ipath) bool {
	for i, k := range b.keys {
		v := b.vals[i]
		switch k {
		case "$defs", "definitions", "$schema", "$id", "$comment":
		case "description", "title":
			if !n.has(k) {
				n.set(k, v)
			}
		case "properties":
			if v.kind != jObject {
				c.block(path, "allOf branch has properties that are not an object")
				return false
			}
			np := &jnode{kind: jObject}
			if old := n.obj("properties"); old != nil {
				np = old.clone()
			}
			for j, name := range v.keys {
				if old := np.get(name); old != nil && !old.equal(v.vals[j]) {
					c.block(path.key("properties").key(name), "allOf branches define property %q differently", name)
					return false
				}
				np.set(name, v.vals[j])
			}
			n.set("properties", np)
		case "required":
			req, _ := n.list("required")
			merged := &jnode{kind: jArray, arr: slices.Clone(req)}
			if v.kind == jArray {
				for _, r := range v.arr {
					if !containsValue(merged.arr, r) {
						merged.arr = append(merged.arr, r)
					}
				}
			}
			n.set("required", merged)
		default:
			if old := n.get(k); old != nil && !old.equal(v) {
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
func (c *openaiConverter) inferType(n *jnode, path *ipath) bool {
	if n.has("type") || n.has("enum") || n.has("const") || n.has("$ref") || isUnion(n.get("anyOf")) {
		return true
	}
	switch {
	case n.has("properties") || n.has("additionalProperties") || n.has("patternProperties") || n.has("required"):
		n.set("type", &jnode{kind: jString, s: "object"})
		c.change(path, ChangeAddedType, `type "object" added (the schema has object keywords)`)
	case n.has("items") || n.has("prefixItems"):
		n.set("type", &jnode{kind: jString, s: "array"})
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
func (c *openaiConverter) keywords(n *jnode, path *ipath) {
	var notes []string
	keys := slices.Clone(n.keys)
	vals := slices.Clone(n.vals)
	for i, k := range keys {
		v := vals[i]
		switch {
		case (k == "anyOf" || k == "oneOf") && !isUnion(v):
			notes = append(notes, c.describe(n, path, k))
		case k == "format":
			if v.kind == jString && openaiFormats[v.s] && typeIncludes(n, "string") {
				continue
			}
			notes = append(notes, c.describe(n, path, k))
		case k == "exclusiveMinimum" || k == "exclusiveMaximum":
			if v.kind == jBool {
				notes = append(notes, c.describe(n, path, k))
			}
		case k == "description":
			if v.kind != jString {
				n.del(k)
				c.change(path, ChangeDropped, "description that is not a string dropped")
			}
		case k == "unevaluatedProperties" && v.isFalse():
			n.del(k)
			c.change(path, ChangeDropped, "unevaluatedProperties false dropped (objects are closed)")
		case k == "patternProperties":
			if v.kind == jObject && len(v.keys) == 0 {
				n.del(k)
				c.change(path, ChangeDropped, "empty patternProperties dropped")
				continue
			}
			c.block(path, "patternProperties (keys chosen by the model) has no strict form")
		case k == "prefixItems":
			c.block(path, "prefixItems (a tuple) has no strict form")
		case k == "items":
			if v.kind == jArray {
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
	n.set("description", &jnode{kind: jString, s: text})
}

// describe removes keyword k from n and returns the note for the
// description.
func (c *openaiConverter) describe(n *jnode, path *ipath, k string) string {
	note := k + ": " + compactText(n.get(k), openaiNoteLimit)
	n.del(k)
	c.change(path, ChangeMovedToDescription, "%s moved into the description", k)
	return note
}

// children converts the schemas nested in n.
func (c *openaiConverter) children(n *jnode, path *ipath) {
	for _, k := range []string{"properties", "$defs", "definitions"} {
		m := n.get(k)
		if m == nil {
			continue
		}
		if m.kind != jObject {
			c.block(path.key(k), "%s is not an object", k)
			continue
		}
		// The names are distinct already: no need for set's search.
		out := &jnode{kind: jObject, keys: slices.Clone(m.keys), vals: make([]*jnode, len(m.vals))}
		at := path.key(k)
		for i, name := range m.keys {
			out.vals[i] = c.node(m.vals[i], at.key(name))
		}
		n.set(k, out)
	}
	if items := n.get("items"); items != nil && items.kind != jArray {
		n.set("items", c.node(items, path.key("items")))
	}
	if v := n.get("anyOf"); v != nil {
		if v.kind != jArray {
			c.block(path.key("anyOf"), "anyOf is not a list")
			return
		}
		out := &jnode{kind: jArray, arr: make([]*jnode, len(v.arr))}
		at := path.key("anyOf")
		for i, b := range v.arr {
			out.arr[i] = c.node(b, at.index(i))
		}
		n.set("anyOf", out)
	}
}

// object closes the object n and makes every property required, the
// optional ones nullable.
func (c *openaiConverter) object(n *jnode, path *ipath) {
	props := n.obj("properties")
	count := 0
	if props != nil {
		count = len(props.keys)
	}
	ap := n.get("additionalProperties")
	switch {
	case ap.isFalse():
	case count == 0:
		c.block(path, "an object without properties (any keys) has no strict form")
		return
	case ap != nil && !isTrueSchema(ap):
		c.block(path, "additionalProperties with a schema (a map) has no strict form")
		return
	default:
		n.set("additionalProperties", &jnode{kind: jBool})
		c.change(path, ChangeClosedObject, "additionalProperties false added")
	}
	required := map[string]bool{}
	if v := n.get("required"); v != nil {
		var list []*jnode
		if v.kind == jArray {
			list = v.arr
		}
		for _, r := range list {
			var name string
			if r.kind == jString {
				name = r.s
			}
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
	all := &jnode{kind: jArray, arr: make([]*jnode, 0, count)}
	optional := map[string]bool{}
	for i, name := range props.keys {
		all.arr = append(all.arr, &jnode{kind: jString, s: name})
		if required[name] {
			continue
		}
		props.vals[i] = openaiNullable(props.vals[i])
		optional[name] = true
		c.change(path.key("properties").key(name), ChangeMadeNullable,
			"optional property %q made required and nullable; Restore removes its null", name)
	}
	n.set("required", all)
	if len(optional) > 0 {
		c.optional[n] = optional
	}
}

// isTrueSchema reports whether v accepts everything (true or {}).
func isTrueSchema(v *jnode) bool {
	if v.kind == jBool {
		return v.b
	}
	return v.kind == jObject && len(v.keys) == 0
}

// openaiNullable returns the converted schema o extended to accept null:
// a type list for scalars, anyOf with {"type":"null"} otherwise.
func openaiNullable(o *jnode) *jnode {
	if o.kind != jObject {
		return o
	}
	if t := o.get("type"); t != nil && !o.has("const") && !o.has("anyOf") && !typeIncludes(o, "object") && !typeIncludes(o, "array") {
		switch t.kind {
		case jString:
			if t.s != "null" {
				o.set("type", &jnode{kind: jArray, arr: []*jnode{t, {kind: jString, s: "null"}}})
			}
		case jArray:
			if !containsValue(t.arr, &jnode{kind: jString, s: "null"}) {
				o.set("type", &jnode{kind: jArray, arr: append(slices.Clone(t.arr), &jnode{kind: jString, s: "null"})})
			}
		}
		if list, ok := o.list("enum"); ok && !containsValue(list, &jnode{kind: jNull}) {
			o.set("enum", &jnode{kind: jArray, arr: append(slices.Clone(list), &jnode{kind: jNull})})
		}
		return o
	}
	if typeIncludes(o, "null") {
		return o
	}
	if list, ok := o.list("enum"); ok && !o.has("anyOf") && !o.has("$ref") && !o.has("const") {
		if !containsValue(list, &jnode{kind: jNull}) {
			o.set("enum", &jnode{kind: jArray, arr: append(slices.Clone(list), &jnode{kind: jNull})})
		}
		return o
	}
	if branches, ok := o.list("anyOf"); ok && onlyKeys(o, "anyOf", "description", "title") {
		for _, b := range branches {
			if b.kind == jObject && len(b.keys) == 1 && b.get("type").isString("null") {
				return o
			}
		}
		o.set("anyOf", &jnode{kind: jArray, arr: append(slices.Clone(branches), nullSchema())})
		return o
	}
	return &jnode{kind: jObject, keys: []string{"anyOf"}, vals: []*jnode{{kind: jArray, arr: []*jnode{o, nullSchema()}}}}
}

// nullSchema returns a new {"type":"null"}.
func nullSchema() *jnode {
	return &jnode{kind: jObject, keys: []string{"type"}, vals: []*jnode{{kind: jString, s: "null"}}}
}

// checkLimits blocks on the sizes over OpenAI's documented limits.
func (c *openaiConverter) checkLimits(root *jnode) {
	var props, enums, chars int
	walkSchemas(root, func(o *jnode) {
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
		if list, ok := o.list("enum"); ok {
			enums += len(list)
			enumChars := 0
			for _, e := range list {
				if e.kind == jString {
					enumChars += utf8.RuneCountInString(e.s)
				}
			}
			chars += enumChars
			if len(list) > openaiLargeEnum && enumChars > openaiLargeEnumChars {
				c.block(nil, "an enum of %d values totals %d characters (at most %d over %d values)",
					len(list), enumChars, openaiLargeEnumChars, openaiLargeEnum)
			}
		}
		if s, ok := o.str("const"); ok {
			chars += utf8.RuneCountInString(s)
		}
	})
	if props > openaiMaxProperties {
		c.block(nil, "%d object properties (at most %d)", props, openaiMaxProperties)
	}
	if enums > openaiMaxEnumValues {
		c.block(nil, "%d enum values (at most %d)", enums, openaiMaxEnumValues)
	}
	if chars > openaiMaxStringChars {
		c.block(nil, "names and enum/const strings total %d characters (at most %d)", chars, openaiMaxStringChars)
	}
	if d := c.depth(root, root, map[*jnode]bool{}, map[*jnode]int{}); d > openaiMaxDepth {
		c.block(nil, "objects nested %d levels deep (at most %d)", d, openaiMaxDepth)
	}
}

// depth returns how many object levels v nests, following references;
// a recursive reference adds nothing.
func (c *openaiConverter) depth(root, v *jnode, onPath map[*jnode]bool, memo map[*jnode]int) int {
	o := objectOrNil(v)
	if o == nil {
		return 0
	}
	if ref, ok := o.str("$ref"); ok {
		to := objectOrNil(root.resolveRef(ref))
		if to == nil || onPath[to] {
			return 0
		}
		return c.depth(root, to, onPath, memo)
	}
	if d, ok := memo[o]; ok {
		return d
	}
	onPath[o] = true
	best := 0
	consider := func(v *jnode) {
		if d := c.depth(root, v, onPath, memo); d > best {
			best = d
		}
	}
	if p := o.obj("properties"); p != nil {
		for _, v := range p.vals {
			consider(v)
		}
	}
	consider(o.get("items"))
	if branches, ok := o.list("anyOf"); ok {
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
	root     *jnode
	optional map[*jnode]map[string]bool
}

// value restores v produced against schema s; hops counts the unions
// crossed without descending into v.
func (r *openaiRestorer) value(v any, s *jnode, hops int) any {
	o := deref(r.root, s)
	if o == nil || v == nil || hops > openaiMaxRefHops {
		return v
	}
	if branches, ok := o.list("anyOf"); ok {
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
			if ps := props.get(k); ps != nil {
				out[k] = r.value(e, ps, 0)
				continue
			}
			out[k] = e
		}
		return out
	case []any:
		items := o.get("items")
		if items == nil {
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
func (r *openaiRestorer) pick(v any, branches []*jnode) *jnode {
	switch x := v.(type) {
	case map[string]any:
		var fallback *jnode
		for _, b := range branches {
			o := deref(r.root, b)
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
			if o := deref(r.root, b); o != nil && (typeIncludes(o, "array") || o.has("anyOf")) {
				return b
			}
		}
	}
	return nil
}

// typeIncludes reports whether o's type is t or lists t.
func typeIncludes(o *jnode, t string) bool {
	v := o.get("type")
	if v == nil {
		return false
	}
	switch v.kind {
	case jString:
		return v.s == t
	case jArray:
		return containsValue(v.arr, &jnode{kind: jString, s: t})
	}
	return false
}

// onlyKeys reports whether o has no keys but those listed.
func onlyKeys(o *jnode, keys ...string) bool {
	for _, k := range o.keys {
		if !slices.Contains(keys, k) {
			return false
		}
	}
	return true
}

// containsValue reports whether list holds the scalar v (an object or an
// array in list is never equal to it).
func containsValue(list []*jnode, v *jnode) bool {
	for _, e := range list {
		if e.kind < jArray && e.equal(v) {
			return true
		}
	}
	return false
}

// objectOrNil returns v when it is an object, else nil.
func objectOrNil(v *jnode) *jnode {
	if v == nil || v.kind != jObject {
		return nil
	}
	return v
}
