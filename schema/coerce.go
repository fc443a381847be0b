package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agentio/agentio/internal/clip"
	"github.com/agentio/agentio/internal/jsonpath"
)

// A CoercionKind names one way [Schema.Coerce] may change a value.
type CoercionKind string

// The kinds of coercion. Each applies only where the schema asks for the
// result and the value as written does not fit; none invents, rounds or
// cuts data.
const (
	// CoerceStringToNumber turns a string that is exactly a JSON number,
	// surrounding space aside (" 5 ", "2.50"), into that number where the
	// schema wants a number or an integer. "5 apples", "0x1F" and "NaN"
	// stay strings; "2.5" stays a string where only an integer fits.
	CoerceStringToNumber CoercionKind = "string_to_number"
	// CoerceStringToBoolean turns "true" or "false", in any case, into
	// the boolean where the schema wants a boolean.
	CoerceStringToBoolean CoercionKind = "string_to_boolean"
	// CoerceFloatToInteger writes a number with a zero fraction (5.0,
	// 5e2) as an integer (5, 500) where the schema wants an integer. A
	// non-zero fraction is never rounded: it stays a violation.
	CoerceFloatToInteger CoercionKind = "float_to_integer"
	// CoerceEnumMatch replaces a string with the one enum (or const)
	// member it equals ignoring case, surrounding space and the
	// separators '-', '_' and ' ' ("High" → "high", "in progress" →
	// "in_progress"). Two matching members: no change.
	CoerceEnumMatch CoercionKind = "enum_match"
	// CoerceKeyMatch renames a member to the one declared property it
	// equals ignoring case and separators ("Answer", "ANSWER",
	// "answer_text" for "answerText"), when that property is missing and
	// no other member or property matches.
	CoerceKeyMatch CoercionKind = "key_match"
	// CoerceScalarToArray wraps a scalar in a one-element array where the
	// schema wants an array whose items take that scalar, and the scalar
	// is not a string holding a JSON array (see [CoerceParseString]).
	CoerceScalarToArray CoercionKind = "scalar_to_array"
	// CoerceWrapRoot turns a bare root array into {"<name>": [...]} when
	// the root schema is an object with exactly one required property and
	// that property is an array.
	CoerceWrapRoot CoercionKind = "wrap_root"
	// CoerceUnwrapArray takes the element of a one-element array where the
	// schema wants that element, not an array.
	CoerceUnwrapArray CoercionKind = "unwrap_array"
	// CoerceDropNull removes a property whose value is null when the
	// property is optional and its schema does not take null.
	CoerceDropNull CoercionKind = "drop_null"
	// CoerceParseString replaces a string holding a JSON object or array
	// ("{\"a\": 1}") with that value where the schema wants an object or
	// an array.
	CoerceParseString CoercionKind = "parse_string"
	// CoerceDefault fills a missing required property with the "default"
	// its schema declares. It is not in [DefaultCoercions]: a default is
	// the schema author's value, not the model's, so it must be asked for.
	CoerceDefault CoercionKind = "default"
)

// allCoercions lists every kind, in the order Coerce applies them.
var allCoercions = []CoercionKind{
	CoerceWrapRoot, CoerceParseString, CoerceUnwrapArray, CoerceStringToNumber, CoerceStringToBoolean,
	CoerceFloatToInteger, CoerceScalarToArray, CoerceEnumMatch, CoerceKeyMatch, CoerceDropNull, CoerceDefault,
}

// DefaultCoercions returns the kinds [Schema.Coerce] applies when no
// [WithCoercions] option is given: every kind but [CoerceDefault].
func DefaultCoercions() []CoercionKind {
	return slices.DeleteFunc(slices.Clone(allCoercions), func(k CoercionKind) bool { return k == CoerceDefault })
}

// A Coercion is one change [Schema.Coerce] made to a value.
type Coercion struct {
	// Path locates the value changed, JSONPath style ("$.issues[0].line");
	// for CoerceKeyMatch, the property under its new name.
	Path string `json:"path"`
	// Pointer is Path as a JSON Pointer.
	Pointer string `json:"pointer"`
	// Kind says what was done.
	Kind CoercionKind `json:"kind"`
	// Before and After are the value before and after, as compact JSON
	// (cut short, with "…", past 200 bytes); for CoerceKeyMatch, the
	// property's name before and after.
	Before string `json:"before"`
	After  string `json:"after"`
}

// String returns "<path>: <kind> <before> -> <after>".
func (c Coercion) String() string {
	return fmt.Sprintf("%s: %s %s -> %s", c.Path, c.Kind, c.Before, c.After)
}

// A CoerceOption configures [Schema.Coerce].
type CoerceOption func(*coerceConfig) error

type coerceConfig struct {
	mask uint32 // bit i: allCoercions[i] is allowed
	set  bool   // WithCoercions was given
}

// WithCoercions sets the kinds Coerce may apply, replacing
// [DefaultCoercions]; none at all makes Coerce change nothing. An unknown
// kind makes Coerce return an error matching [ErrInvalidOption].
func WithCoercions(kinds ...CoercionKind) CoerceOption {
	return func(c *coerceConfig) error {
		c.mask, c.set = 0, true
		for _, k := range kinds {
			i := slices.Index(allCoercions, k)
			if i < 0 {
				return fmt.Errorf("%w: unknown coercion %q", ErrInvalidOption, k)
			}
			c.mask |= 1 << i
		}
		return nil
	}
}

// Coerce returns v changed, by the rules of the kinds allowed, where a
// change makes a part of it fit the schema it does not fit as written: "5"
// where an integer is wanted becomes 5, "High" where the enum says "high"
// becomes "high". It returns every change it made, in the order made; v
// itself when it made none. v is not modified: the result shares the parts
// that did not change.
//
// Coerce never fills in a missing property (but with [CoerceDefault] from
// the schema's default), never turns prose into data, and never rounds,
// clips or truncates. It is a best effort guided by the schema, not a
// validation: validate its result ([Schema.Validate]); a value still
// invalid is invalid. Where the schema offers alternatives (anyOf, oneOf)
// a value that fits none is coerced only when exactly one alternative
// accepts its coerced form. if/then/else and not are not used to guide it.
//
// Where kinds conflict, giving one value two readings (a one-element root
// array unwrapped, or wrapped in the root object; "8" as a number, or as
// an array of one string), each reading is coerced through and the one
// whose result the schema accepts is taken. When both are accepted with
// different results, or neither is, the value keeps its type: the schema
// does not say which was meant. A string holding a JSON array is read as
// that array ([CoerceParseString]), never as one item of another.
//
// v is a decoded JSON value; numbers may be float64 or json.Number (decode
// with UseNumber to keep "5.0" apart from "5", which CoerceFloatToInteger
// needs). The options are checked first: an unknown kind is an error
// matching [ErrInvalidOption] whatever v is. A v that is not JSON data (a
// channel, a func) is an error matching [ErrNotJSON].
func (s *Schema) Coerce(v any, opts ...CoerceOption) (any, []Coercion, error) {
	cfg := coerceConfig{}
	for _, o := range opts {
		if o == nil {
			return v, nil, fmt.Errorf("%w: nil CoerceOption", ErrInvalidOption)
		}
		if err := o(&cfg); err != nil {
			return v, nil, err
		}
	}
	if !cfg.set {
		cfg.mask = 1<<len(allCoercions) - 1
		cfg.mask &^= 1 << slices.Index(allCoercions, CoerceDefault)
	}
	if s == nil || s.c == nil || cfg.mask == 0 {
		return v, nil, nil
	}
	k := &coercer{c: s.c, mask: cfg.mask}
	out, _ := k.value(v, schemaSet{one: s.c.root})
	if k.bad {
		// Not decoded JSON (a struct, an int): take it through JSON, once.
		w, err := asData(v)
		if err != nil {
			return v, nil, err
		}
		k = &coercer{c: s.c, mask: k.mask}
		out, _ = k.value(w, schemaSet{one: s.c.root})
		if k.bad {
			return v, nil, fmt.Errorf("%w: the value does not decode to JSON data", ErrNotJSON)
		}
	}
	if len(k.out) == 0 {
		return v, nil, nil
	}
	return out, k.out, nil
}

// asData returns v encoded as JSON and decoded with UseNumber.
func asData(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotJSON, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var w any
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotJSON, err)
	}
	return w, nil
}

// coercer is the state of one Coerce call.
type coercer struct {
	c     *compiled
	mask  uint32 // bit i set: allCoercions[i] is allowed
	out   []Coercion
	depth int
	path  jsonpath.Path // where the value being coerced is
	bad   bool          // a value that is not decoded JSON was met
}

// allows reports whether kind may be applied.
func (k *coercer) allows(kind CoercionKind) bool {
	return k.mask&(1<<slices.Index(allCoercions, kind)) != 0
}

// maxCoerceDepth bounds how deeply Coerce descends; deeper parts are left
// as they are.
const maxCoerceDepth = 512

// record notes a change of kind at the current path.
func (k *coercer) record(kind CoercionKind, before, after any) {
	k.out = append(k.out, k.made(kind, before, after))
}

// made returns the record of a change of kind at the current path.
func (k *coercer) made(kind CoercionKind, before, after any) Coercion {
	return Coercion{Path: jsonpath.Format(k.path), Pointer: jsonpath.Pointer(k.path), Kind: kind,
		Before: compactRepr(before), After: compactRepr(after)}
}

// compactRepr renders v as compact JSON cut to 200 bytes.
func compactRepr(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return clip.Ellipsis(string(data), 200)
}

// value coerces x under the schemas ss and reports whether it changed.
func (k *coercer) value(x any, ss schemaSet) (any, bool) {
	if k.depth >= maxCoerceDepth {
		return x, false
	}
	switch x.(type) {
	case nil, bool, string, float64, json.Number, []any, map[string]any:
	default:
		k.bad = true
		return x, false
	}
	k.depth++
	defer func() { k.depth-- }()
	v := k.viewOf(ss)
	if v.never || len(v.schemas) == 0 {
		return x, false
	}
	changed := false
	for _, alts := range v.alternatives {
		if y, ok := k.alternative(x, alts); ok {
			x, changed = y, true
		}
	}
	_, isNumber := x.(json.Number)
	if isNumber || (v.typed || v.hasEnum) && !v.fits(x) {
		y, ok, whole := k.reshape(x, v, ss)
		if whole {
			return y, true
		}
		if ok {
			x, changed = y, true
		}
	}
	y, ok := k.inside(x, v)
	return y, changed || ok
}

// inside does what follows a value's reshaping: it matches a string to its
// enum, and coerces the members of an object or the items of an array.
func (k *coercer) inside(x any, v *view) (any, bool) {
	changed := false
	if _, isString := x.(string); isString && v.hasEnum {
		if y, ok := k.enum(x, v); ok {
			x, changed = y, true
		}
	}
	switch c := x.(type) {
	case map[string]any:
		if y, ok := k.object(c, v); ok {
			x, changed = y, true
		}
	case []any:
		if y, ok := k.array(c, v); ok {
			x, changed = y, true
		}
	}
	return x, changed
}
