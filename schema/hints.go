package schema

import (
	"encoding/json"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentio/agentio/internal/jsonpath"
)

// maxHints bounds the subschemas [Schema.Hints] gathers for one location,
// so that a schema of many references and alternatives costs little.
const maxHints = 64

// A Hint is what one subschema that may apply at a location says of the
// value there besides whether it is valid: the words and values its author
// offered the model, and the values it allows outright.
type Hint struct {
	// Description is the subschema's description; empty when it has none.
	Description string
	// Default is its default, decoded; HasDefault tells a null default
	// from none.
	Default    any
	HasDefault bool
	// Examples are its examples, decoded.
	Examples []any
	// Allowed are the members of its enum, or its const alone; nil when it
	// has neither.
	Allowed []any
}

// Hints returns a [Hint] for each subschema that may apply to the value at
// the instance path path ("$.findings[0].note", as in [Violation].Path):
// those reached from the root through properties, patternProperties,
// additionalProperties, prefixItems and items (draft-07: items and
// additionalItems), $ref, allOf, anyOf, oneOf, then and else, each once and
// at most 64, in evaluation order. Unlike a [Cursor], which checks against
// the subschemas that certainly apply, Hints includes the alternatives: an
// enum of one anyOf branch is a value the schema may allow there. It
// returns none for a path that does not parse, a location the schema does
// not describe, a nil Schema, or a schema using $dynamicRef. The values
// in a Hint are shared with the Schema and must not be modified; Hints is
// safe for concurrent use.
func (s *Schema) Hints(path string) []Hint {
	if s == nil || s.c == nil || s.c.dynamic {
		return nil
	}
	p, err := jsonpath.Parse(path, false)
	if err != nil {
		return nil
	}
	cur := s.c.possible([]*jsonschema.Schema{s.c.root}, maxHints)
	for _, st := range p {
		var next []*jsonschema.Schema
		for _, sub := range cur {
			s.c.located(sub, st, func(t *jsonschema.Schema, keyword string) {
				if !s.c.forbids(t, keyword) {
					next = append(next, t)
				}
			})
		}
		if len(next) == 0 {
			return nil
		}
		cur = s.c.possible(next, maxHints)
	}
	out := make([]Hint, 0, len(cur))
	for _, sub := range cur {
		h := Hint{Description: sub.Description, Examples: slices.Clone(sub.Examples)}
		if len(sub.Default) > 0 && json.Unmarshal(sub.Default, &h.Default) == nil {
			h.HasDefault = true
		}
		switch {
		case sub.Const != nil:
			h.Allowed = []any{*sub.Const}
		case sub.Enum != nil:
			h.Allowed = slices.Clone(sub.Enum)
		}
		out = append(out, h)
	}
	return out
}
