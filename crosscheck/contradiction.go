package crosscheck

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/agentio/agentio/internal/jsonpath"
)

// ErrInvalidRule is returned (wrapped, with the rule and the field at
// fault) by [Compile] and [CompileInvariants], and by a blueprint that
// declares such a rule.
var ErrInvalidRule = errors.New("crosscheck: invalid rule")

// An Output is one named, schema-valid output of a sibling agent: the
// value as decoded JSON (map[string]any, []any, string, float64,
// json.Number, bool or nil).
type Output struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// A Rule says how to compare the items several outputs report. Its JSON
// form is the one an agent.json declares under "contradictions":
//
//	{"name": "severity", "items": "$.findings[*]", "key": ["file", "line"],
//	 "compare": ["severity"], "groups": {"severity": [["blocker", "critical"]]},
//	 "near": {"field": "line", "within": 3}, "presence": false}
type Rule struct {
	// Name identifies the rule in the contradictions it finds; empty means
	// "rule <n>", its position from 1.
	Name string `json:"name,omitempty"`
	// Items selects the items of each output ("$.findings[*]").
	Items string `json:"items"`
	// Key are the fields (members of an item) that identify the thing an
	// item is about: two items with equal keys speak of the same thing.
	// At least one; an item lacking one is not compared.
	Key []string `json:"key"`
	// Compare are the fields whose values must agree between items with
	// equal keys. At least one, unless Presence is set.
	Compare []string `json:"compare,omitempty"`
	// Tolerance allows numbers of a compared field to differ by up to the
	// given amount.
	Tolerance map[string]float64 `json:"tolerance,omitempty"`
	// Groups makes values of a compared field in one group agree
	// ("blocker" and "critical" both mean "must fix").
	Groups map[string][][]any `json:"groups,omitempty"`
	// Near also pairs items whose keys are equal but for the numeric field
	// Near.Field, which differs by at most Near.Within: such pairs that
	// disagree are reported as [KindNear], apart from exact conflicts.
	Near *Near `json:"near,omitempty"`
	// Presence also reports a key that some outputs raise and others do
	// not ([KindMissing]); off by default, since specialists look at
	// different things.
	Presence bool `json:"presence,omitempty"`
}

// Near is the loose key match of a [Rule].
type Near struct {
	Field  string  `json:"field"`
	Within float64 `json:"within"`
}

// The kinds of [Contradiction].
const (
	// KindConflict: items with equal keys disagree on a compared field.
	KindConflict = "conflict"
	// KindNear: items whose keys are equal but for the near field, within
	// its distance, disagree on a compared field.
	KindNear = "near"
	// KindMissing: some outputs raise a key others do not (Rule.Presence).
	KindMissing = "missing"
)

// A Contradiction is one disagreement between outputs, as data: it is
// meant to be handed to the downstream agent (see [Annotate]), not to
// stop anything.
type Contradiction struct {
	// Rule names the rule that found it.
	Rule string `json:"rule"`
	// Kind is KindConflict, KindNear or KindMissing.
	Kind string `json:"kind"`
	// Key is the key the items share, field by field.
	Key map[string]any `json:"key"`
	// Field is the compared field they disagree on; empty for KindMissing.
	Field string `json:"field,omitempty"`
	// Claims are what each output says, in output order.
	Claims []Claim `json:"claims"`
	// Missing names the outputs that do not raise the key (KindMissing).
	Missing []string `json:"missing,omitempty"`
}

// A Claim is one output's value for a contradiction.
type Claim struct {
	// Output is the output's name.
	Output string `json:"output"`
	// Path locates the item in that output ("$.findings[3]").
	Path string `json:"path"`
	// Value is the item's value of the field (absent for KindMissing).
	Value any `json:"value,omitempty"`
}

// Rules are compiled rules. They are immutable and safe for concurrent
// use.
type Rules struct {
	rules []compiledRule
}

type compiledRule struct {
	Rule
	items  *Path
	groups map[string]map[string]int // field -> canonical value -> group
}

// Compile checks and compiles rules. The error wraps [ErrInvalidRule] (and
// [ErrInvalidPath] for a path) and names the rule and field at fault; all
// problems are joined.
func Compile(rules ...Rule) (*Rules, error) {
	var errs []error
	out := &Rules{}
	for i, r := range rules {
		if r.Name == "" {
			r.Name = fmt.Sprintf("rule %d", i+1)
		}
		bad := func(field, why string, err error) {
			if err != nil {
				errs = append(errs, fmt.Errorf("%w %q: %s: %s: %w", ErrInvalidRule, r.Name, field, why, err))
				return
			}
			errs = append(errs, fmt.Errorf("%w %q: %s: %s", ErrInvalidRule, r.Name, field, why))
		}
		cr := compiledRule{Rule: r, groups: map[string]map[string]int{}}
		var err error
		if cr.items, err = ParsePath(r.Items); err != nil {
			bad("items", "not a path", err)
		}
		if len(r.Key) == 0 {
			bad("key", "at least one field identifies an item", nil)
		}
		if len(r.Compare) == 0 && !r.Presence {
			bad("compare", "at least one field to compare (or presence: true)", nil)
		}
		for _, f := range append(slices.Clone(r.Key), r.Compare...) {
			if f == "" {
				bad("key/compare", "an empty field name", nil)
			}
		}
		for f, d := range r.Tolerance {
			if !slices.Contains(r.Compare, f) {
				bad("tolerance."+f, "not a compared field", nil)
			}
			if d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
				bad("tolerance."+f, "must be a finite number >= 0", nil)
			}
		}
		for f, groups := range r.Groups {
			if !slices.Contains(r.Compare, f) {
				bad("groups."+f, "not a compared field", nil)
			}
			g := map[string]int{}
			for gi, members := range groups {
				for _, m := range members {
					k := canonical(m)
					if prev, dup := g[k]; dup && prev != gi {
						bad("groups."+f, fmt.Sprintf("%s is in two groups", k), nil)
					}
					g[k] = gi
				}
			}
			cr.groups[f] = g
		}
		if r.Near != nil {
			switch {
			case !slices.Contains(r.Key, r.Near.Field):
				bad("near.field", fmt.Sprintf("%q is not a key field", r.Near.Field), nil)
			case r.Near.Within <= 0 || math.IsNaN(r.Near.Within) || math.IsInf(r.Near.Within, 0):
				bad("near.within", "must be a finite number > 0", nil)
			}
		}
		out.rules = append(out.rules, cr)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// item is one keyed item of one output.
type item struct {
	output int
	at     loc
	fields map[string]any
	key    string // canonical key
}

// Contradictions returns every disagreement the rules find between the
// outputs, rule by rule, then by key. Outputs without the items, and items
// that are not objects or lack a key field, are left out. Items of one
// output sharing a key are all compared (a duplicate inside one output is
// an invariant's business: see [UniqueBy]).
func (rs *Rules) Contradictions(outputs ...Output) []Contradiction {
	if rs == nil {
		return nil
	}
	var out []Contradiction
	for _, r := range rs.rules {
		out = append(out, r.check(outputs)...)
	}
	return out
}

func (r *compiledRule) check(outputs []Output) []Contradiction {
	var items []item
	present := make([]bool, len(outputs)) // the output has the items at all
	var arena []byte                      // every key, one after the other: one allocation, not one a key
	var ends []int
	for oi, o := range outputs {
		selected := 0
		r.items.each(o.Value, func(l loc, v any) {
			selected++
			obj, ok := v.(map[string]any)
			if !ok {
				return
			}
			start := len(arena)
			if k, ok := appendKey(arena, obj, r.Key); ok {
				arena = k
				ends = append(ends, len(arena))
				items = append(items, item{output: oi, at: l, fields: obj})
			} else {
				arena = arena[:start]
			}
		})
		present[oi] = selected > 0 || r.hasContainer(o.Value)
		if oi == 0 {
			items = slices.Grow(items, len(items)*(len(outputs)-1))
		}
	}
	keys := string(arena)
	for i := range items {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		items[i].key = keys[start:ends[i]]
	}
	// Items with equal keys, grouped in the order their keys first occur;
	// next chains a group's items in selection order.
	groupOf := make(map[string]int32, len(items))
	var heads, tails []int32
	next := make([]int32, len(items))
	for i := range items {
		next[i] = -1
		g, ok := groupOf[items[i].key]
		if !ok {
			groupOf[items[i].key] = int32(len(heads))
			heads = append(heads, int32(i))
			tails = append(tails, int32(i))
			continue
		}
		next[tails[g]] = int32(i)
		tails[g] = int32(i)
	}
	var out []Contradiction
	var group []item
	for _, h := range heads {
		if next[h] < 0 && !r.Presence {
			continue // one item: nothing to compare
		}
		group = group[:0]
		for i := h; i >= 0; i = next[i] {
			group = append(group, items[i])
		}
		if outputsIn(group) > 1 {
			out = append(out, r.compare(outputs, group, KindConflict)...)
		}
		if r.Presence {
			if c, ok := r.missing(outputs, present, group); ok {
				out = append(out, c)
			}
		}
	}
	if r.Near != nil {
		out = append(out, r.near(outputs, items)...)
	}
	return out
}

// hasContainer reports whether the items path selects an empty list or
// object in v: the output speaks of the items and raises none.
func (r *compiledRule) hasContainer(v any) bool {
	if len(r.items.steps) == 0 || r.items.steps[len(r.items.steps)-1].Kind != jsonpath.KindAll {
		return false
	}
	parent := &Path{steps: r.items.steps[:len(r.items.steps)-1]}
	for _, m := range parent.Select(v) {
		switch m.Value.(type) {
		case []any, map[string]any:
			return true
		}
	}
	return false
}

// compare reports, for each compared field, the items of group that
// disagree on it.
func (r *compiledRule) compare(outputs []Output, group []item, kind string) []Contradiction {
	var out []Contradiction
	for _, f := range r.Compare {
		if r.groupAgrees(f, group) {
			continue
		}
		var claims []Claim
		for _, it := range group {
			if v, ok := it.fields[f]; ok { // an item without the field does not say
				claims = append(claims, Claim{Output: outputs[it.output].Name, Path: it.at.String(), Value: v})
			}
		}
		if outputsOfClaims(claims) < 2 {
			continue
		}
		out = append(out, Contradiction{Rule: r.Name, Kind: kind, Key: keyFields(group[0].fields, r.Key), Field: f, Claims: claims})
	}
	return out
}

// groupAgrees reports whether the items of group that have field f all
// hold equivalent values of it.
func (r *compiledRule) groupAgrees(f string, group []item) bool {
	var first any
	found := false
	for _, it := range group {
		v, ok := it.fields[f]
		switch {
		case !ok:
		case !found:
			first, found = v, true
		case !r.same(f, first, v):
			return false
		}
	}
	return true
}

func (r *compiledRule) same(f string, a, b any) bool {
	if x, ok := a.(string); ok {
		if y, ok := b.(string); ok && x == y {
			return true
		}
	}
	if x, ok := number(a); ok {
		if y, ok := number(b); ok {
			return math.Abs(x-y) <= r.Tolerance[f]
		}
	}
	ca, cb := canonical(a), canonical(b)
	if ca == cb {
		return true
	}
	if g, ok := r.groups[f]; ok {
		ga, oka := g[ca]
		gb, okb := g[cb]
		return oka && okb && ga == gb
	}
	return false
}

// missing reports a key raised by some outputs that have the items and not
// by others.
func (r *compiledRule) missing(outputs []Output, present []bool, group []item) (Contradiction, bool) {
	raised := make([]bool, len(outputs))
	var claims []Claim
	for _, it := range group {
		if !raised[it.output] {
			claims = append(claims, Claim{Output: outputs[it.output].Name, Path: it.at.String()})
		}
		raised[it.output] = true
	}
	var lacking []string
	for oi := range outputs {
		if present[oi] && !raised[oi] {
			lacking = append(lacking, outputs[oi].Name)
		}
	}
	if len(lacking) == 0 {
		return Contradiction{}, false
	}
	return Contradiction{Rule: r.Name, Kind: KindMissing, Key: keyFields(group[0].fields, r.Key), Claims: claims, Missing: lacking}, true
}

// near pairs items of different outputs whose keys differ only in the near
// field, by at most its distance, and reports those that disagree.
func (r *compiledRule) near(outputs []Output, items []item) []Contradiction {
	others := make([]string, 0, len(r.Key)-1)
	for _, f := range r.Key {
		if f != r.Near.Field {
			others = append(others, f)
		}
	}
	byRest := map[string][]item{}
	var rests []string
	for _, it := range items {
		if _, ok := number(it.fields[r.Near.Field]); !ok {
			continue
		}
		rest, _ := keyOf(it.fields, others)
		if _, seen := byRest[rest]; !seen {
			rests = append(rests, rest)
		}
		byRest[rest] = append(byRest[rest], it)
	}
	sort.Strings(rests)
	var out []Contradiction
	for _, rest := range rests {
		group := byRest[rest]
		sort.SliceStable(group, func(i, j int) bool {
			a, _ := number(group[i].fields[r.Near.Field])
			b, _ := number(group[j].fields[r.Near.Field])
			return a < b
		})
		for i := range group {
			for j := i + 1; j < len(group); j++ {
				a, _ := number(group[i].fields[r.Near.Field])
				b, _ := number(group[j].fields[r.Near.Field])
				if b-a > r.Near.Within {
					break
				}
				if group[i].key == group[j].key || group[i].output == group[j].output {
					continue // an exact match (reported as a conflict) or one output
				}
				out = append(out, r.compare(outputs, []item{group[i], group[j]}, KindNear)...)
			}
		}
	}
	return out
}

func outputsIn(group []item) int {
	n := 0
	for i, it := range group {
		first := true
		for _, prev := range group[:i] {
			if prev.output == it.output {
				first = false
				break
			}
		}
		if first {
			n++
		}
	}
	return n
}

func outputsOfClaims(cs []Claim) int {
	seen := map[string]bool{}
	for _, c := range cs {
		seen[c.Output] = true
	}
	return len(seen)
}

// keyOf returns the canonical key of obj's fields, false when one lacks.
func keyOf(obj map[string]any, fields []string) (string, bool) {
	k, ok := appendKey(nil, obj, fields)
	return string(k), ok
}

// appendKey appends a key of obj's fields to dst, false when one lacks.
// Equal values (numbers by value) give equal keys; the encoding is
// length-prefixed, so that no two different lists of values share one.
func appendKey(dst []byte, obj map[string]any, fields []string) ([]byte, bool) {
	for _, f := range fields {
		v, ok := obj[f]
		if !ok {
			return dst, false
		}
		switch x := v.(type) {
		case string:
			dst = append(dst, 's')
			dst = binary.AppendUvarint(dst, uint64(len(x)))
			dst = append(dst, x...)
			continue
		case bool:
			if x {
				dst = append(dst, 't')
			} else {
				dst = append(dst, 'f')
			}
			continue
		case nil:
			dst = append(dst, 'z')
			continue
		}
		if n, ok := number(v); ok {
			if n == 0 {
				n = 0 // -0 is 0
			}
			dst = append(dst, 'n')
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(n))
			continue
		}
		c := canonical(v)
		dst = append(dst, 'j')
		dst = binary.AppendUvarint(dst, uint64(len(c)))
		dst = append(dst, c...)
	}
	return dst, true
}

func keyFields(obj map[string]any, fields []string) map[string]any {
	out := make(map[string]any, len(fields))
	for _, f := range fields {
		out[f] = obj[f]
	}
	return out
}

// number returns v as a float64 when it is a JSON number.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// canonical renders v as JSON with numbers by value and members sorted,
// so that equal values have equal texts.
func canonical(v any) string { return string(appendCanonical(nil, v)) }

func appendCanonical(dst []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return strconv.AppendQuote(dst, x)
	case bool:
		return strconv.AppendBool(dst, x)
	case nil:
		return append(dst, "null"...)
	}
	if f, ok := number(v); ok {
		return strconv.AppendFloat(dst, f, 'g', -1, 64)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Appendf(dst, "%T:%v", v, v)
	}
	return append(dst, data...)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
