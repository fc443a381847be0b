package schema

import (
	"fmt"
	"sort"

	"github.com/agentio/agentio/internal/jsonpath"
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
// limit levels below the root, or false when it does not. Both walks stop
// at that place, so their cost is bounded by the part of v they visit. A
// value within the limit costs one walk that allocates nothing; only a
// value beyond it is walked again, with map keys in sorted order, so the
// place reported is stable.
//
// jsonschema-go builds its error for an invalid value level by level, at a
// cost that grows faster than quadratically with the depth (seconds at a
// thousand levels under a recursive schema): the limit keeps a model's
// output from stalling the caller.
func tooDeep(v any, limit int) (Violation, bool) {
	if !exceeds(v, limit) {
		return Violation{}, false
	}
	var path jsonpath.Path
	deeper(v, limit, &path)
	return Violation{
		Path:    jsonpath.Format(path),
		Pointer: jsonpath.Pointer(path),
		Keyword: "maxDepth",
		Message: fmt.Sprintf("the value nests more than %d levels deep; flatten it", limit),
	}, true
}

// exceeds reports whether v holds an array or object limit levels below
// its root, that is, nests more than limit levels deep. It visits maps in
// any order and allocates nothing: it is the whole depth check of a value
// that is within the limit.
func exceeds(v any, limit int) bool {
	switch x := v.(type) {
	case []any:
		if limit == 0 {
			return true
		}
		for _, e := range x {
			if exceeds(e, limit-1) {
				return true
			}
		}
	case map[string]any:
		if limit == 0 {
			return true
		}
		for _, e := range x {
			if exceeds(e, limit-1) {
				return true
			}
		}
	}
	return false
}

// deeper reports whether v nests more than limit levels below the path p
// leads to, leaving p at the first container beyond the limit.
func deeper(v any, limit int, p *jsonpath.Path) bool {
	switch x := v.(type) {
	case []any:
		if len(*p) == limit {
			return true
		}
		for i, e := range x {
			*p = append(*p, jsonpath.Index(i))
			if deeper(e, limit, p) {
				return true
			}
			*p = (*p)[:len(*p)-1]
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
			*p = append(*p, jsonpath.Key(k))
			if deeper(x[k], limit, p) {
				return true
			}
			*p = (*p)[:len(*p)-1]
		}
	}
	return false
}
