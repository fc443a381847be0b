package dialect

import (
	"github.com/agentio/agentio/internal/jsontree"
)

// An openaiRestorer maps a value produced against a strict schema back:
// it removes the nulls of formerly optional properties. It only reads its
// fields, so it may be used concurrently.
type openaiRestorer struct {
	root     *jsontree.Node
	optional map[*jsontree.Node]map[string]bool
}

// value restores v produced against schema s; hops counts the unions
// crossed without descending into v.
func (r *openaiRestorer) value(v any, s *jsontree.Node, hops int) any {
	o := deref(r.root, s)
	if o == nil || v == nil || hops > openaiMaxRefHops {
		return v
	}
	if branches, ok := o.ArrayMember("anyOf"); ok {
		if b := r.pick(v, branches); b != nil {
			return r.value(v, b, hops+1)
		}
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		props := o.ObjectMember("properties")
		optional := r.optional[o]
		if props == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if e == nil && optional[k] {
				continue
			}
			if ps := props.Get(k); ps != nil {
				out[k] = r.value(e, ps, 0)
				continue
			}
			out[k] = e
		}
		return out
	case []any:
		items := o.Get("items")
		if items == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = r.value(e, items, 0)
		}
		return out
	}
	return v
}

// pick chooses the anyOf branch v was produced against: for an object the
// branch with exactly its keys (strict objects have all keys), else the
// first branch of v's kind.
func (r *openaiRestorer) pick(v any, branches []*jsontree.Node) *jsontree.Node {
	switch x := v.(type) {
	case map[string]any:
		var fallback *jsontree.Node
		for _, b := range branches {
			o := deref(r.root, b)
			if o == nil {
				continue
			}
			if props := o.ObjectMember("properties"); props != nil && len(props.Keys) == len(x) {
				same := true
				for k := range x {
					if !props.Has(k) {
						same = false
						break
					}
				}
				if same {
					return b
				}
			}
			if fallback == nil && (typeIncludes(o, "object") || o.Has("anyOf")) {
				fallback = b
			}
		}
		return fallback
	case []any:
		for _, b := range branches {
			if o := deref(r.root, b); o != nil && (typeIncludes(o, "array") || o.Has("anyOf")) {
				return b
			}
		}
	}
	return nil
}
