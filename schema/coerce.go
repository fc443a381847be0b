package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

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
// kind makes Coerce return an error matching [ErrInvalidOptions].
func WithCoercions(kinds ...CoercionKind) CoerceOption {
	return func(c *coerceConfig) error {
		c.mask, c.set = 0, true
		for _, k := range kinds {
			i := slices.Index(allCoercions, k)
			if i < 0 {
				return fmt.Errorf("%w: unknown coercion %q", ErrInvalidOptions, k)
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
// matching [ErrInvalidOptions] whatever v is. A v that is not JSON data (a
// channel, a func) is an error matching [ErrNotJSON].
func (s *Schema) Coerce(v any, opts ...CoerceOption) (any, []Coercion, error) {
	cfg := coerceConfig{}
	for _, o := range opts {
		if o == nil {
			return v, nil, fmt.Errorf("%w: nil CoerceOption", ErrInvalidOptions)
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

// schemaSet is the schemas that apply to one value: usually one, held
// without allocating.
type schemaSet struct {
	one  *jsonschema.Schema
	more []*jsonschema.Schema
}

func (ss *schemaSet) add(s *jsonschema.Schema) {
	switch {
	case s == nil:
	case ss.one == nil:
		ss.one = s
	default:
		ss.more = append(ss.more, s)
	}
}

func (ss schemaSet) empty() bool { return ss.one == nil }

// view is what the schemas that apply to one value, with their $refs and
// allOf branches followed, ask of it. Views of one schema are computed
// once per compiled schema and shared; they are not modified after.
type view struct {
	schemas      []*jsonschema.Schema
	types        [][]string // each declaring schema's types
	enum         []any      // the first enum (or const) met
	hasEnum      bool
	alternatives [][]*jsonschema.Schema // each anyOf and oneOf
	never        bool                   // some schema is false
	typed        bool                   // some schema declares types
	want         uint8                  // bit t: every declaring schema takes jsonTypes[t]
	props        []string               // declared properties, in schema order
	required     []string
	patterns     bool // some schema has patternProperties
}

// viewOf returns the view of ss, from the cache when ss is one schema.
func (k *coercer) viewOf(ss schemaSet) *view {
	if ss.more == nil && ss.one != nil {
		if in := k.c.infos[ss.one]; in != nil {
			if v := in.view.Load(); v != nil {
				return v
			}
			v := k.expand(ss)
			in.view.Store(v)
			return v
		}
	}
	return k.expand(ss)
}

// expand collects what the schemas that certainly apply to a value under
// ss ([compiled.certain]) ask of it.
func (k *coercer) expand(ss schemaSet) *view {
	v := &view{}
	for _, s := range k.c.certain(append([]*jsonschema.Schema{ss.one}, ss.more...), 0) {
		in := k.c.infos[s]
		if in == nil {
			continue
		}
		if in.isFalse {
			v.never = true
			continue
		}
		v.schemas = append(v.schemas, s)
		for _, p := range in.propOrder {
			if !slices.Contains(v.props, p) {
				v.props = append(v.props, p)
			}
		}
		for _, r := range s.Required {
			if !slices.Contains(v.required, r) {
				v.required = append(v.required, r)
			}
		}
		v.patterns = v.patterns || len(in.patterns) > 0
		switch {
		case s.Type != "":
			v.types = append(v.types, []string{s.Type})
		case s.Types != nil:
			v.types = append(v.types, s.Types)
		}
		if !v.hasEnum {
			switch {
			case s.Enum != nil:
				v.enum, v.hasEnum = s.Enum, true
			case s.Const != nil:
				v.enum, v.hasEnum = []any{*s.Const}, true
			}
		}
		if s.AnyOf != nil {
			v.alternatives = append(v.alternatives, s.AnyOf)
		}
		if s.OneOf != nil {
			v.alternatives = append(v.alternatives, s.OneOf)
		}
	}
	v.finish()
	return v
}

// jsonTypes are the JSON Schema types, in the bit order of view.want.
var jsonTypes = [...]string{"null", "boolean", "object", "array", "number", "string", "integer"}

// typeBit returns the bit of view.want that stands for t.
func typeBit(t string) uint8 {
	for i, jt := range jsonTypes {
		if jt == t {
			return 1 << i
		}
	}
	return 0
}

// finish computes the type mask of v once its schemas are collected.
func (v *view) finish() {
	v.typed = len(v.types) > 0
	for _, t := range jsonTypes {
		if v.typed && v.wantsSlow(t) {
			v.want |= typeBit(t)
		}
	}
}

// wantsSlow is wants, from the declared type lists.
func (v *view) wantsSlow(t string) bool {
	for _, ts := range v.types {
		if !slices.Contains(ts, t) && !(t == "integer" && slices.Contains(ts, "number")) {
			return false
		}
	}
	return true
}

// wants reports whether every schema that declares types takes type t;
// false when none declares any (nothing to coerce towards).
func (v *view) wants(t string) bool { return v.want&typeBit(t) != 0 }

// fits reports whether x has a type every declaring schema takes (true
// when none declares a type) and, under an enum, the type of some member.
func (v *view) fits(x any) bool {
	t := jsonType(x)
	if v.typed && !v.wants(t) {
		return false
	}
	if v.hasEnum {
		return slices.ContainsFunc(v.enum, func(e any) bool {
			et := jsonType(e)
			return et == t || et == "integer" && t == "number" || et == "number" && t == "integer"
		})
	}
	return true
}

// accepts reports whether x is valid against s, by the diagnostic pass.
func (k *coercer) accepts(x any, s *jsonschema.Schema) bool {
	d := &diagnosis{c: k.c, formats: k.c.assertFormats}
	_, ok, _ := d.ok(x, s, nil, nil)
	return ok
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

// A reading is one way to give a value the type its schema wants: the
// value so read, and the coercions that read it so.
type reading struct {
	value any
	made  []Coercion
}

// reshape gives x the type v wants, when one reading of it does. With one
// reading it returns that reading (ok). With more than one (a one-element
// root array may be unwrapped or wrapped in the root object; "5" may be a
// number or a one-element array), each is carried through the rest of the
// coercion, and the one whose result fits the schemas ss is returned
// complete (whole); when several fit with different results, or none
// fits, x is not reshaped at all: the schema does not say which is meant.
func (k *coercer) reshape(x any, v *view, ss schemaSet) (y any, ok, whole bool) {
	rs := k.readings(x, v)
	switch len(rs) {
	case 0:
		return x, false, false
	case 1:
		k.out = append(k.out, rs[0].made...)
		return rs[0].value, true, false
	}
	var (
		found bool
		best  any
		made  []Coercion
	)
	for _, r := range rs {
		mark := len(k.out)
		z, _ := k.inside(r.value, v)
		rest := slices.Clone(k.out[mark:])
		k.out = k.out[:mark]
		if !k.acceptsAll(z, ss) {
			continue
		}
		if found {
			if !equal(best, z) {
				return x, false, false // two readings fit: no guess
			}
			continue
		}
		found, best, made = true, z, append(slices.Clone(r.made), rest...)
	}
	if !found {
		return x, false, false
	}
	k.out = append(k.out, made...)
	return best, true, true
}

// acceptsAll reports whether x is valid against every schema of ss.
func (k *coercer) acceptsAll(x any, ss schemaSet) bool {
	if ss.one != nil && !k.accepts(x, ss.one) {
		return false
	}
	for _, s := range ss.more {
		if !k.accepts(x, s) {
			return false
		}
	}
	return true
}

// numberLiteral is a JSON number, the only form a string may hold to be
// read as one.
var numberLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// maxReshape is the most steps one reading takes: a list quoted in a
// string, whose one item is a number written as a string, is three.
const maxReshape = 3

// readings returns each way of giving x the type v wants: one step that
// changes its type (a JSON value inside a string, a one-element array's
// element, a number or boolean in a string, a scalar in an array, a bare
// root array in its object), or a chain of such steps of different kinds
// when one alone does not get there, and a float with a zero fraction
// written as an integer. The readings are not recorded: [coercer.reshape]
// records the one it takes.
func (k *coercer) readings(x any, v *view) []reading {
	if v.fits(x) {
		// Only a number that fits may still be reshaped: 5.0 where an
		// integer is wanted.
		if y, c, ok := k.integral(x, v); ok {
			return []reading{{y, []Coercion{c}}}
		}
		return nil
	}
	var rs []reading
	var chain func(r reading)
	chain = func(r reading) {
		for _, s := range k.steps(r.value, v) {
			if slices.ContainsFunc(r.made, func(c Coercion) bool { return c.Kind == s.made[0].Kind }) {
				continue
			}
			next := reading{s.value, append(slices.Clone(r.made), s.made...)}
			switch {
			case v.fits(next.value):
				if y, c, ok := k.integral(next.value, v); ok {
					next = reading{y, append(next.made, c)}
				}
				rs = append(rs, next)
			case len(next.made) < maxReshape:
				chain(next)
			}
		}
	}
	chain(reading{value: x})
	if y, c, ok := k.integral(x, v); ok && v.fits(y) {
		rs = append(rs, reading{y, []Coercion{c}})
	}
	return rs
}

// steps returns each one-step change of x's type towards what v wants.
func (k *coercer) steps(x any, v *view) []reading {
	var rs []reading
	one := func(kind CoercionKind, y any) {
		rs = append(rs, reading{y, []Coercion{k.made(kind, x, y)}})
	}
	switch x := x.(type) {
	case string:
		if y, ok := k.parsed(x, v); ok {
			one(CoerceParseString, y)
		}
		if y, c, ok := k.scalar(x, v); ok {
			rs = append(rs, reading{y, []Coercion{c}})
		}
	case []any:
		if len(x) == 1 && k.allows(CoerceUnwrapArray) && !v.wants("array") {
			one(CoerceUnwrapArray, x[0])
		}
		if len(k.path) == 0 && k.allows(CoerceWrapRoot) && v.wants("object") {
			if name, ok := k.onlyRequiredArray(v); ok {
				one(CoerceWrapRoot, map[string]any{name: x})
			}
		}
	}
	if k.allows(CoerceScalarToArray) && v.wants("array") {
		switch x.(type) {
		case string, bool, float64, json.Number:
			// A string that holds a JSON array is that array, not the one
			// item of another: the model wrote the array, then quoted it.
			if s, ok := x.(string); ok {
				if y, ok := k.parsed(s, v); ok && v.fits(y) {
					break
				}
			}
			if k.itemsTake(x, v) {
				one(CoerceScalarToArray, []any{x})
			}
		}
	}
	return rs
}

// parsed returns the object or array s holds, where v wants one of them.
func (k *coercer) parsed(s string, v *view) (any, bool) {
	if !k.allows(CoerceParseString) || !v.wants("object") && !v.wants("array") {
		return nil, false
	}
	return parseJSONString(s)
}

// scalar reads the string x as the number or boolean v wants, when it is
// exactly such a literal.
func (k *coercer) scalar(x any, v *view) (any, Coercion, bool) {
	s, ok := x.(string)
	if !ok {
		return nil, Coercion{}, false
	}
	y, ok := k.fromString(s, v)
	if !ok {
		return nil, Coercion{}, false
	}
	kind := CoerceStringToNumber
	if _, isBool := y.(bool); isBool {
		kind = CoerceStringToBoolean
	}
	return y, k.made(kind, x, y), true
}

// integral writes the number x with a zero fraction as an integer where v
// wants an integer and not any number.
func (k *coercer) integral(x any, v *view) (any, Coercion, bool) {
	n, ok := x.(json.Number)
	if !ok || !k.allows(CoerceFloatToInteger) || !v.wants("integer") || v.wants("number") {
		return nil, Coercion{}, false
	}
	y, ok := integerLiteral(n)
	if !ok || y == n {
		return nil, Coercion{}, false
	}
	return y, k.made(CoerceFloatToInteger, x, y), true
}

// alternative coerces x towards one of alts when it fits none as written
// and exactly one accepts its coerced form.
func (k *coercer) alternative(x any, alts []*jsonschema.Schema) (any, bool) {
	var fit []*jsonschema.Schema
	for _, s := range alts {
		if k.accepts(x, s) {
			fit = append(fit, s)
		}
	}
	if len(fit) > 0 {
		return k.respell(x, fit)
	}
	var (
		found bool
		best  any
		recs  []Coercion
	)
	mark := len(k.out)
	for _, s := range alts {
		y, changed := k.value(x, schemaSet{one: s})
		made := slices.Clone(k.out[mark:])
		k.out = k.out[:mark]
		if !changed || !k.accepts(y, s) {
			continue
		}
		if found && !equal(best, y) {
			return x, false // two alternatives, two readings: no guess
		}
		found, best, recs = true, y, made
	}
	if !found {
		return x, false
	}
	k.out = append(k.out, recs...)
	return best, true
}

// respell coerces x, which every schema of fit accepts as written, as
// each of them would (5.0 written 5 where an integer is wanted), when they
// all make the same change; else x stays as it is.
func (k *coercer) respell(x any, fit []*jsonschema.Schema) (any, bool) {
	var (
		spelt any
		recs  []Coercion
	)
	mark := len(k.out)
	for i, s := range fit {
		y, changed := k.value(x, schemaSet{one: s})
		made := slices.Clone(k.out[mark:])
		k.out = k.out[:mark]
		if !changed || !k.accepts(y, s) || i > 0 && !sameJSON(y, spelt) {
			return x, false
		}
		spelt, recs = y, made
	}
	k.out = append(k.out, recs...)
	return spelt, true
}

// sameJSON reports whether a and b encode to the same JSON, numbers
// spelt alike.
func sameJSON(a, b any) bool {
	da, errA := json.Marshal(a)
	db, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(da, db)
}

// scalarFits reports whether the string s would fit v once read as a
// number or boolean.
func (k *coercer) scalarFits(x any, v *view) bool {
	s, ok := x.(string)
	if !ok {
		return false
	}
	_, ok = k.fromString(s, v)
	return ok
}

// fromString reads s as the number or boolean v wants, when s is exactly
// such a literal.
func (k *coercer) fromString(s string, v *view) (any, bool) {
	t := strings.TrimSpace(s)
	if k.allows(CoerceStringToNumber) && (v.wants("number") || v.wants("integer")) && numberLiteral.MatchString(t) {
		n := json.Number(t)
		if !v.wants("number") {
			i, ok := integerLiteral(n)
			if !ok {
				return nil, false // "2.5" where only an integer fits: never rounded
			}
			n = i
		}
		return n, true
	}
	if k.allows(CoerceStringToBoolean) && v.wants("boolean") {
		switch {
		case strings.EqualFold(t, "true"):
			return true, true
		case strings.EqualFold(t, "false"):
			return false, true
		}
	}
	return nil, false
}

// integerLiteral writes an integral number as an integer literal ("5.0" →
// "5", "5e2" → "500"); ok is false for a number with a non-zero fraction or
// one too large to write out.
func integerLiteral(n json.Number) (json.Number, bool) {
	r, ok := asRat(n)
	if !ok || !r.IsInt() {
		return n, false
	}
	if r.Num().BitLen() > 256 {
		return n, false
	}
	return json.Number(r.Num().String()), true
}

// parseJSONString returns the object or array s holds, if it holds exactly
// one.
func parseJSONString(s string) (any, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	var y any
	if dec.Decode(&y) != nil || dec.More() {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false
	}
	return y, true
}

// itemsTake reports whether the item schemas of v take the scalar x, as
// written or coerced.
func (k *coercer) itemsTake(x any, v *view) bool {
	var items schemaSet
	for _, s := range v.schemas {
		items.add(s.Items)
		if len(s.PrefixItems) > 0 {
			items.add(s.PrefixItems[0])
		}
		if len(s.ItemsArray) > 0 {
			items.add(s.ItemsArray[0])
		}
	}
	if items.empty() {
		return true
	}
	iv := k.viewOf(items)
	if iv.never {
		return false
	}
	return iv.fits(x) || k.scalarFits(x, iv)
}

// onlyRequiredArray returns the one required property of an object schema
// when there is exactly one and its schema wants an array.
func (k *coercer) onlyRequiredArray(v *view) (string, bool) {
	if len(v.required) != 1 {
		return "", false
	}
	ps := k.propertySchemas(v, v.required[0])
	if ps.empty() {
		return "", false
	}
	pv := k.viewOf(ps)
	return v.required[0], pv.wants("array") && !pv.wants("object")
}

// enum replaces a string with the one enum member it matches loosely.
func (k *coercer) enum(x any, v *view) (any, bool) {
	if !v.hasEnum || !k.allows(CoerceEnumMatch) {
		return x, false
	}
	s, ok := x.(string)
	if !ok || slices.ContainsFunc(v.enum, func(e any) bool { es, ok := e.(string); return ok && es == s }) {
		return x, false
	}
	want := looseKey(s)
	var match any
	n := 0
	for _, e := range v.enum {
		if es, ok := e.(string); ok && looseKey(es) == want {
			match = e
			n++
		}
	}
	if n != 1 {
		return x, false
	}
	k.record(CoerceEnumMatch, x, match)
	return match, true
}

// looseKey is s in lower case without surrounding space and without the
// separators '-', '_' and ' ': the form enum and key matching compare.
func looseKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if r != '-' && r != '_' && r != ' ' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// propertySchemas returns the schemas of v that apply to the member name
// (properties, patternProperties, else additionalProperties).
func (k *coercer) propertySchemas(v *view, name string) schemaSet {
	var out schemaSet
	for _, s := range v.schemas {
		matched := false
		if p, ok := s.Properties[name]; ok {
			out.add(p)
			matched = true
		}
		if v.patterns {
			for _, pp := range k.c.infos[s].patterns {
				if pp.re != nil && pp.re.MatchString(name) {
					out.add(pp.s)
					matched = true
				}
			}
		}
		if !matched {
			out.add(s.AdditionalProperties)
		}
	}
	return out
}

// declared reports whether name is a property or matches a pattern
// property of some schema of v.
func (k *coercer) declared(v *view, name string) bool {
	for _, s := range v.schemas {
		if _, ok := s.Properties[name]; ok {
			return true
		}
		for _, pp := range k.c.infos[s].patterns {
			if pp.re != nil && pp.re.MatchString(name) {
				return true
			}
		}
	}
	return false
}

// object renames loosely matching keys, drops optional nulls, fills
// defaults when allowed, and coerces each member.
func (k *coercer) object(obj map[string]any, v *view) (any, bool) {
	out := obj
	copied := false // out is a copy of obj, which is never modified
	if k.allows(CoerceKeyMatch) && len(obj) > 0 {
		for _, p := range v.props {
			if _, ok := out[p]; ok {
				continue
			}
			if key, ok := k.looseMember(out, v.props, p, v); ok {
				if !copied {
					out, copied = maps.Clone(obj), true
				}
				out[p] = out[key]
				delete(out, key)
				k.path = append(k.path, jsonpath.Key(p))
				k.record(CoerceKeyMatch, key, p)
				k.path = k.path[:len(k.path)-1]
			}
		}
	}
	// Members are coerced in name order, so that the coercions are listed
	// in a stable order; a first pass in map order finds out whether there
	// is anything to do at all, which is the common case. Neither pass
	// modifies out: each copies it before its first change.
	mark := len(k.out)
	y, changed := k.members(out, v, false)
	if changed {
		k.out = k.out[:mark]
		y, changed = k.members(out, v, true)
	}
	if changed {
		return y, true
	}
	return out, copied
}

// members drops optional nulls, fills defaults when allowed, and coerces
// each member of src, in name order when sorted. It returns src, or the
// changed copy of it and true.
func (k *coercer) members(src map[string]any, v *view, sorted bool) (map[string]any, bool) {
	out, copied := src, false
	if sorted {
		for _, key := range slices.Sorted(maps.Keys(src)) {
			k.member(src, &out, &copied, v, key, src[key])
		}
	} else {
		for key, val := range src {
			k.member(src, &out, &copied, v, key, val)
		}
	}
	if k.allows(CoerceDefault) {
		for _, p := range v.required {
			if _, ok := out[p]; ok {
				continue
			}
			if d, ok := k.defaultOf(k.propertySchemas(v, p)); ok {
				if !copied {
					out, copied = maps.Clone(src), true
				}
				out[p] = d
				k.path = append(k.path, jsonpath.Key(p))
				k.record(CoerceDefault, nil, d)
				k.path = k.path[:len(k.path)-1]
			}
		}
	}
	return out, copied
}

// member drops the member key of src when it is an optional null, or
// coerces its value; out is src or its copy (*copied), copied before the
// first change.
func (k *coercer) member(src map[string]any, out *map[string]any, copied *bool, v *view, key string, val any) {
	own := func() {
		if !*copied {
			*out, *copied = maps.Clone(src), true
		}
	}
	if val == nil && k.allows(CoerceDropNull) && !slices.Contains(v.required, key) && k.declared(v, key) && k.refusesNull(k.propertySchemas(v, key)) {
		own()
		delete(*out, key)
		k.path = append(k.path, jsonpath.Key(key))
		k.record(CoerceDropNull, nil, nil)
		k.path = k.path[:len(k.path)-1]
		return
	}
	ps := k.propertySchemas(v, key)
	if ps.empty() {
		return
	}
	k.path = append(k.path, jsonpath.Key(key))
	y, changed := k.value(val, ps)
	k.path = k.path[:len(k.path)-1]
	if changed {
		own()
		(*out)[key] = y
	}
}

// refusesNull reports whether some schema of ss rejects null.
func (k *coercer) refusesNull(ss schemaSet) bool {
	if ss.empty() {
		return false
	}
	if !k.accepts(nil, ss.one) {
		return true
	}
	return slices.ContainsFunc(ss.more, func(s *jsonschema.Schema) bool { return !k.accepts(nil, s) })
}

// defaultOf returns the first default declared by a schema of ss.
func (k *coercer) defaultOf(ss schemaSet) (any, bool) {
	for _, s := range append([]*jsonschema.Schema{ss.one}, ss.more...) {
		if s == nil || s.Default == nil {
			continue
		}
		var d any
		if json.Unmarshal(s.Default, &d) == nil {
			return d, true
		}
	}
	return nil, false
}

// looseMember returns the one member of obj that is not a declared
// property and matches property p loosely, when no other property missing
// from obj matches it too.
func (k *coercer) looseMember(obj map[string]any, props []string, p string, v *view) (string, bool) {
	want := looseKey(p)
	for _, q := range props {
		if q != p && looseKey(q) == want {
			return "", false // two properties one loose form: ambiguous
		}
	}
	found := ""
	for key := range obj {
		if key == p || looseKey(key) != want || k.declared(v, key) {
			continue
		}
		if found != "" {
			return "", false // two members match
		}
		found = key
	}
	return found, found != ""
}

// array coerces each item under its schemas.
func (k *coercer) array(arr []any, v *view) (any, bool) {
	var out []any
	for i, item := range arr {
		var ss schemaSet
		for _, s := range v.schemas {
			switch {
			case i < len(s.PrefixItems):
				ss.add(s.PrefixItems[i])
			case i < len(s.ItemsArray):
				ss.add(s.ItemsArray[i])
			case len(s.ItemsArray) > 0:
				ss.add(s.AdditionalItems)
			default:
				ss.add(s.Items)
			}
		}
		if ss.empty() {
			continue
		}
		k.path = append(k.path, jsonpath.Index(i))
		y, changed := k.value(item, ss)
		k.path = k.path[:len(k.path)-1]
		if changed {
			if out == nil {
				out = slices.Clone(arr)
			}
			out[i] = y
		}
	}
	if out == nil {
		return arr, false
	}
	return out, true
}
