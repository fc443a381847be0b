package schema

import (
	"fmt"
	"sort"
)

// DefaultMaxDepth is how deeply a value may nest for [Schema.Validate] when
// [ParseOptions.MaxDepth] is 0. Model output nests a few levels; a value
// nested deeper than this is far more likely to be runaway or hostile
// output than data.
const DefaultMaxDepth = 128

// depthLimit returns the nesting limit of s.
func (s *Schema) depthLimit() int {
	if s.maxDepth > 0 {
		return s.maxDepth
	}
	return DefaultMaxDepth
}

// tooDeep returns a violation at the first place where v nests more than
// limit levels below the root, or false when it does not. The walk stops
// at that place, so its cost is bounded by the part of v it visits, and
// map keys are visited in sorted order so the place reported is stable.
//
// jsonschema-go builds its error for an invalid value level by level, at a
// cost that grows faster than quadratically with the depth (seconds at a
// thousand levels under a recursive schema): the limit keeps a model's
// output from stalling the caller.
func tooDeep(v any, limit int) (Violation, bool) {
	var path segments
	if !deeper(v, limit, &path) {
		return Violation{}, false
	}
	return Violation{
		Path:    path.jsonPath(),
		Pointer: path.pointer(),
		Keyword: "maxDepth",
		Message: fmt.Sprintf("the value nests more than %d levels deep; flatten it", limit),
	}, true
}

// deeper reports whether v nests more than limit levels below the path p
// leads to, leaving p at the first container beyond the limit.
func deeper(v any, limit int, p *segments) bool {
	switch x := v.(type) {
	case []any:
		if len(*p) == limit {
			return true
		}
		for i, e := range x {
			p.push(segment{index: i})
			if deeper(e, limit, p) {
				return true
			}
			p.pop()
		}
	case map[string]any:
		if len(*p) == limit {
			return true
		}
		keys := make([]string, 0, len(x))
		for k, e := range x {
			switch e.(type) {
			case []any, map[string]any:
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p.push(segment{key: k, isKey: true})
			if deeper(x[k], limit, p) {
				return true
			}
			p.pop()
		}
	}
	return false
}
