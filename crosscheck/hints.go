package crosscheck

import "github.com/agentio/agentio/schema"

// hints are what the subschemas that may apply at one location of an
// output say of it ([schema.Schema.Hints]); NotPlaceholder reads their
// enum, const, description, examples and default.
type hints []schema.Hint

// allows reports whether an enum or const of the hints holds s exactly.
func (h hints) allows(s string) bool {
	for _, x := range h {
		for _, e := range x.Allowed {
			if e == s {
				return true
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
	for _, x := range h {
		if same(x.Description) || x.HasDefault && same(x.Default) {
			return true
		}
		for _, e := range x.Examples {
			if same(e) {
				return true
			}
		}
	}
	return false
}
