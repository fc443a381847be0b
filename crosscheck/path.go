package crosscheck

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalidPath is returned (wrapped, with the path and the offset of the
// fault) by [ParsePath] and by everything that compiles paths.
var ErrInvalidPath = errors.New("crosscheck: invalid path")

// A Path selects values in a decoded JSON value, in the JSONPath form the
// rest of agentio writes instance locations in:
//
//	$                      the root
//	$.findings             a member (letters, digits, '_', '-')
//	$['odd key']           any member name, quoted (\' and \\ escaped)
//	$.findings[2]          an element
//	$.findings[*]          every element, or every member of an object
//	$.findings[*].severity
//
// A Path is immutable and safe for concurrent use.
type Path struct {
	src   string
	steps []step
}

type step struct {
	key   string
	index int
	kind  stepKind
}

type stepKind uint8

const (
	stepKey stepKind = iota
	stepIndex
	stepAll
)

// ParsePath compiles a path. The error wraps [ErrInvalidPath].
func ParsePath(s string) (*Path, error) {
	bad := func(at int, why string) error {
		return fmt.Errorf("%w %q at byte %d: %s", ErrInvalidPath, s, at, why)
	}
	if !strings.HasPrefix(s, "$") {
		return nil, bad(0, "a path starts with $")
	}
	p := &Path{src: s}
	i := 1
	for i < len(s) {
		switch s[i] {
		case '.':
			j := i + 1
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			if j == i+1 {
				return nil, bad(i+1, "a member name after '.' (letters, digits, '_', '-'; quote others as ['name'])")
			}
			p.steps = append(p.steps, step{kind: stepKey, key: s[i+1 : j]})
			i = j
		case '[':
			if i+1 >= len(s) {
				return nil, bad(i, "an unclosed [")
			}
			switch c := s[i+1]; {
			case c == '*':
				if i+2 >= len(s) || s[i+2] != ']' {
					return nil, bad(i+2, "] after *")
				}
				p.steps = append(p.steps, step{kind: stepAll})
				i += 3
			case c == '\'' || c == '"':
				key, end, ok := quoted(s, i+1)
				if !ok || end >= len(s) || s[end] != ']' {
					return nil, bad(i+1, "a quoted member name closed by ]")
				}
				p.steps = append(p.steps, step{kind: stepKey, key: key})
				i = end + 1
			case c >= '0' && c <= '9':
				j := i + 1
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				n, err := strconv.Atoi(s[i+1 : j])
				if err != nil || j >= len(s) || s[j] != ']' || (j-i > 2 && s[i+1] == '0') {
					return nil, bad(i+1, "an index (a non-negative integer) closed by ]")
				}
				p.steps = append(p.steps, step{kind: stepIndex, index: n})
				i = j + 1
			default:
				return nil, bad(i+1, "an index, * or a quoted name after [")
			}
		default:
			return nil, bad(i, "'.' or '[' between steps")
		}
	}
	return p, nil
}

// String returns the path as written.
func (p *Path) String() string { return p.src }

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// quoted reads a quoted name starting at s[i] (the quote) and returns it
// and the offset after the closing quote.
func quoted(s string, i int) (string, int, bool) {
	q := s[i]
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; c {
		case '\\':
			if j+1 >= len(s) {
				return "", 0, false
			}
			j++
			b.WriteByte(s[j])
		case q:
			return b.String(), j + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

// A Match is one value a [Path] selected, with its concrete location
// ("$.findings[2]").
type Match struct {
	Path  string
	Value any
}

// Select returns the values p selects in v, in document order (object
// members by name). Steps that do not apply (a member of a non-object, an
// index past the end) select nothing.
func (p *Path) Select(v any) []Match {
	var out []Match
	p.each(v, func(l loc, x any) { out = append(out, Match{Path: l.String(), Value: x}) })
	return out
}

// A loc is where a selected value is: its parent's path and the last
// step, rendered only when asked (most selected values never are).
type loc struct {
	parent string
	key    string
	index  int
	isKey  bool
	root   bool
}

// String returns the location as a path.
func (l loc) String() string {
	switch {
	case l.root:
		return "$"
	case l.isKey:
		return l.parent + keyStep(l.key)
	}
	return l.parent + "[" + strconv.Itoa(l.index) + "]"
}

// each calls fn with every value p selects in v and its location.
func (p *Path) each(v any, fn func(loc, any)) {
	var walk func(v any, at loc, steps []step)
	walk = func(v any, at loc, steps []step) {
		if len(steps) == 0 {
			fn(at, v)
			return
		}
		st := steps[0]
		switch st.kind {
		case stepKey:
			if m, ok := v.(map[string]any); ok {
				if x, ok := m[st.key]; ok {
					walk(x, loc{parent: at.String(), key: st.key, isKey: true}, steps[1:])
				}
			}
		case stepIndex:
			if a, ok := v.([]any); ok && st.index < len(a) {
				walk(a[st.index], loc{parent: at.String(), index: st.index}, steps[1:])
			}
		case stepAll:
			switch x := v.(type) {
			case []any:
				parent := at.String()
				for i, e := range x {
					walk(e, loc{parent: parent, index: i}, steps[1:])
				}
			case map[string]any:
				parent := at.String()
				for _, k := range sortedKeys(x) {
					walk(x[k], loc{parent: parent, key: k, isKey: true}, steps[1:])
				}
			}
		}
	}
	walk(v, loc{root: true}, p.steps)
}

// keyStep renders a member step as the rest of agentio does: .name for
// plain names, ['name'] otherwise.
func keyStep(k string) string {
	plain := k != "" && !(k[0] >= '0' && k[0] <= '9')
	for i := 0; plain && i < len(k); i++ {
		plain = isNameByte(k[i]) && k[i] != '-'
	}
	if plain {
		return "." + k
	}
	return "['" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(k) + "']"
}
