package schema

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentio/agentio/internal/jsonpath"
)

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
