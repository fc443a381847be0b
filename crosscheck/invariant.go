package crosscheck

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/schema"
)

// The kinds of [Invariant].
const (
	// CountEquals: each count under Counts equals the number of Items whose
	// Field has that count's name as its value ($.counts.blocker is the
	// number of $.findings[*] whose severity is "blocker"). Counts selects
	// an object of counts, checked member by member; or, with Value, one
	// count of the items whose Field equals Value.
	CountEquals = "count_equals"
	// SumEquals: the number at Total equals the sum of Field over Items.
	SumEquals = "sum_equals"
	// UniqueBy: no two Items share the values of the Key fields.
	UniqueBy = "unique_by"
	// ReferenceExists: every value Refs selects is among the values
	// Targets selects (an id used in one list is defined in another).
	ReferenceExists = "reference_exists"
	// QuoteInInput: every string Values selects is a quote of the inputs
	// (the rendered prompt, or the strings of the parameter Parameter):
	// it occurs there once both are normalised ([Normalize]: case, white
	// space, quotation marks, dashes), starting and ending at word
	// boundaries of the inputs, so that "safe" is no quote of "unsafe",
	// "30 days" none of "300 days" or "1,300 days", "We can" none of "We
	// can't" and "refundable" none of "non-refundable": letters and digits
	// of one word are not split, nor a number at its separators ("3.25"),
	// a word at its apostrophe (except after an elision, "l'homme", and
	// before a possessive's "s", "the Supplier's") or at a hyphen between
	// letters, nor a letter from its marks; in scripts written without
	// spaces, such as Chinese, Japanese and Thai, every character (with
	// its marks) stands alone. An ellipsis ("...", "…") inside a quote
	// splits it into parts that must each occur so, in order
	// ([QuoteParts]). An empty or blank quote, one that
	// is only an ellipsis, and one shorter than MinQuoteLength are
	// violations: they ground nothing.
	QuoteInInput = "quote_in_input"
	// ValueInInput: every value Refs selects in the output is among the
	// values Targets selects in the parameters (ids, names, URLs given to
	// the model), compared exactly. The first member Targets names
	// ("tickets" in "$.tickets[*].id") is the parameter it reads.
	ValueInInput = "value_in_input"
	// NotPlaceholder: no string Values selects (or holds, for an object or
	// array) is a placeholder rather than an answer: blank, one of
	// [DefaultPlaceholders] ("N/A", "TBD", "TODO") or Placeholders (for a
	// name field, "John Doe"), "lorem ipsum...", or the schema's own
	// description, examples or default for that place. A value the schema's enum or const allows
	// there is never a placeholder.
	NotPlaceholder = "not_placeholder"
)

// An Invariant is a rule inside one output that a schema cannot state.
// Its JSON form is the one an agent.json declares under "invariants":
//
//	{"kind": "count_equals", "counts": "$.counts", "items": "$.findings[*]", "field": "severity"}
//	{"kind": "sum_equals", "total": "$.total", "items": "$.lines[*]", "field": "amount"}
//	{"kind": "unique_by", "items": "$.findings[*]", "key": ["file", "line"]}
//	{"kind": "reference_exists", "refs": "$.edges[*].from", "targets": "$.nodes[*].id"}
//	{"kind": "quote_in_input", "values": "$.findings[*].evidence", "parameter": "contract"}
//	{"kind": "value_in_input", "refs": "$.tickets[*].id", "targets": "$.tickets[*].id"}
//	{"kind": "not_placeholder", "values": "$", "placeholders": ["unknown"]}
//
// The last three are grounding invariants: they hold an output against the
// run's inputs ([Inputs]), checked by [Invariants.CheckGrounded].
type Invariant struct {
	// Kind is CountEquals, SumEquals, UniqueBy, ReferenceExists,
	// QuoteInInput, ValueInInput or NotPlaceholder.
	Kind string `json:"kind"`
	// Name identifies the invariant in messages; empty means its kind.
	Name string `json:"name,omitempty"`
	// Items selects the items counted, summed or checked for uniqueness.
	Items string `json:"items,omitempty"`
	// Field is the member of an item counted by value or summed.
	Field string `json:"field,omitempty"`
	// Counts selects the count(s) of CountEquals.
	Counts string `json:"counts,omitempty"`
	// Value, with CountEquals, counts only the items whose Field equals
	// it, against the single number Counts selects.
	Value any `json:"value,omitempty"`
	// Total selects the number SumEquals checks.
	Total string `json:"total,omitempty"`
	// Tolerance lets a SumEquals total differ from the sum by this much
	// (for money in floating point: 0.005).
	Tolerance float64 `json:"tolerance,omitempty"`
	// Key are the fields of UniqueBy.
	Key []string `json:"key,omitempty"`
	// Refs and Targets select the values of ReferenceExists; with
	// ValueInInput, Refs selects in the output and Targets in the
	// parameters ([Inputs].Parameters).
	Refs    string `json:"refs,omitempty"`
	Targets string `json:"targets,omitempty"`
	// Values selects the strings QuoteInInput and NotPlaceholder check.
	Values string `json:"values,omitempty"`
	// Parameter, with QuoteInInput, names the parameter quotes come from;
	// empty means the rendered inputs as a whole. See [Invariants.Grounds]
	// for a parameter that is not among the inputs.
	Parameter string `json:"parameter,omitempty"`
	// MinQuoteLength, with QuoteInInput, is the fewest characters a quote
	// may have, spaces not counted and counted as [DefaultMinQuoteLength]
	// says; 0 means DefaultMinQuoteLength. It
	// must not be negative.
	MinQuoteLength int `json:"min_quote_length,omitempty"`
	// Placeholders, with NotPlaceholder, are rejected besides
	// [DefaultPlaceholders], compared after [Normalize].
	Placeholders []string `json:"placeholders,omitempty"`
}

// Invariants are compiled invariants. They are immutable and safe for
// concurrent use.
type Invariants struct {
	list []compiledInvariant
}

type compiledInvariant struct {
	Invariant
	items, counts, total, refs, targets, values *Path
	placeholders                                map[string]bool
}

// CompileInvariants checks and compiles invariants. The error wraps
// [ErrInvalidRule] (and [ErrInvalidPath] for a path) and names the
// invariant and the field at fault; all problems are joined.
func CompileInvariants(invs ...Invariant) (*Invariants, error) {
	var errs []error
	out := &Invariants{}
	for i, inv := range invs {
		if inv.Name == "" {
			inv.Name = fmt.Sprintf("%s (invariant %d)", inv.Kind, i+1)
		}
		bad := func(field, why string, err error) {
			if err != nil {
				errs = append(errs, fmt.Errorf("%w %q: %s: %s: %w", ErrInvalidRule, inv.Name, field, why, err))
				return
			}
			errs = append(errs, fmt.Errorf("%w %q: %s: %s", ErrInvalidRule, inv.Name, field, why))
		}
		ci := compiledInvariant{Invariant: inv}
		path := func(field, src string) *Path {
			if src == "" {
				bad(field, "required for "+inv.Kind, nil)
				return nil
			}
			p, err := ParsePath(src)
			if err != nil {
				bad(field, "not a path", err)
			}
			return p
		}
		switch inv.Kind {
		case CountEquals:
			ci.items, ci.counts = path("items", inv.Items), path("counts", inv.Counts)
			if inv.Field == "" {
				bad("field", "the field whose values are counted", nil)
			}
		case SumEquals:
			ci.items, ci.total = path("items", inv.Items), path("total", inv.Total)
			if inv.Field == "" {
				bad("field", "the field summed", nil)
			}
			if inv.Tolerance < 0 || math.IsNaN(inv.Tolerance) || math.IsInf(inv.Tolerance, 0) {
				bad("tolerance", "must be a finite number >= 0", nil)
			}
		case UniqueBy:
			ci.items = path("items", inv.Items)
			if len(inv.Key) == 0 || slices.Contains(inv.Key, "") {
				bad("key", "at least one non-empty field", nil)
			}
		case ReferenceExists:
			ci.refs, ci.targets = path("refs", inv.Refs), path("targets", inv.Targets)
		case QuoteInInput:
			ci.values = path("values", inv.Values)
			if inv.MinQuoteLength < 0 {
				bad("min_quote_length", "must not be negative", nil)
			}
			if ci.MinQuoteLength == 0 {
				ci.MinQuoteLength = DefaultMinQuoteLength
			}
		case ValueInInput:
			ci.refs, ci.targets = path("refs", inv.Refs), path("targets", inv.Targets)
		case NotPlaceholder:
			ci.values = path("values", inv.Values)
			ci.placeholders = map[string]bool{}
			for _, p := range append(DefaultPlaceholders(), inv.Placeholders...) {
				ci.placeholders[Normalize(p)] = true
			}
		default:
			bad("kind", fmt.Sprintf("%q is not one of %s, %s, %s, %s, %s, %s, %s", inv.Kind,
				CountEquals, SumEquals, UniqueBy, ReferenceExists, QuoteInInput, ValueInInput, NotPlaceholder), nil)
		}
		out.list = append(out.list, ci)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// Grounded reports whether any of the invariants holds an output against
// the run's inputs (QuoteInInput, ValueInInput, NotPlaceholder), so that
// a caller knows to check them with [Invariants.CheckGrounded].
func (is *Invariants) Grounded() bool {
	if is == nil {
		return false
	}
	for _, ci := range is.list {
		switch ci.Kind {
		case QuoteInInput, ValueInInput, NotPlaceholder:
			return true
		}
	}
	return false
}

// Check returns every violation of the invariants in v, with the instance
// path of the value at fault and a message a model can act on, like a
// schema violation; none when v keeps them all. Parts that are not there
// (no counts object, a count that is not a number) are left to the schema.
//
// Check is CheckGrounded without inputs: the grounding invariants that
// read them (QuoteInInput, ValueInInput) are not checked, by the rule of
// [Invariants.Grounds], and NotPlaceholder checks its list only. With
// grounding invariants, prepare the run's inputs and use CheckGrounded as
// an enforce validator, so that a violation is re-asked like a schema one:
//
//	g, err := invs.Grounds(crosscheck.Inputs{Text: prompt, Parameters: params, Schema: s})
//	if err != nil { ... } // a declared parameter is missing: fix the configuration
//	enforce.WithValidator(func(_ context.Context, _ enforce.Attempt, v any) []schema.Violation {
//		return invs.CheckGrounded(v, g)
//	})
func (is *Invariants) Check(v any) []schema.Violation {
	return is.CheckGrounded(v, nil)
}

// CheckGrounded returns every violation of the invariants in v, with the
// instance path of the value at fault and a message a model can act on,
// like a schema violation; none when v keeps them all. Parts that are not
// there (no counts object, a count that is not a number) are left to the
// schema. The grounding invariants (QuoteInInput, ValueInInput,
// NotPlaceholder) hold v against the run's inputs g, prepared by
// [Invariants.Grounds] (or [NewGrounds]); a nil g is [Invariants.Check].
// An invariant whose input is not in g is not checked: see
// [Invariants.Grounds]. The violations of a grounding invariant end with
// what the model should do instead ("quote the inputs exactly, or leave
// the quote out"), so that a re-ask says it.
func (is *Invariants) CheckGrounded(v any, g *Grounds) []schema.Violation {
	if is == nil {
		return nil
	}
	var out []schema.Violation
	for _, ci := range is.list {
		switch ci.Kind {
		case CountEquals:
			out = append(out, ci.countEquals(v)...)
		case SumEquals:
			out = append(out, ci.sumEquals(v)...)
		case UniqueBy:
			out = append(out, ci.uniqueBy(v)...)
		case ReferenceExists:
			out = append(out, ci.referenceExists(v)...)
		case QuoteInInput:
			out = append(out, ci.quoteInInput(v, g)...)
		case ValueInInput:
			out = append(out, ci.valueInInput(v, g)...)
		case NotPlaceholder:
			out = append(out, ci.notPlaceholder(v, g)...)
		}
	}
	return out
}

// Quotes reports whether some invariant checks quotes ([QuoteInInput]):
// those [Invariants.CheckPart] can check while a reply streams in.
func (is *Invariants) Quotes() bool {
	if is == nil {
		return false
	}
	for _, ci := range is.list {
		if ci.Kind == QuoteInInput {
			return true
		}
	}
	return false
}

// CheckPart checks one complete part of an output while it streams in: v
// at the location at ("$.findings[2].evidence"). Of the invariants, only
// QuoteInInput can judge a part alone (a quote is a quote or not, whatever
// follows); a string it selects at that location is checked against g as
// CheckGrounded would. Use it as enforce.WithPartCheck, so that a
// fabricated quote stops the stream at once and is re-asked; the finished
// output still gets CheckGrounded. Nil g or no QuoteInInput: none.
func (is *Invariants) CheckPart(at string, v any, g *Grounds) []schema.Violation {
	if is == nil || g == nil {
		return nil
	}
	if _, ok := v.(string); !ok {
		return nil
	}
	var out []schema.Violation
	for _, ci := range is.list {
		if ci.Kind == QuoteInInput && ci.values.Matches(at) {
			out = append(out, ci.quotes([]Match{{Path: at, Value: v}}, g)...)
		}
	}
	return out
}

func violation(path, message string) schema.Violation {
	return schema.Violation{Path: path, Pointer: pointerOf(path), Keyword: "invariant", Message: message}
}

func (ci *compiledInvariant) countEquals(v any) []schema.Violation {
	items := ci.items.Select(v)
	tally := map[string]int{}
	for _, m := range items {
		if obj, ok := m.Value.(map[string]any); ok {
			if f, ok := obj[ci.Field]; ok {
				tally[canonical(f)]++
			}
		}
	}
	var out []schema.Violation
	check := func(at string, count any, value any) {
		n, ok := number(count)
		if !ok {
			return
		}
		got := tally[canonical(value)]
		if n != float64(got) {
			out = append(out, violation(at, fmt.Sprintf("says %s %s %s, but %s holds %d whose %s is %s; make the count match the list",
				fmtNumber(n), quoteValue(value), plural(n, "item"), ci.Items, got, ci.Field, quoteValue(value))))
		}
	}
	for _, m := range ci.counts.Select(v) {
		if ci.Value != nil {
			check(m.Path, m.Value, ci.Value)
			continue
		}
		counts, ok := m.Value.(map[string]any)
		if !ok {
			continue
		}
		for _, name := range sortedKeys(counts) {
			check(m.Path+keyStep(name), counts[name], name)
		}
	}
	return out
}

func (ci *compiledInvariant) sumEquals(v any) []schema.Violation {
	var sum float64
	for _, m := range ci.items.Select(v) {
		if obj, ok := m.Value.(map[string]any); ok {
			if n, ok := number(obj[ci.Field]); ok {
				sum += n
			}
		}
	}
	var out []schema.Violation
	for _, m := range ci.total.Select(v) {
		n, ok := number(m.Value)
		if !ok {
			continue
		}
		if math.Abs(n-sum) > ci.Tolerance+1e-9*math.Max(1, math.Abs(sum)) {
			out = append(out, violation(m.Path, fmt.Sprintf("%s is not the sum of %s over %s, which is %s; make the total match the items",
				fmtNumber(n), ci.Field, ci.Items, fmtNumber(sum))))
		}
	}
	return out
}

func (ci *compiledInvariant) uniqueBy(v any) []schema.Violation {
	first := map[string]string{}
	var out []schema.Violation
	for _, m := range ci.items.Select(v) {
		obj, ok := m.Value.(map[string]any)
		if !ok {
			continue
		}
		k, ok := keyOf(obj, ci.Key)
		if !ok {
			continue
		}
		if prev, dup := first[k]; dup {
			var parts []string
			for _, f := range ci.Key {
				parts = append(parts, f+" "+quoteValue(obj[f]))
			}
			out = append(out, violation(m.Path, fmt.Sprintf("repeats %s (same %s); report each only once", prev, strings.Join(parts, " and "))))
			continue
		}
		first[k] = m.Path
	}
	return out
}

func (ci *compiledInvariant) referenceExists(v any) []schema.Violation {
	targets := map[string]bool{}
	var names []string
	for _, m := range ci.targets.Select(v) {
		targets[canonical(m.Value)] = true
		if len(names) < 8 {
			names = append(names, quoteValue(m.Value))
		}
	}
	var out []schema.Violation
	for _, m := range ci.refs.Select(v) {
		if !targets[canonical(m.Value)] {
			msg := fmt.Sprintf("%s is not among %s", quoteValue(m.Value), ci.Targets)
			if len(names) > 0 {
				msg += " (" + strings.Join(names, ", ") + ")"
			}
			out = append(out, violation(m.Path, msg+"; refer only to values defined there"))
		}
	}
	return out
}

// pointerOf turns a path Select wrote into a JSON Pointer.
func pointerOf(path string) string {
	p, err := ParsePath(path)
	if err != nil {
		return ""
	}
	return jsonpath.Pointer(p.steps)
}

func quoteValue(v any) string {
	if s, ok := v.(string); ok {
		return "'" + s + "'"
	}
	if n, ok := number(v); ok {
		return fmtNumber(n)
	}
	return canonical(v)
}

func fmtNumber(n float64) string {
	if n == math.Trunc(n) && math.Abs(n) < 1e15 {
		return fmt.Sprintf("%d", int64(n))
	}
	return fmt.Sprint(n)
}

func plural(n float64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
