package schema

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// What the checks compare: a value's JSON type, the equality of two
// values, and a form that renders equal values alike.

// jsonType names the JSON Schema type of a plain decoded value, as
// jsonschema-go does (a whole number is an integer).
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case float64:
		if _, f := math.Modf(x); f == 0 {
			return "integer"
		}
		return "number"
	}
	if r, ok := asRat(v); ok {
		if r.IsInt() {
			return "integer"
		}
		return "number"
	}
	return "unknown"
}

// equal reports whether two JSON values are equal, numbers by value.
func equal(a, b any) bool {
	if fa, ok := a.(float64); ok {
		if fb, ok := b.(float64); ok {
			return fa == fb // as their rationals compare; JSON has no NaN
		}
	}
	if ra, ok := asRat(a); ok {
		rb, ok := asRat(b)
		return ok && ra.Cmp(rb) == 0
	}
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	}
	return a == b
}

// canonical renders a JSON value so that equal values render alike.
func canonical(v any) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			b.WriteByte('[')
			for i, e := range x {
				if i > 0 {
					b.WriteByte(',')
				}
				walk(e)
			}
			b.WriteByte(']')
		case map[string]any:
			b.WriteByte('{')
			for i, k := range sortedKeys(x) {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Quote(k))
				b.WriteByte(':')
				walk(x[k])
			}
			b.WriteByte('}')
		case string:
			b.WriteString(strconv.Quote(x))
		default:
			if r, ok := asRat(v); ok {
				b.WriteString("n" + r.RatString())
				return
			}
			raw, _ := json.Marshal(v)
			b.Write(raw)
		}
	}
	walk(v)
	return b.String()
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
