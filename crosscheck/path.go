package crosscheck

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/agentio/agentio/internal/jsonpath"
)

// ErrInvalidPath is returned (wrapped, with the path and the offset of the
// fault) by [ParsePath] and by everything that compiles paths.
var ErrInvalidPath = errors.New("crosscheck: invalid path")

// A Path selects values in a decoded JSON value, in the JSONPath form the
// rest of agentio writes instance locations in (a violation's Path reads
// back as the Path to the value it names):
//
//	$                      the root
//	$.findings             a member (letters, digits, '_', '$', '-')
//	$['odd key']           any member name, quoted (\' \\ \n \uXXXX \xHH escapes)
//	$.findings[2]          an element
//	$.findings[*]          every element, or every member of an object
//	$.findings[*].severity
//
// A Path is immutable and safe for concurrent use.
type Path struct {
	src   string
	steps jsonpath.Path
}

// ParsePath compiles a path. The error wraps [ErrInvalidPath] and says
// at which byte the path went wrong.
func ParsePath(s string) (*Path, error) {
	steps, err := jsonpath.Parse(s, true)
	if err != nil {
		var pe *jsonpath.Error
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%w %q at byte %d: %s", ErrInvalidPath, s, pe.Offset, pe.Reason)
		}
		return nil, fmt.Errorf("%w %q: %w", ErrInvalidPath, s, err)
	}
	return &Path{src: s, steps: steps}, nil
}

// String returns the path as written.
func (p *Path) String() string { return p.src }

// Matches reports whether p selects the value at the concrete location at
// ("$.findings[2].evidence", as a violation or a stream's part names it):
// a [*] step matches any member or element, every other step itself. A
// location that does not parse matches nothing.
func (p *Path) Matches(at string) bool {
	steps, err := jsonpath.Parse(at, false)
	if err != nil || len(steps) != len(p.steps) {
		return false
	}
	for i, st := range p.steps {
		if st.Kind != jsonpath.KindAll && st != steps[i] {
			return false
		}
	}
	return true
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
	var walk func(v any, at loc, steps jsonpath.Path)
	walk = func(v any, at loc, steps jsonpath.Path) {
		if len(steps) == 0 {
			fn(at, v)
			return
		}
		st := steps[0]
		switch st.Kind {
		case jsonpath.KindKey:
			if m, ok := v.(map[string]any); ok {
				if x, ok := m[st.Key]; ok {
					walk(x, loc{parent: at.String(), key: st.Key, isKey: true}, steps[1:])
				}
			}
		case jsonpath.KindIndex:
			if a, ok := v.([]any); ok && st.Index < len(a) {
				walk(a[st.Index], loc{parent: at.String(), index: st.Index}, steps[1:])
			}
		case jsonpath.KindAll:
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
func keyStep(k string) string { return string(jsonpath.AppendKey(nil, k)) }

// firstKey returns the member name p starts with ("tickets" in
// "$.tickets[*].id"), and true; for a path that starts otherwise ("$",
// "$[*]"), "" and true: it reads the whole.
func (p *Path) firstKey() (string, bool) {
	if len(p.steps) > 0 && p.steps[0].Kind == jsonpath.KindKey {
		return p.steps[0].Key, true
	}
	return "", true
}
