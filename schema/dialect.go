package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Dialect names a provider's flavour of JSON Schema: the subset of keywords
// it accepts for native structured output and tool inputs.
type Dialect string

// The dialects.
const (
	// DialectPassthrough sends the schema unchanged (the zero value).
	DialectPassthrough Dialect = ""
	// DialectOpenAI is OpenAI's strict structured-output subset: an object
	// root, additionalProperties false on every object, every property
	// required, anyOf but no oneOf/allOf, a short list of string, number
	// and array keywords, and limits on size and nesting.
	DialectOpenAI Dialect = "openai"
)

// A Conversion is a schema rewritten for a provider's dialect, with what the
// rewrite changed and how to map the provider's output back. Validation
// always uses the original schema: call [Conversion.Restore] on the
// provider's output first.
//
// A Conversion is immutable and safe for concurrent use.
type Conversion struct {
	// Dialect is the dialect converted to.
	Dialect Dialect
	// Schema is the rewritten schema, minified, with the author's key order
	// kept (OpenAI produces keys in schema order).
	Schema json.RawMessage
	// Strict reports whether Schema may be sent with the provider's strict
	// flag; when false, send it non-strict or use another mode. The
	// reasons are the Changes of kind [ChangeNotStrict].
	Strict bool
	// Wrapped reports that the original root was not an object and was
	// wrapped as the single required property WrapKey.
	Wrapped bool
	// WrapKey is the wrapping property's name when Wrapped ("value").
	WrapKey string
	// Changes lists what the rewrite changed or dropped, and when Strict is
	// false why the schema cannot be strict, in schema order.
	Changes []Change

	restore func(v any) any
}

// A Change is one edit a dialect conversion made to a schema, or one reason
// it could not make the schema strict.
type Change struct {
	// Path locates the edited subschema, JSONPath style ("$.properties.tags").
	Path string `json:"path"`
	// Kind names the edit: one of the Change* constants.
	Kind string `json:"kind"`
	// Detail says what was done, in words.
	Detail string `json:"detail"`
}

// The kinds of [Change].
const (
	// ChangeWrappedRoot: a root that is not an object was wrapped as the
	// single required property [Conversion.WrapKey].
	ChangeWrappedRoot = "wrapped_root"
	// ChangeClosedObject: additionalProperties false was added to an object.
	ChangeClosedObject = "closed_object"
	// ChangeMadeNullable: an optional property was made required and
	// nullable; [Conversion.Restore] removes its nulls again.
	ChangeMadeNullable = "made_nullable"
	// ChangeOneOfToAnyOf: oneOf was rewritten as anyOf.
	ChangeOneOfToAnyOf = "oneof_to_anyof"
	// ChangeMergedAllOf: the branches of an allOf were merged into their
	// parent schema.
	ChangeMergedAllOf = "merged_allof"
	// ChangeInlinedRef: a $ref with sibling keywords was replaced by the
	// schema it points to.
	ChangeInlinedRef = "inlined_ref"
	// ChangeRenamedDefinitions: draft-07 definitions were moved to $defs.
	ChangeRenamedDefinitions = "renamed_definitions"
	// ChangeAddedType: a missing type was inferred from the keywords
	// present (properties: object, items: array).
	ChangeAddedType = "added_type"
	// ChangeMovedToDescription: a keyword the dialect does not support was
	// removed and written into the description, so the model still sees it.
	ChangeMovedToDescription = "moved_to_description"
	// ChangeDropped: a keyword without meaning for the model ($schema,
	// $comment, readOnly, an unknown keyword) was removed.
	ChangeDropped = "dropped"
	// ChangeNotStrict: a reason why the schema cannot be sent strict.
	ChangeNotStrict = "not_strict"
)

// Restore maps a value produced against the converted schema back to the
// original schema's shape: unwraps a wrapped root, removes the nulls that
// stand for omitted optional properties. It does not modify v; the result
// may share unchanged parts with it. A nil Conversion returns v.
func (c *Conversion) Restore(v any) any {
	if c == nil || c.restore == nil {
		return v
	}
	return c.restore(v)
}

// Convert rewrites s for the dialect d and reports what it changed. The
// schema s is not modified. An unknown dialect is an error;
// DialectPassthrough returns the schema unchanged (and not strict).
//
// For [DialectOpenAI], a schema that cannot be made strict (a map through
// additionalProperties with a schema, patternProperties, a value of any
// type, sizes over OpenAI's documented limits) is converted with Strict
// false: Schema is then the original (wrapped when its root is not an
// object) and the reasons are Changes of kind [ChangeNotStrict].
func (s *Schema) Convert(d Dialect) (*Conversion, error) {
	if s == nil {
		return nil, errors.New("schema: convert: nil schema")
	}
	switch d {
	case DialectPassthrough:
		return &Conversion{Dialect: d, Schema: s.Minified(), Strict: false}, nil
	case DialectOpenAI:
		return convertOpenAI(s.JSON())
	default:
		return nil, fmt.Errorf("schema: unknown dialect %q", string(d))
	}
}

// An ordObject is a JSON object that keeps its key order, so that a
// converted schema lists properties in the author's order. Values are
// *ordObject, []any, string, json.Number, bool or nil.
type ordObject struct {
	keys []string
	vals map[string]any
}

func newOrdObject() *ordObject { return &ordObject{vals: map[string]any{}} }

func (o *ordObject) get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

func (o *ordObject) has(key string) bool {
	_, ok := o.vals[key]
	return ok
}

// str returns the value of key when it is a string.
func (o *ordObject) str(key string) (string, bool) {
	s, ok := o.vals[key].(string)
	return s, ok
}

// obj returns the value of key when it is an object.
func (o *ordObject) obj(key string) *ordObject {
	v, _ := o.vals[key].(*ordObject)
	return v
}

// set replaces the value of key in place, or appends key.
func (o *ordObject) set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

func (o *ordObject) del(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			return
		}
	}
}

// rename renames key from to to in place; to must not be present.
func (o *ordObject) rename(from, to string) {
	v, ok := o.vals[from]
	if !ok {
		return
	}
	delete(o.vals, from)
	o.vals[to] = v
	for i, k := range o.keys {
		if k == from {
			o.keys[i] = to
			return
		}
	}
}

// clone copies o's members; the values are shared.
func (o *ordObject) clone() *ordObject {
	c := &ordObject{keys: append([]string(nil), o.keys...), vals: make(map[string]any, len(o.vals))}
	for k, v := range o.vals {
		c.vals[k] = v
	}
	return c
}

// deepCopyOrdered copies a decoded tree.
func deepCopyOrdered(v any) any {
	switch x := v.(type) {
	case *ordObject:
		c := &ordObject{keys: append([]string(nil), x.keys...), vals: make(map[string]any, len(x.vals))}
		for k, v := range x.vals {
			c.vals[k] = deepCopyOrdered(v)
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, v := range x {
			c[i] = deepCopyOrdered(v)
		}
		return c
	default:
		return v
	}
}

// decodeOrdered decodes one JSON value keeping object key order. A
// duplicated key keeps its first position and its last value.
func decodeOrdered(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	v, err := decodeOrderedValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

func decodeOrderedValue(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newOrdObject()
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				v, err := decodeOrderedValue(d)
				if err != nil {
					return nil, err
				}
				o.set(key, v)
			}
			if _, err := d.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			a := []any{}
			for d.More() {
				v, err := decodeOrderedValue(d)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			if _, err := d.Token(); err != nil {
				return nil, err
			}
			return a, nil
		default:
			return nil, fmt.Errorf("unexpected %q", t.String())
		}
	default:
		return t, nil
	}
}

// appendOrdered appends v as minified JSON, object keys in order, without
// HTML escaping.
func appendOrdered(buf []byte, v any) []byte {
	switch x := v.(type) {
	case *ordObject:
		buf = append(buf, '{')
		for i, k := range x.keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONText(buf, k)
			buf = append(buf, ':')
			buf = appendOrdered(buf, x.vals[k])
		}
		return append(buf, '}')
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendOrdered(buf, e)
		}
		return append(buf, ']')
	case string:
		return appendJSONText(buf, x)
	case json.Number:
		return append(buf, x...)
	case bool:
		return strconv.AppendBool(buf, x)
	default: // nil: decodeOrdered produces no other type
		return append(buf, "null"...)
	}
}

// appendJSONText appends s as a JSON string.
func appendJSONText(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf = append(buf, '\\', c)
			case c == '\n':
				buf = append(buf, '\\', 'n')
			case c == '\r':
				buf = append(buf, '\\', 'r')
			case c == '\t':
				buf = append(buf, '\\', 't')
			case c < 0x20:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf = append(buf, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			buf = append(buf, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

// compactText renders v as compact JSON cut to at most limit bytes (on a
// rune boundary, with "…" added), for descriptions and change details.
func compactText(v any, limit int) string {
	b := appendOrdered(nil, v)
	if len(b) <= limit {
		return string(b)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}

// childPath returns the JSONPath of member key below path.
func childPath(path, key string) string {
	plain := key != ""
	for i, r := range key {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return path + "." + key
	}
	return path + "[" + string(appendJSONText(nil, key)) + "]"
}

// indexPath returns the JSONPath of element i below path.
func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// resolveLocalRef finds the value a local reference ("#", "#/$defs/a")
// points to in root.
func resolveLocalRef(root any, ref string) (any, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	ptr := ref[1:]
	if ptr == "" {
		return root, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false // an anchor ("#foo")
	}
	cur := root
	for _, seg := range strings.Split(ptr[1:], "/") {
		seg = unescapeRefSegment(seg)
		switch c := cur.(type) {
		case *ordObject:
			v, ok := c.get(seg)
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// unescapeRefSegment undoes the percent-encoding of a URI fragment and the
// ~1/~0 escapes of a JSON Pointer segment.
func unescapeRefSegment(seg string) string {
	if strings.Contains(seg, "%") {
		var b strings.Builder
		for i := 0; i < len(seg); i++ {
			if seg[i] == '%' && i+2 < len(seg) {
				if n, err := strconv.ParseUint(seg[i+1:i+3], 16, 8); err == nil {
					b.WriteByte(byte(n))
					i += 2
					continue
				}
			}
			b.WriteByte(seg[i])
		}
		seg = b.String()
	}
	seg = strings.ReplaceAll(seg, "~1", "/")
	return strings.ReplaceAll(seg, "~0", "~")
}
