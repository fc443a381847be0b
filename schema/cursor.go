package schema

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/schematree"
)

// maxCursorSchemas bounds the subschemas a Cursor keeps for one location;
// beyond it, the rest are not checked early (the final validation still
// checks everything).
const maxCursorSchemas = 64

// A Cursor follows a value that is still being written, part by part, and
// checks each part as soon as it is complete, against the subschemas that
// certainly apply to it whatever the rest of the value turns out to be: a
// violation found there can no longer go away, so the value as a whole
// will be invalid.
//
// Step into a member with [Cursor.Key] or an element with [Cursor.Index],
// back out with [Cursor.Up], and check a complete part with [Cursor.Check].
// A subschema certainly applies when it is reached from the root through
// properties, patternProperties, additionalProperties, prefixItems and
// items (draft-07: items and additionalItems), $ref and allOf. Keywords that
// depend on the rest of the value (anyOf, oneOf, not, if, dependentSchemas,
// unevaluatedProperties and unevaluatedItems of an enclosing schema) do not
// lead further, so parts under them are checked only by the final
// validation; a part reached is checked against the whole of each subschema
// found, those keywords included. When the schema uses $dynamicRef, whose
// target depends on the path taken, a Cursor checks nothing.
//
// A Cursor is cheap to create and is used by one goroutine; the Schema may
// be shared.
type Cursor struct {
	s      *Schema
	off    bool // nothing is checked ($dynamicRef)
	frames []cursorFrame
}

// A cursorFrame is one location: the schemas that apply there (the ones
// reached directly, then those their $ref and allOf lead to) and what a
// part there violates on the way in (an additional property, an item
// beyond what the array allows).
type cursorFrame struct {
	at     *jsonpath.Chain
	direct []*jsonschema.Schema // reached through a location keyword
	all    []*jsonschema.Schema // direct and what $ref and allOf add
	denied []finding            // the location itself is not allowed
}

// Cursor returns a Cursor at the root of a value.
func (s *Schema) Cursor() *Cursor {
	c := &Cursor{s: s}
	if s == nil || s.c == nil {
		c.off = true
		c.frames = []cursorFrame{{}}
		return c
	}
	c.off = s.c.dynamic
	c.frames = []cursorFrame{c.frame(nil, []*jsonschema.Schema{s.c.root}, nil)}
	return c
}

// frame returns the frame at `at` for the schemas reached directly.
func (c *Cursor) frame(at *jsonpath.Chain, direct []*jsonschema.Schema, denied []finding) cursorFrame {
	f := cursorFrame{at: at, direct: direct, denied: denied}
	if c.off {
		return f
	}
	f.all = c.s.c.certain(direct, maxCursorSchemas)
	return f
}

// Depth returns how many steps the cursor is below the root.
func (c *Cursor) Depth() int { return len(c.frames) - 1 }

// Path returns the cursor's location, JSONPath style ("$.findings[2]").
func (c *Cursor) Path() string { return c.top().at.String() }

// Paths returns the path of each location from the root down to the
// cursor's: "$", then each part stepped into.
func (c *Cursor) Paths() []string {
	out := make([]string, len(c.frames))
	for i, f := range c.frames {
		out[i] = f.at.String()
	}
	return out
}

func (c *Cursor) top() *cursorFrame { return &c.frames[len(c.frames)-1] }

// Key steps into the member named name of the object at the cursor.
func (c *Cursor) Key(name string) {
	c.step(jsonpath.Key(name))
}

// Index steps into the element at index i of the array at the cursor.
func (c *Cursor) Index(i int) {
	c.step(jsonpath.Index(i))
}

// step steps into the member or element st.
func (c *Cursor) step(st jsonpath.Step) {
	f := c.top()
	at := schematree.Extend(f.at, st)
	var direct []*jsonschema.Schema
	var denied []finding
	for _, s := range f.all {
		c.s.c.located(s, st, func(sub *jsonschema.Schema, keyword string) {
			if !c.s.c.forbids(sub, keyword) {
				direct = append(direct, sub)
				return
			}
			d := &diagnosis{c: c.s.c}
			if st.Kind == jsonpath.KindKey {
				d.add(&denied, at, s, keyword, "additional property "+quote(st.Key, maxQuoted)+" is not allowed"+d.allowedHint(s))
			} else {
				prefix, _, _ := c.s.c.tuple(s)
				d.add(&denied, at, s, keyword, "unexpected item: the array may have at most "+plural(len(prefix), "item"))
			}
		})
	}
	c.frames = append(c.frames, c.frame(at, direct, denied))
}

// Up steps back to the parent of the cursor's location; at the root it
// does nothing.
func (c *Cursor) Up() {
	if len(c.frames) > 1 {
		c.frames = c.frames[:len(c.frames)-1]
	}
}

// Check returns every way v, the complete value at the cursor, violates
// the subschemas that certainly apply there, with paths from the root of
// the whole value; none when v satisfies them or when none is known. v is
// a decoded JSON value, as for [Schema.Validate].
//
// A violation Check reports is one the whole value will have; the converse
// does not hold, so validate the whole value when it is complete.
func (c *Cursor) Check(v any) []Violation {
	f := c.top()
	if c.off {
		return nil
	}
	out := append([]finding(nil), f.denied...)
	if len(f.direct) > 0 {
		if pv, ok := plainValue(v); ok {
			d := c.s.c.newDiagnosis(c.s.c.assertFormats, true)
			for _, s := range f.direct {
				d.eval(pv, s, f.at, &out, nil)
			}
			d.done()
		}
	}
	return violations(dedupe(out))
}
