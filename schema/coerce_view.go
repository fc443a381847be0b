package schema

import (
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

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
