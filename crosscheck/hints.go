package crosscheck

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/agentio/agentio/internal/jsonpath"
)

// maxHintSchemas bounds the subschemas gathered for one location, so that a
// schema of many $refs and alternatives costs little.
const maxHintSchemas = 64

// hints are the subschemas that may apply at one location of an output:
// those reached through properties, additionalProperties, items and
// prefixItems, with what $ref, allOf, anyOf and oneOf add. NotPlaceholder
// reads their enum, const, description, examples and default.
type hints []map[string]any

// schemaAt returns the hints at an instance path ("$.findings[0].note") of
// a decoded schema; none when root is nil.
func schemaAt(root any, path string) hints {
	rm, ok := root.(map[string]any)
	if !ok {
		return nil
	}
	p, err := ParsePath(path)
	if err != nil {
		return nil
	}
	cur := expand(rm, []map[string]any{rm})
	for _, st := range p.steps {
		var next []map[string]any
		for _, s := range cur {
			next = append(next, child(s, st)...)
		}
		cur = expand(rm, next)
		if len(cur) == 0 {
			return nil
		}
	}
	return cur
}

// child returns the subschemas of s for one step.
func child(s map[string]any, st jsonpath.Step) []map[string]any {
	var out []map[string]any
	add := func(v any) {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
		}
	}
	switch st.Kind {
	case jsonpath.KindKey:
		if props, ok := s["properties"].(map[string]any); ok {
			if p, ok := props[st.Key]; ok {
				add(p)
				return out
			}
		}
		add(s["additionalProperties"])
	case jsonpath.KindIndex:
		if pre, ok := s["prefixItems"].([]any); ok && st.Index < len(pre) {
			add(pre[st.Index])
			return out
		}
		if items, ok := s["items"].([]any); ok { // draft-07 tuple
			if st.Index < len(items) {
				add(items[st.Index])
			} else {
				add(s["additionalItems"])
			}
			return out
		}
		add(s["items"])
	}
	return out
}

// expand adds to seeds what their $ref, allOf, anyOf and oneOf lead to,
// each schema once, at most maxHintSchemas.
func expand(root map[string]any, seeds []map[string]any) []map[string]any {
	var out []map[string]any
	var visit func(s map[string]any, depth int)
	visit = func(s map[string]any, depth int) {
		if s == nil || len(out) >= maxHintSchemas || depth > 16 {
			return
		}
		out = append(out, s)
		if ref, ok := s["$ref"].(string); ok {
			if t, ok := resolveRef(root, ref).(map[string]any); ok {
				visit(t, depth+1)
			}
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			if list, ok := s[k].([]any); ok {
				for _, e := range list {
					if m, ok := e.(map[string]any); ok {
						visit(m, depth+1)
					}
				}
			}
		}
	}
	for _, s := range seeds {
		visit(s, 0)
	}
	return out
}

// resolveRef follows a local reference ("#/$defs/finding"); others give nil.
func resolveRef(root map[string]any, ref string) any {
	if !strings.HasPrefix(ref, "#") {
		return nil
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil
	}
	var cur any = root
	if frag == "" {
		return cur
	}
	if !strings.HasPrefix(frag, "/") {
		return nil
	}
	for tok := range strings.SplitSeq(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := cur.(type) {
		case map[string]any:
			cur = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			cur = x[i]
		default:
			return nil
		}
	}
	return cur
}

// allows reports whether an enum or const of the hints holds s exactly.
func (h hints) allows(s string) bool {
	for _, m := range h {
		if c, ok := m["const"]; ok && c == s {
			return true
		}
		if list, ok := m["enum"].([]any); ok {
			for _, e := range list {
				if e == s {
					return true
				}
			}
		}
	}
	return false
}

// annotated reports whether s repeats, up to [Normalize], the description,
// an example or the default of the hints: the schema's own words echoed
// back instead of an answer.
func (h hints) annotated(s string) bool {
	n := Normalize(s)
	if n == "" {
		return false
	}
	same := func(v any) bool {
		t, ok := v.(string)
		return ok && Normalize(t) == n
	}
	for _, m := range h {
		if same(m["description"]) || same(m["default"]) {
			return true
		}
		if list, ok := m["examples"].([]any); ok {
			for _, e := range list {
				if same(e) {
					return true
				}
			}
		}
	}
	return false
}
