package schema

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentio/agentio/internal/jsonpath"
)

// The one walk of the compiled schema tree: which subschemas apply to the
// very value a schema is applied to (in place), by each draft's rules.
// Compile's check for reference cycles, coercion, the Cursor and the
// diagnostic pass all ask here, so that a rule ($ref hiding its siblings in
// draft-07, a $dynamicRef resolved lexically) is written once.

// maxInPlaceDepth bounds how many in-place steps [compiled.certain]
// follows from a starting schema; compile refuses cycles, so only a pathological
// schema comes near it.
const maxInPlaceDepth = 64

// hidesSiblings reports whether the keywords beside s's $ref are ignored,
// as draft-07 says.
func (c *compiled) hidesSiblings(s *jsonschema.Schema) bool {
	in := c.infos[s]
	return in != nil && in.ref != nil && c.draft == draft7
}

// inPlace calls yield with each subschema s applies to its own value, in
// the order they are evaluated, until yield returns false. With all false
// it gives those that apply whenever s does: $ref (alone under draft-07),
// a $dynamicRef that resolves lexically, and allOf. With all true it gives
// every in-place applicator: also anyOf, oneOf, not, if, then, else, the
// dependent schemas and, for a $dynamicAnchor, the schemas of dynamic
// under that anchor (where a $dynamicRef may land).
func (c *compiled) inPlace(s *jsonschema.Schema, all bool, dynamic map[string][]*jsonschema.Schema, yield func(*jsonschema.Schema) bool) {
	in := c.infos[s]
	if in == nil {
		return
	}
	if in.ref != nil {
		if !yield(in.ref) || c.draft == draft7 {
			return
		}
	}
	if in.dynRef != nil && !yield(in.dynRef) {
		return
	}
	if all && in.dynAnchor != "" {
		for _, t := range dynamic[in.dynAnchor] {
			if !yield(t) {
				return
			}
		}
	}
	for _, t := range s.AllOf {
		if !yield(t) {
			return
		}
	}
	if !all {
		return
	}
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, {s.Not, s.If, s.Then, s.Else}} {
		for _, t := range list {
			if t != nil && !yield(t) {
				return
			}
		}
	}
	for _, m := range []map[string]*jsonschema.Schema{s.DependentSchemas, s.DependencySchemas} {
		for _, t := range m {
			if !yield(t) {
				return
			}
		}
	}
}

// certain returns the schemas whose keywords apply to a value whenever one
// of seeds applies to it: the seeds and what their $ref, lexical
// $dynamicRef and allOf reach ([compiled.inPlace] with all false), each
// once, depth first, in evaluation order; at most limit of them when limit
// is positive. A schema whose keywords draft-07 ignores beside its $ref is
// not listed itself: its target is.
func (c *compiled) certain(seeds []*jsonschema.Schema, limit int) []*jsonschema.Schema {
	return c.gather(seeds, limit, false)
}

// possible returns the schemas whose keywords may apply to a value when
// one of seeds does: what [compiled.certain] gives, and also the branches
// of anyOf and oneOf and the then and else of a conditional, each once,
// at most limit of them when limit is positive. The subschemas of not and
// if are left out: they test the value, they do not describe it.
func (c *compiled) possible(seeds []*jsonschema.Schema, limit int) []*jsonschema.Schema {
	return c.gather(seeds, limit, true)
}

// gather is [compiled.certain] (alternatives false) and
// [compiled.possible] (alternatives true).
func (c *compiled) gather(seeds []*jsonschema.Schema, limit int, alternatives bool) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	seen := map[*jsonschema.Schema]bool{}
	var visit func(s *jsonschema.Schema, depth int)
	visit = func(s *jsonschema.Schema, depth int) {
		if s == nil || seen[s] || depth > maxInPlaceDepth || limit > 0 && len(out) >= limit {
			return
		}
		seen[s] = true
		if !c.hidesSiblings(s) {
			out = append(out, s)
		}
		c.inPlace(s, alternatives, nil, func(t *jsonschema.Schema) bool {
			if t != s.Not && t != s.If {
				visit(t, depth+1)
			}
			return true
		})
	}
	for _, s := range seeds {
		visit(s, 0)
	}
	return out
}

// located calls yield with each subschema s applies to the value one step
// below its own (the member st.Key of an object, the element st.Index of
// an array), and the keyword it comes from: properties and
// patternProperties that match, else additionalProperties; prefixItems
// (draft-07: the items array), else items (additionalItems). A false
// schema is yielded like any other; under additionalProperties, items or
// additionalItems it means s forbids the location itself. A false s
// yields nothing. The Cursor and Hints step through it; coercion, which
// runs on every member of every lenient value, keeps the same choice
// inline (coerce_members.go) without the per-schema info lookup this needs.
func (c *compiled) located(s *jsonschema.Schema, st jsonpath.Step, yield func(sub *jsonschema.Schema, keyword string)) {
	in := c.infos[s]
	if in == nil || in.isFalse {
		return
	}
	if st.Kind == jsonpath.KindKey {
		matched := false
		if sub, ok := s.Properties[st.Key]; ok {
			yield(sub, "properties")
			matched = true
		}
		for _, pp := range in.patterns {
			if pp.re != nil && pp.re.MatchString(st.Key) {
				yield(pp.s, "patternProperties")
				matched = true
			}
		}
		if !matched && s.AdditionalProperties != nil {
			yield(s.AdditionalProperties, "additionalProperties")
		}
		return
	}
	prefix, rest, restKw := c.tuple(s)
	switch {
	case st.Index < len(prefix):
		yield(prefix[st.Index], "prefixItems")
	case rest != nil:
		yield(rest, restKw)
	}
}

// forbids reports whether sub, which located yielded under keyword, makes
// the location itself not allowed: a false schema for the members or
// items a schema does not name.
func (c *compiled) forbids(sub *jsonschema.Schema, keyword string) bool {
	return keyword != "properties" && keyword != "patternProperties" && keyword != "prefixItems" && c.infos[sub].isFalse
}

// tuple returns the schemas of an array's leading elements, the schema of
// the elements after them and the keyword that holds it, by the draft.
func (c *compiled) tuple(s *jsonschema.Schema) (prefix []*jsonschema.Schema, rest *jsonschema.Schema, restKw string) {
	if c.draft == draft7 && s.ItemsArray != nil {
		return s.ItemsArray, s.AdditionalItems, "additionalItems"
	}
	if c.draft == draft7 {
		return nil, s.Items, "items"
	}
	return s.PrefixItems, s.Items, "items"
}
