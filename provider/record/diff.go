package record

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentio/agentio/internal/jsonpath"
)

// fieldRank orders the members of a request as its fields are declared,
// so that the first difference reported is the first a reader would see.
var fieldRank = map[string]int{
	"system": 1, "messages": 2, "output": 3, "tools": 4, "tool_choice": 5, "max_tokens": 6,
	"role": 10, "content": 11, "tool_calls": 12, "tool_call_id": 13, "is_error": 14,
	"id": 20, "name": 21, "description": 22, "arguments": 23, "schema": 24, "input_schema": 25,
	"strict": 26, "format": 27, "mode": 28,
}

// orderedKeys returns the members of a and b, in declaration order, then
// the unknown ones sorted.
func orderedKeys(a, b map[string]any) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(x, y string) int {
		rx, okx := fieldRank[x]
		ry, oky := fieldRank[y]
		switch {
		case okx && oky:
			return rx - ry
		case okx:
			return -1
		case oky:
			return 1
		}
		return strings.Compare(x, y)
	})
	return keys
}

// absent stands for a member or element one side lacks.
type absentValue struct{}

var absent absentValue

// firstDiff returns the path of the first place where recorded and
// requested differ, and the two values there; ok is false when they are
// equal.
func firstDiff(recorded, requested any, at *jsonpath.Chain) (path string, rec, req any, ok bool) {
	switch a := recorded.(type) {
	case map[string]any:
		if b, isMap := requested.(map[string]any); isMap {
			for _, k := range orderedKeys(a, b) {
				x, inA := a[k]
				y, inB := b[k]
				if !inA {
					x = absent
				}
				if !inB {
					y = absent
				}
				if p, r, q, ok := firstDiff(x, y, at.Key(k)); ok {
					return p, r, q, true
				}
			}
			return "", nil, nil, false
		}
	case []any:
		if b, isSlice := requested.([]any); isSlice {
			for i := range max(len(a), len(b)) {
				var x, y any = absent, absent
				if i < len(a) {
					x = a[i]
				}
				if i < len(b) {
					y = b[i]
				}
				if p, r, q, ok := firstDiff(x, y, at.Index(i)); ok {
					return p, r, q, true
				}
			}
			return "", nil, nil, false
		}
	default:
		if recorded == requested {
			return "", nil, nil, false
		}
	}
	return at.String(), recorded, requested, true
}

// equalLeaves counts the leaves (strings, numbers, booleans, nulls) equal
// at the same paths of a and b.
func equalLeaves(a, b any) int {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return 0
		}
		n := 0
		for k, v := range x {
			if w, ok := y[k]; ok {
				n += equalLeaves(v, w)
			}
		}
		return n
	case []any:
		y, ok := b.([]any)
		if !ok {
			return 0
		}
		n := 0
		for i := range min(len(x), len(y)) {
			n += equalLeaves(x[i], y[i])
		}
		return n
	default:
		if a == b {
			return 1
		}
		return 0
	}
}

// show writes a value of a difference for a message: JSON, cut short.
func show(v any) string {
	if v == any(absent) {
		return "(absent)"
	}
	b, err := canonical(v)
	if err != nil {
		return "?"
	}
	const limit = 60
	if s := string(b); len(s) > limit {
		return s[:limit] + "..."
	}
	return string(b)
}

// miss builds the *MissError of a request (its key, model and redacted
// tree) that found no recording in dir, reading the store to find the
// nearest recording. Files that cannot be read are passed over.
func miss(dir, key, model string, tree any) *MissError {
	e := &MissError{Key: key, Dir: dir}
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	slices.Sort(names)
	var best *file
	bestSame, bestScore := false, -1
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		f, err := decodeFile(name, data)
		if err != nil || f.Key == key {
			continue
		}
		same := f.Model == model
		score := equalLeaves(f.Request, tree)
		if best == nil || same && !bestSame || same == bestSame && score > bestScore {
			best, bestSame, bestScore = f, same, score
		}
	}
	if best == nil {
		return e
	}
	e.Nearest = best.Key
	recorded := map[string]any{"model": best.Model, "request": best.Request}
	requested := map[string]any{"model": model, "request": tree}
	if p, r, q, ok := firstDiff(recorded, requested, nil); ok {
		e.Field = strings.Replace(p, "$.request", "$", 1)
		e.Recorded, e.Requested = show(r), show(q)
	}
	return e
}
