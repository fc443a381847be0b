package enforce_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// The generative test of lenient mode: for a schema S and values valid
// under S, it applies the inverse of one, two or three coercion kinds to
// parts of each value (stringifies a number, changes an enum member's
// case, capitalises a key, bares a one-element array, bares the root list,
// wraps a value in an array, adds a null optional, stringifies an object,
// drops a required default), runs the result through enforce.Run with
// WithLenient and a scripted provider, and checks the outcome against an
// oracle that knows nothing of how coercion works: the set of valid values
// of the pool that some transformation turns into the same reply.
//
//   - A reply valid as written comes back unchanged, with no coercion.
//   - A reply that exactly one pool value turns into comes back as that
//     value, to the byte (5 is not 5.0, "high" is not "High").
//   - A reply that two pool values turn into is ambiguous: the run fails.
//
// The pools hold, beside ordinary values, the values that make a reading
// ambiguous (a list of one object whose only member is the list the root
// wants), so ambiguity is found by the oracle, not asserted by hand.

// A genSchema is a schema with a pool of values valid under it.
type genSchema struct {
	name   string
	schema string
	values []string
	kinds  []schema.CoercionKind // nil: the default coercions
}

var genSchemas = []genSchema{
	{
		// An object root with one required array, its items through $ref.
		name: "object root with one required array",
		schema: `{
			"type": "object", "required": ["answers"], "additionalProperties": false,
			"properties": {"answers": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/answer"}}},
			"$defs": {"answer": {
				"type": "object", "required": ["answer", "confidence", "lang", "verified"], "additionalProperties": false,
				"properties": {
					"answer": {"type": "string", "minLength": 1},
					"confidence": {"type": "integer", "minimum": 1, "maximum": 5},
					"lang": {"type": "string", "default": "en"},
					"verified": {"type": "boolean"},
					"score": {"type": "number"},
					"note": {"type": "string"},
					"tags": {"type": "array", "items": {"enum": ["bug", "in_progress", "wont_fix"]}},
					"source": {"type": "object", "required": ["page"], "additionalProperties": false,
						"properties": {"page": {"type": "integer"}, "title": {"type": "string"}}}
				}
			}}
		}`,
		values: []string{
			`{"answers":[{"answer":"Paris","confidence":4,"lang":"en","verified":true,"tags":["in_progress"]}]}`,
			`{"answers":[{"answer":"Lyon","confidence":2,"lang":"fr","verified":false,"score":0.5,"source":{"page":12}},{"answer":"Nice","confidence":5,"lang":"en","verified":true,"tags":["bug","wont_fix"]}]}`,
			`{"answers":[{"answer":"A","confidence":1,"lang":"en","verified":true,"tags":["bug"]},{"answer":"B","confidence":3,"lang":"en","verified":false,"note":"x","tags":["wont_fix"]}]}`,
		},
		kinds: append(schema.DefaultCoercions(), schema.CoerceDefault),
	},
	{
		name: "array root",
		schema: `{"type": "array", "items": {
			"type": "object", "required": ["id", "status"], "additionalProperties": false,
			"properties": {
				"id": {"type": "integer"},
				"status": {"enum": ["open", "in_progress", "done"]},
				"labels": {"type": "array", "items": {"type": "string"}},
				"urgent": {"type": "boolean"}
			}}}`,
		values: []string{
			`[{"id":7,"status":"in_progress","labels":["ui"]},{"id":8,"status":"done","urgent":false}]`,
			`[{"id":1,"status":"open","urgent":true}]`,
		},
	},
	{
		name:   "array root of enum members",
		schema: `{"type": "array", "minItems": 1, "items": {"enum": ["bug", "feature", "security_fix"]}}`,
		values: []string{`["security_fix"]`, `["bug","feature"]`},
	},
	{
		name:   "integer root",
		schema: `{"type": "integer", "minimum": 1, "maximum": 10}`,
		values: []string{`7`, `10`},
	},
	{
		name:   "boolean root",
		schema: `{"type": "boolean"}`,
		values: []string{`true`, `false`},
	},
	{
		name:   "enum root",
		schema: `{"enum": ["low", "medium_high", "critical"]}`,
		values: []string{`"medium_high"`, `"low"`},
	},
	{
		name: "anyOf root",
		schema: `{"anyOf": [
			{"type": "object", "required": ["answer", "confidence"], "additionalProperties": false,
			 "properties": {"answer": {"type": "string"}, "confidence": {"type": "number", "minimum": 0, "maximum": 1}}},
			{"type": "object", "required": ["error"], "additionalProperties": false,
			 "properties": {"error": {"type": "string"}, "retryable": {"type": "boolean"}, "codes": {"type": "array", "items": {"type": "integer"}}}}
		]}`,
		values: []string{
			`{"answer":"Paris","confidence":0.9}`,
			`{"error":"no source","retryable":true,"codes":[404]}`,
		},
	},
	{
		// A one-element root list of {"xs": [...]} reads two ways here:
		// unwrapped, or wrapped as the one item of xs.
		name: "object root whose array takes its own shape",
		schema: `{"type": "object", "required": ["xs"], "additionalProperties": false, "properties": {"xs": {"type": "array", "items": {"anyOf": [
			{"type": "integer"},
			{"type": "object", "required": ["xs"], "additionalProperties": false, "properties": {"xs": {"type": "array", "items": {"type": "integer"}}}}
		]}}}}`,
		values: []string{`{"xs":[1]}`, `{"xs":[{"xs":[1]}]}`},
	},
	{
		// "8" reads two ways here: the integer, or the list of one string.
		name:   "integer or list of strings",
		schema: `{"type": ["integer", "array"], "items": {"type": "string"}}`,
		values: []string{`8`, `["8"]`, `["8.0"]`, `["x"]`},
	},
}

// A step is the inverse of one coercion kind at one place of a value.
type step struct {
	kind  schema.CoercionKind // the kind that undoes it
	path  []any               // string keys and int indices from the root
	order int                 // steps at one depth apply in this order
	apply func(v any) (any, bool)
}

// depth is the depth a step works at; a renamed key counts as its member.
func (s step) depth() int { return len(s.path) }

// node is a schema object of the generative test, resolved through $ref.
type node map[string]any

// resolve follows n's $ref within root.
func (n node) resolve(root node) node {
	for range 8 {
		ref, ok := n["$ref"].(string)
		if !ok {
			return n
		}
		var cur any = map[string]any(root)
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			cur = cur.(map[string]any)[part]
		}
		n = node(cur.(map[string]any))
	}
	return n
}

func (n node) types() []string {
	switch t := n["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			out = append(out, x.(string))
		}
		return out
	}
	return nil
}

// takes reports whether n declares type t (an integer is a number).
func (n node) takes(t string) bool {
	ts := n.types()
	return slices.Contains(ts, t) || t == "integer" && slices.Contains(ts, "number")
}

func (n node) child(key string) node {
	if props, ok := n["properties"].(map[string]any); ok {
		if p, ok := props[key].(map[string]any); ok {
			return node(p)
		}
	}
	return nil
}

func (n node) items() node {
	if it, ok := n["items"].(map[string]any); ok {
		return node(it)
	}
	return nil
}

func (n node) required() []string {
	var out []string
	if r, ok := n["required"].([]any); ok {
		for _, x := range r {
			out = append(out, x.(string))
		}
	}
	return out
}

// branch returns the anyOf branch whose required members the object v
// has, or n itself.
func (n node) branch(root node, v any) node {
	alts, ok := n["anyOf"].([]any)
	if !ok {
		return n
	}
	obj, isObj := v.(map[string]any)
	for _, a := range alts {
		b := node(a.(map[string]any)).resolve(root)
		if isObj != b.takes("object") {
			continue
		}
		if !slices.ContainsFunc(b.required(), func(r string) bool { _, ok := obj[r]; return !ok }) {
			return b
		}
	}
	return n
}

// The order of steps at one depth: a value is changed before its key, and
// wrapped or stringified after the changes inside it.
const (
	orderLeaf = iota
	orderMembers
	orderWrap
	orderStringify
	orderKey
)

// steps lists every inverse step that applies to v, valid under n, at path.
func steps(root, n node, v any, path []any) []step {
	if n == nil {
		return nil // the schema takes anything here: nothing to undo
	}
	n = n.resolve(root).branch(root, v)
	at := slices.Clone(path)
	var out []step
	add := func(kind schema.CoercionKind, order int, p []any, f func(any) (any, bool)) {
		out = append(out, step{kind: kind, path: p, order: order, apply: f})
	}
	switch x := v.(type) {
	case json.Number:
		if !n.takes("string") {
			add(schema.CoerceStringToNumber, orderLeaf, at, func(v any) (any, bool) {
				num, ok := v.(json.Number)
				return string(num), ok
			})
		}
		if n.takes("integer") && !slices.Contains(n.types(), "number") && !strings.ContainsAny(string(x), ".eE") {
			add(schema.CoerceFloatToInteger, orderLeaf, at, func(v any) (any, bool) {
				num, ok := v.(json.Number)
				return json.Number(string(num) + ".0"), ok
			})
		}
	case bool:
		add(schema.CoerceStringToBoolean, orderLeaf, at, func(v any) (any, bool) {
			b, ok := v.(bool)
			if b {
				return "True", ok
			}
			return "FALSE", ok
		})
	case string:
		if _, ok := n["enum"]; ok {
			add(schema.CoerceEnumMatch, orderLeaf, at, func(v any) (any, bool) {
				s, ok := v.(string)
				if !ok || s == "" {
					return nil, false
				}
				t := strings.ToUpper(s[:1]) + strings.ReplaceAll(s[1:], "_", " ")
				return t, t != s
			})
		}
	case map[string]any:
		for _, key := range slices.Sorted(maps.Keys(x)) {
			out = append(out, steps(root, n.child(key), x[key], append(at, key))...)
			add(schema.CoerceKeyMatch, orderKey, append(at, key), nil) // applied by the parent, see applyAt
			if d, ok := n.child(key)["default"]; ok && slices.Contains(n.required(), key) && equalJSON(d, x[key]) {
				add(schema.CoerceDefault, orderLeaf, append(at, key), remove)
			}
		}
		if props, ok := n["properties"].(map[string]any); ok {
			for _, key := range slices.Sorted(maps.Keys(props)) {
				if _, present := x[key]; present || slices.Contains(n.required(), key) || node(props[key].(map[string]any)).takes("null") {
					continue
				}
				add(schema.CoerceDropNull, orderLeaf, append(at, key), func(v any) (any, bool) { return nil, v == absent })
			}
		}
		if len(path) == 0 && len(x) == 1 && len(n.required()) == 1 {
			name := n.required()[0]
			if arr, ok := x[name].([]any); ok && n.child(name).resolve(root).takes("array") {
				_ = arr
				add(schema.CoerceWrapRoot, orderWrap, at, func(v any) (any, bool) {
					obj, ok := v.(map[string]any)
					a, isArr := obj[name].([]any)
					return a, ok && isArr && len(obj) == 1
				})
			}
		}
	case []any:
		for i, item := range x {
			out = append(out, steps(root, n.items(), item, append(at, i))...)
		}
		if len(x) == 1 && isScalar(x[0]) {
			add(schema.CoerceScalarToArray, orderWrap, at, func(v any) (any, bool) {
				a, ok := v.([]any)
				return first(a), ok && len(a) == 1 && isScalar(a[0])
			})
		}
	}
	if _, isArr := v.([]any); !isArr && !n.takes("array") {
		add(schema.CoerceUnwrapArray, orderWrap, at, func(v any) (any, bool) { return []any{v}, true })
	}
	switch v.(type) {
	case map[string]any, []any:
		if !n.takes("string") {
			add(schema.CoerceParseString, orderStringify, at, func(v any) (any, bool) {
				switch v.(type) {
				case map[string]any, []any:
					data, err := json.Marshal(v)
					return string(data), err == nil
				}
				return nil, false
			})
		}
	}
	return out
}

func first(a []any) any {
	if len(a) == 0 {
		return nil
	}
	return a[0]
}

func isScalar(v any) bool {
	switch v.(type) {
	case string, bool, json.Number:
		return true
	}
	return false
}

// absent stands for a member not in its object.
var absent = &struct{}{}

func remove(v any) (any, bool) { return absent, v != absent }

// applyAt applies s to the value at its path in v and returns the result,
// v itself untouched; ok is false when the path no longer leads anywhere
// or the step does not apply to what is there.
func applyAt(v any, s step) (any, bool) {
	if s.kind == schema.CoerceKeyMatch {
		return rename(v, s.path)
	}
	f := s.apply
	if s.kind != schema.CoerceDropNull {
		// Only a null optional is added where nothing was.
		f = func(v any) (any, bool) {
			if v == absent {
				return nil, false
			}
			return s.apply(v)
		}
	}
	return replace(v, s.path, f)
}

func replace(v any, path []any, f func(any) (any, bool)) (any, bool) {
	if len(path) == 0 {
		return f(v)
	}
	switch x := v.(type) {
	case map[string]any:
		key, ok := path[0].(string)
		if !ok {
			return nil, false
		}
		cur, present := x[key]
		if !present {
			if len(path) > 1 {
				return nil, false
			}
			cur = absent
		}
		y, ok := replace(cur, path[1:], f)
		if !ok {
			return nil, false
		}
		out := maps.Clone(x)
		if y == absent {
			delete(out, key)
		} else {
			out[key] = y
		}
		return out, true
	case []any:
		i, ok := path[0].(int)
		if !ok || i >= len(x) {
			return nil, false
		}
		y, ok := replace(x[i], path[1:], f)
		if !ok || y == absent {
			return nil, false
		}
		out := slices.Clone(x)
		out[i] = y
		return out, true
	}
	return nil, false
}

// rename capitalises the key at the end of path.
func rename(v any, path []any) (any, bool) {
	key := path[len(path)-1].(string)
	return replace(v, path[:len(path)-1], func(p any) (any, bool) {
		obj, ok := p.(map[string]any)
		if !ok {
			return nil, false
		}
		val, ok := obj[key]
		if !ok {
			return nil, false
		}
		r := []rune(key)
		r[0] = unicode.ToUpper(r[0])
		out := maps.Clone(obj)
		delete(out, key)
		out[string(r)] = val
		return out, true
	})
}

func decodeNumber(t testing.TB, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v), s)
	return v
}

// canonical is v as compact JSON with sorted keys and numbers as written.
func canonical(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}

func equalJSON(a, b any) bool {
	da, _ := json.Marshal(a)
	db, _ := json.Marshal(b)
	var x, y any
	return json.Unmarshal(da, &x) == nil && json.Unmarshal(db, &y) == nil && canonical(x) == canonical(y)
}

// related reports whether one path leads into the other: the two places
// are in one subtree.
func related(p, q []any) bool {
	if len(p) > len(q) {
		p, q = q, p
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// A genCase is a reply made from a valid value by some steps.
type genCase struct {
	reply string   // canonical JSON of the transformed value
	from  []string // canonical JSON of each pool value that gives this reply
	kinds [][]schema.CoercionKind
	// pairs are the kinds of the steps made in one subtree.
	pairs map[[2]schema.CoercionKind]bool
}

// transforms returns every reply the pool of g gives by one, two or three
// steps, keyed by the reply: every step, every pair of steps, and every
// three steps that lie on one path from the root (each inside the other's
// subtree), applied deepest first in every order that allows.
func transforms(t *testing.T, g genSchema) map[string]*genCase {
	var root node
	require.NoError(t, json.Unmarshal([]byte(g.schema), &root))
	cases := map[string]*genCase{}
	for _, vs := range g.values {
		v := decodeNumber(t, vs)
		from := canonical(v)
		all := steps(root, root, v, nil)
		var combos [][]step
		for i := range all {
			combos = append(combos, []step{all[i]})
			for j := i + 1; j < len(all); j++ {
				combos = append(combos, []step{all[i], all[j]})
				if !related(all[i].path, all[j].path) {
					continue
				}
				for k := j + 1; k < len(all); k++ {
					if related(all[i].path, all[k].path) && related(all[j].path, all[k].path) {
						combos = append(combos, []step{all[i], all[j], all[k]})
					}
				}
			}
		}
		for _, combo := range orderings(combos) {
			out, ok := v, true
			for _, s := range combo {
				if out, ok = applyAt(out, s); !ok {
					break
				}
			}
			if !ok {
				continue
			}
			reply := canonical(out)
			c := cases[reply]
			if c == nil {
				c = &genCase{reply: reply, pairs: map[[2]schema.CoercionKind]bool{}}
				cases[reply] = c
			}
			if !slices.Contains(c.from, from) {
				c.from = append(c.from, from)
			}
			var kinds []schema.CoercionKind
			for _, s := range combo {
				kinds = append(kinds, s.kind)
			}
			c.kinds = append(c.kinds, kinds)
			for a := range combo {
				for b := range combo {
					if a != b {
						c.pairs[pairOf(combo[a].kind, combo[b].kind)] = true
					}
				}
			}
		}
	}
	return cases
}

// orderings returns each combination of steps in every order that applies
// deeper steps first: steps at one depth are taken in every order.
func orderings(combos [][]step) [][]step {
	var out [][]step
	for _, combo := range combos {
		for _, p := range permutations(combo) {
			if slices.IsSortedFunc(p, func(a, b step) int { return b.depth() - a.depth() }) {
				out = append(out, p)
			}
		}
	}
	return out
}

func permutations(s []step) [][]step {
	if len(s) <= 1 {
		return [][]step{slices.Clone(s)}
	}
	var out [][]step
	for i := range s {
		rest := append(slices.Clone(s[:i]), s[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]step{s[i]}, p...))
		}
	}
	return out
}

func pairOf(a, b schema.CoercionKind) [2]schema.CoercionKind {
	if a > b {
		a, b = b, a
	}
	return [2]schema.CoercionKind{a, b}
}

// surface writes a reply in one of the forms models use.
func surface(reply string, i int) string {
	forms := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return "Here it is:\n```json\n" + s + "\n```" },
		func(s string) string { return "<think>\nThe schema wants {this}; answer it.\n</think>\n" + s },
		func(s string) string { return "Sure. The result:\n\n" + s + "\n\nLet me know if you need more." },
	}
	if reply[0] != '{' && reply[0] != '[' {
		forms = forms[:3] // a scalar in prose is not taken for the answer
	}
	return forms[i%len(forms)](reply)
}

// TestLenientGenerative is the generative test described above.
func TestLenientGenerative(t *testing.T) {
	recovered := map[schema.CoercionKind]int{}
	checkedPairs := map[[2]schema.CoercionKind]int{} // replies made by the pair that came out right
	triedPairs := map[[2]schema.CoercionKind]bool{}
	var total, asWritten, exact, ambiguous int
	for _, g := range genSchemas {
		t.Run(g.name, func(t *testing.T) {
			s := parse(t, g.schema)
			cases := transforms(t, g)
			opts := []enforce.Option{enforce.WithMaxRetries(0), enforce.WithMode(enforce.ModePrompt),
				enforce.WithLenient(schema.WithCoercions(g.kinds...))}
			if g.kinds == nil {
				opts[2] = enforce.WithLenient()
			}
			for i, reply := range slices.Sorted(maps.Keys(cases)) {
				c := cases[reply]
				total++
				text := surface(reply, i)
				res, err := enforce.Run(ctx, providertest.New(providertest.Text(text)), enforce.Request{Prompt: "Answer."}, s, opts...)
				strict, serr := enforce.Run(ctx, providertest.New(providertest.Text(text)), enforce.Request{Prompt: "Answer."}, s, opts[:2]...)
				for p := range c.pairs {
					triedPairs[p] = true
				}
				switch {
				case serr == nil:
					// The reply holds a value valid as written (5.0 is an
					// integer; an object inside the list is valid): lenient
					// mode takes the same, unchanged.
					asWritten++
					if assert.NoError(t, err, "valid reply %q", text) &&
						assert.Equal(t, string(strict.JSON), string(res.JSON), "a valid reply is changed") &&
						assert.Empty(t, res.Coercions) {
						for p := range c.pairs {
							checkedPairs[p]++
						}
					}
				case len(c.from) == 1:
					if !assert.NoError(t, err, "by %v: reply %q from %s", c.kinds, text, c.from[0]) {
						continue
					}
					if !assert.Equal(t, c.from[0], canonicalBytes(t, res.JSON), "by %v: reply %q; coercions %v", c.kinds, text, res.Coercions) {
						continue
					}
					exact++
					for _, ks := range c.kinds {
						for _, k := range ks {
							recovered[k]++
						}
					}
					for p := range c.pairs {
						checkedPairs[p]++
					}
				default:
					ambiguous++
					var ve *enforce.ValidationError
					if assert.True(t, errors.As(err, &ve), "ambiguous: reply %q (from %v) accepted as %s; coercions %v",
						text, c.from, resultJSON(res), coercionsOf(res)) &&
						assert.Equal(t, enforce.OutcomeInvalid, res.Attempts[0].Outcome) {
						for p := range c.pairs {
							checkedPairs[p]++
						}
					}
				}
			}
		})
	}
	t.Logf("lenient generative: %d replies from %d schemas; %d valid as written and kept, %d recovered exactly, %d ambiguous and refused; %d pairs of kinds",
		total, len(genSchemas), asWritten, exact, ambiguous, len(triedPairs))

	// Every kind was recovered, and every pair of kinds made replies that
	// came out right (5.0 twice is valid as written: kept, not recovered).
	for _, k := range append(schema.DefaultCoercions(), schema.CoerceDefault) {
		assert.Positive(t, recovered[k], "no reply recovered by %s", k)
	}
	kinds := append(schema.DefaultCoercions(), schema.CoerceDefault)
	for i, a := range kinds {
		for _, b := range kinds[i:] {
			if a == schema.CoerceWrapRoot && b == a {
				continue // a value has one root
			}
			p := pairOf(a, b)
			assert.True(t, triedPairs[p], "no reply made by %s with %s", a, b)
			assert.Positive(t, checkedPairs[p], "no reply made by %s with %s came out right", a, b)
		}
	}
	assert.Positive(t, ambiguous)
}

func canonicalBytes(t testing.TB, data []byte) string {
	t.Helper()
	return canonical(decodeNumber(t, string(data)))
}

func coercionsOf(res *enforce.Result) string {
	if res == nil {
		return "none"
	}
	var b bytes.Buffer
	for _, c := range res.Coercions {
		fmt.Fprintf(&b, "%s; ", c)
	}
	return b.String()
}
