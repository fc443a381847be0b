package record

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"github.com/agentio/agentio/provider"
)

// keyExcluded lists the fields of provider.Request (as paths of the store
// files' member names, "$.messages[*].content") left out of a recording's
// request, and so of its key, with the reason. Every other field enters
// both: the tree is derived from the Request type itself, so a field added
// to it enters the key without a change here, and TestKeyCoversRequest
// fails for a field that would not.
var keyExcluded = map[string]string{}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// requestTree returns the tree a recording keeps of req, and its key is
// computed from: each exported field of provider.Request and the types it
// holds, named by its JSON tag or, untagged, by its name in snake_case
// ("MaxTokens" is "max_tokens"), and omitted when the tag says omitempty
// or, untagged, when it is zero and not a struct; raw JSON values as
// strings, so they are kept byte for byte even when not valid JSON;
// numbers as json.Number.
func requestTree(req *provider.Request) (any, error) {
	v, err := treeValue(reflect.ValueOf(req).Elem(), "$")
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeTree(b)
}

// treeValue returns the plain value (maps, slices, strings, numbers,
// booleans, nil) that stands for v, at path.
func treeValue(v reflect.Value, path string) (any, error) {
	if v.Type() == rawMessageType {
		return string(v.Bytes()), nil
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		return treeValue(v.Elem(), path)
	case reflect.Struct:
		out := map[string]any{}
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, omitEmpty := fieldName(f)
			at := path + "." + name
			if _, ok := keyExcluded[at]; ok {
				continue
			}
			fv := v.Field(i)
			if omitEmpty && isEmpty(fv) {
				continue
			}
			x, err := treeValue(fv, at)
			if err != nil {
				return nil, err
			}
			out[name] = x
		}
		return out, nil
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil, nil
		}
		out := make([]any, v.Len())
		for i := range out {
			x, err := treeValue(v.Index(i), path+"[*]")
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case reflect.Map:
		if v.IsNil() {
			return nil, nil
		}
		if v.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("record: %s: a map whose keys are not strings", path)
		}
		out := map[string]any{}
		for it := v.MapRange(); it.Next(); {
			x, err := treeValue(it.Value(), path+"."+it.Key().String())
			if err != nil {
				return nil, err
			}
			out[it.Key().String()] = x
		}
		return out, nil
	case reflect.String:
		return v.String(), nil
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint(), nil
	case reflect.Float32, reflect.Float64:
		return v.Float(), nil
	}
	return nil, fmt.Errorf("record: %s: a %s cannot enter a recording", path, v.Type())
}

// fieldName returns the member name of a field in a recording and whether
// it is omitted when empty. A field tagged "-" still enters it, under its
// Go name: only keyExcluded leaves a field out.
func fieldName(f reflect.StructField) (string, bool) {
	tag, ok := f.Tag.Lookup("json")
	if !ok {
		return snakeCase(f.Name), f.Type.Kind() != reflect.Struct
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" || name == "-" {
		name = snakeCase(f.Name)
	}
	return name, strings.Contains(","+opts+",", ",omitempty,")
}

// isEmpty reports whether v is empty as encoding/json's omitempty means
// it: false, 0, a nil pointer or interface, an empty string, slice or map.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	case reflect.Struct:
		return false
	}
	return v.IsZero()
}

// snakeCase returns a Go field name in snake_case: "ToolChoice" is
// "tool_choice", "MaxTokens" "max_tokens", "ID" "id".
func snakeCase(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
