package schema

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

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
	switch {
	case len(fit) == 1:
		return k.respell(x, fit)
	case len(fit) > 1:
		// Several alternatives take x as written: none is coerced
		// through, which also keeps coercion linear where alternatives
		// overlap at every level of a recursive schema.
		return x, false
	}
	var (
		found bool
		best  any
		recs  []Coercion
	)
	for _, s := range alts {
		y, made, ok := k.trial(x, s)
		if !ok {
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

// trial coerces x under the schema s alone and returns the result and the
// coercions that made it, without recording them; ok is false when nothing
// changed or s does not accept the result.
func (k *coercer) trial(x any, s *jsonschema.Schema) (y any, made []Coercion, ok bool) {
	mark := len(k.out)
	y, changed := k.value(x, schemaSet{one: s})
	made = slices.Clone(k.out[mark:])
	k.out = k.out[:mark]
	return y, made, changed && k.accepts(y, s)
}

// respell coerces x, which the schemas of fit (one, as alternative calls
// it) accept as written, as each of them would (5.0 written 5 where an
// integer is wanted), when they all make the same change; else x stays as
// it is.
func (k *coercer) respell(x any, fit []*jsonschema.Schema) (any, bool) {
	var (
		spelt any
		recs  []Coercion
	)
	for i, s := range fit {
		y, made, ok := k.trial(x, s)
		if !ok || i > 0 && !sameJSON(y, spelt) {
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
