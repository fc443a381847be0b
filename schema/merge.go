package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/agentio/agentio/internal/jsonobj"
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

// promptPropertySchema is what [MergePrompt] adds when s has no "prompt" property.
const promptPropertySchema = `{"type":"string","minLength":1}`

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
	return mergeJSON(s, []rawProperty{{name: "prompt", schema: []byte(promptPropertySchema), required: true}})
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
	raw := make([]rawProperty, len(props))
	for i, p := range props {
		raw[i] = rawProperty{name: p.Name, schema: []byte("{}"), required: p.Required}
		if p.Schema == nil {
			continue
		}
		b := p.Schema.JSON()
		if err := checkSelfContained(b); err != nil {
			return nil, &MergeError{Property: p.Name, Reason: err.Error()}
		}
		raw[i].schema = b
	}
	return mergeJSON(s, raw)
}

// A rawProperty is a [Property] whose schema is JSON text.
type rawProperty struct {
	name     string
	schema   []byte
	required bool
}

// mergeJSON does the work of [MergeProperties] on the JSON text of s.
func mergeJSON(s *Schema, props []rawProperty) (*Schema, error) {
	src := []byte("{}")
	if s != nil {
		src = s.JSON()
	}
	name := ""
	if len(props) > 0 {
		name = props[0].name
	}
	root, err := decodeSchemaJSONObject(src)
	if err != nil {
		return nil, &MergeError{Property: name, Reason: err.Error()}
	}
	changed := false

	if ref, ok := root.get("$ref"); ok {
		allOf := []json.RawMessage{}
		if raw, ok := root.get("allOf"); ok {
			if err := json.Unmarshal(raw, &allOf); err != nil {
				return nil, &MergeError{Property: name, Reason: "allOf is not an array"}
			}
		}
		refSchema := jsonobj.Encode([]jsonobj.Member{{Key: "$ref", Value: ref}})
		allOf = append([]json.RawMessage{refSchema}, allOf...)
		root.replace("$ref", "allOf", encodeJSONArray(allOf))
		changed = true
	}

	if t, ok := root.get("type"); !ok || !isJSONString(t, "object") {
		if ok {
			root.set("type", json.RawMessage(`"object"`))
		} else {
			root.insertAfterIdentity("type", json.RawMessage(`"object"`))
		}
		changed = true
	}

	var properties jsonObject
	if raw, ok := root.get("properties"); ok {
		if properties, err = decodeJSONObject(raw); err != nil {
			return nil, &MergeError{Property: name, Reason: "properties is not an object"}
		}
	}
	var required []json.RawMessage
	if raw, ok := root.get("required"); ok {
		if err := json.Unmarshal(raw, &required); err != nil {
			return nil, &MergeError{Property: name, Reason: "required is not an array"}
		}
	}
	propsChanged, requiredChanged := false, false
	for _, p := range props {
		if _, ok := properties.get(p.name); !ok {
			properties.set(p.name, p.schema)
			propsChanged = true
		}
		if p.required && !listsJSONString(required, p.name) {
			required = append(required, jsonobj.AppendString(nil, p.name))
			requiredChanged = true
		}
	}
	if propsChanged {
		root.set("properties", jsonobj.Encode(properties))
		changed = true
	}
	if requiredChanged {
		root.set("required", encodeJSONArray(required))
		changed = true
	}
	if !changed {
		return s, nil
	}
	doc, err := layoutLike(jsonobj.Encode(root), src)
	if err != nil {
		return nil, &MergeError{Property: name, Reason: err.Error()}
	}
	return Parse(doc)
}

// decodeSchemaJSONObject decodes a schema document as an object, the schema
// true as the empty object.
func decodeSchemaJSONObject(src []byte) (jsonObject, error) {
	trimmed := bytes.TrimSpace(src)
	switch {
	case bytes.Equal(trimmed, []byte("true")):
		return jsonObject{}, nil
	case bytes.Equal(trimmed, []byte("false")):
		return nil, errors.New("the schema is false and admits no value")
	}
	obj, err := decodeJSONObject(src)
	if err != nil {
		return nil, errors.New("the schema is not a JSON object")
	}
	return obj, nil
}

// checkSelfContained reports a schema that would change meaning when
// embedded in another document: one with a reference into itself ("#...")
// and no "$id" at its root to anchor it.
func checkSelfContained(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if m, ok := v.(map[string]any); ok {
		if _, ok := m["$id"]; ok {
			return nil
		}
	}
	if ref, ok := findLocalRef(v); ok {
		return fmt.Errorf("its reference %q would resolve against the merged document (give its root an $id)", ref)
	}
	return nil
}

// mergeDataKeywords hold JSON values, not schemas: a "$ref" key inside them is
// data.
var mergeDataKeywords = map[string]bool{"const": true, "enum": true, "default": true, "examples": true}

// findLocalRef returns the first "$ref" or "$dynamicRef" of v that starts
// with "#".
func findLocalRef(v any) (string, bool) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys) // the same reference is reported every time
		for _, k := range keys {
			x := v[k]
			if mergeDataKeywords[k] {
				continue
			}
			if s, ok := x.(string); ok && (k == "$ref" || k == "$dynamicRef") && len(s) > 0 && s[0] == '#' {
				return s, true
			}
			if ref, ok := findLocalRef(x); ok {
				return ref, true
			}
		}
	case []any:
		for _, x := range v {
			if ref, ok := findLocalRef(x); ok {
				return ref, true
			}
		}
	}
	return "", false
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

// A jsonObject is a JSON object whose keys keep their order.
type jsonObject []jsonobj.Member

// decodeJSONObject decodes a JSON object, keeping its key order. A key given
// twice keeps its first place and its last value, as encoding/json would
// read it.
func decodeJSONObject(data []byte) (jsonObject, error) {
	members, err := jsonobj.Members(data)
	if err != nil {
		return nil, err
	}
	obj := make(jsonObject, 0, len(members))
	for _, m := range members {
		obj.set(m.Key, m.Value)
	}
	return obj, nil
}

func (o jsonObject) index(key string) int {
	for i, m := range o {
		if m.Key == key {
			return i
		}
	}
	return -1
}

func (o jsonObject) get(key string) (json.RawMessage, bool) {
	if i := o.index(key); i >= 0 {
		return o[i].Value, true
	}
	return nil, false
}

// set replaces the value of key in place, or appends key.
func (o *jsonObject) set(key string, v json.RawMessage) {
	if i := o.index(key); i >= 0 {
		(*o)[i].Value = v
		return
	}
	*o = append(*o, jsonobj.Member{Key: key, Value: v})
}

// replace puts key and v in the place of old, removing any other member
// named key.
func (o *jsonObject) replace(old, key string, v json.RawMessage) {
	if i := o.index(key); i >= 0 {
		*o = append((*o)[:i], (*o)[i+1:]...)
	}
	if i := o.index(old); i >= 0 {
		(*o)[i] = jsonobj.Member{Key: key, Value: v}
		return
	}
	o.set(key, v)
}

// insertAfterIdentity inserts key after the "$schema" and "$id" members
// that lead the object, where a reader looks for the type.
func (o *jsonObject) insertAfterIdentity(key string, v json.RawMessage) {
	i := 0
	for i < len(*o) && ((*o)[i].Key == "$schema" || (*o)[i].Key == "$id") {
		i++
	}
	*o = slices.Insert(*o, i, jsonobj.Member{Key: key, Value: v})
}

// encodeJSONArray writes items as a JSON array, each item as it was given.
func encodeJSONArray(items []json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, v := range items {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(v)
	}
	buf.WriteByte(']')
	return buf.Bytes()
}

// isJSONString reports whether raw is the JSON string want.
func isJSONString(raw json.RawMessage, want string) bool {
	var s string
	return json.Unmarshal(raw, &s) == nil && s == want
}

// listsJSONString reports whether list holds the JSON string want.
func listsJSONString(list []json.RawMessage, want string) bool {
	for _, v := range list {
		if isJSONString(v, want) {
			return true
		}
	}
	return false
}
