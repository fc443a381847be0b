package schema_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/shared"
	"github.com/agentio/agentio/schema"
)

// sameAsAuthority checks that Validate, through the fast path, returns
// exactly what the authority path returns for v: the verdict and every
// violation, in order; and that the fast path's own verdict, when it
// gives one, is the authority's (a wrong "invalid" would be caught by the
// diagnostic pass and cost only time; a wrong "valid" would not).
func sameAsAuthority(t *testing.T, s *schema.Schema, v any, name string) bool {
	t.Helper()
	want := schema.ValidateAuthority(s, v)
	ok := assert.Equal(t, want, s.Validate(v), "%s: the fast path differs from the authority", name)
	if verdict := schema.FastVerdict(s, v); verdict == "valid" || verdict == "invalid" {
		authority := "valid"
		if len(want) > 0 {
			authority = "invalid"
		}
		if len(want) == 1 && want[0].Keyword == "maxDepth" {
			return ok // refused before any schema is applied
		}
		ok = assert.Equal(t, authority, verdict, "%s: the fast path's verdict", name) && ok
	}
	return ok
}

// sameOnBytes checks ValidateJSON, whose fast path reads the bytes, against
// the authority path on the decoded value: the same violations, the same
// error for bytes that are not JSON, and the bytes' verdict, when the fast
// path gives one, the authority's.
func sameOnBytes(t *testing.T, s *schema.Schema, data []byte, name string) bool {
	t.Helper()
	got, err := s.ValidateJSON(data)
	var v any
	if uerr := json.Unmarshal(data, &v); uerr != nil {
		if json.Valid(data) { // a number beyond float64
			return assert.NoError(t, err, name) && assert.Len(t, got, 1, name) && assert.Equal(t, "type", got[0].Keyword, name)
		}
		// Not JSON: the fast path may stop at a part that is invalid
		// anyway, but must never call the bytes valid.
		return assert.ErrorIs(t, err, schema.ErrNotJSON, name) && assert.NotEqual(t, "valid", schema.FastBytesVerdict(s, data), name)
	}
	want := schema.ValidateAuthority(s, v)
	ok := assert.NoError(t, err, name) && assert.Equal(t, want, got, "%s: ValidateJSON differs from the authority", name)
	if verdict := schema.FastBytesVerdict(s, data); verdict == "valid" || verdict == "invalid" {
		authority := "valid"
		if len(want) > 0 {
			authority = "invalid"
		}
		if len(want) == 1 && want[0].Keyword == "maxDepth" {
			return ok
		}
		ok = assert.Equal(t, authority, verdict, "%s: the fast path's verdict on the bytes", name) && ok
	}
	return ok
}

// sameOnDecode checks Decode, which decodes and checks in one pass,
// against json.Unmarshal and the authority path: the same value, the same
// violations, and, when the pass reads the bytes, the verdict of the fast
// path on the value, exactly (undecided where it is undecided).
func sameOnDecode(t *testing.T, s *schema.Schema, data []byte, name string) bool {
	t.Helper()
	var want any
	if err := json.Unmarshal(data, &want); err != nil {
		_, _, derr := s.Decode(data)
		return assert.Error(t, derr, name)
	}
	v, got, err := s.Decode(data)
	ok := assert.NoError(t, err, name) && assert.Equal(t, want, v, "%s: Decode's value", name) &&
		assert.Equal(t, schema.ValidateAuthority(s, want), got, "%s: Decode differs from the authority", name)
	if fused := schema.FusedVerdict(s, data); fused != "unread" {
		ok = assert.Equal(t, schema.FastVerdict(s, want), fused, "%s: the verdict of decoding and checking in one pass", name) && ok
	}
	return ok
}

// fastCoverageFloor is the share of the corpus's subschemas, in tenths of
// a percent, that the fast path checked itself when it landed: a change
// that covers fewer fails TestFastPathCorpus.
const fastCoverageFloor = 995

// TestFastPathCorpus runs every instance of the real-world corpus through
// Validate and the authority path, which must agree exactly, and measures
// the fast path's coverage: the share of the corpus's subschemas it checks
// itself, and of its instances it decides.
func TestFastPathCorpus(t *testing.T) {
	shared.Measuring(t)
	var covered, containers, fused, total, decided, cases int
	for _, rec := range readCorpus(t) {
		s, err := schema.Parse(rec.Schema)
		if err != nil {
			continue
		}
		c, k, f, n := schema.FastCoverage(s)
		covered, containers, fused, total = covered+c, containers+k, fused+f, total+n
		for i, tc := range rec.Tests {
			var v any
			require.NoError(t, json.Unmarshal(tc.Data, &v))
			cases++
			if verdict := schema.FastVerdict(s, v); verdict == "valid" || verdict == "invalid" {
				decided++
			}
			sameAsAuthority(t, s, v, fmt.Sprintf("%s[%d]", rec.ID, i))
			sameOnBytes(t, s, tc.Data, fmt.Sprintf("%s[%d] (bytes)", rec.ID, i))
			sameOnDecode(t, s, tc.Data, fmt.Sprintf("%s[%d] (decode)", rec.ID, i))
		}
	}
	share := 1000 * covered / max(total, 1)
	t.Logf("fast path: checks %d of the corpus's %d subschemas itself (%.1f%%); decides %d of its %d instances (%.1f%%); "+
		"Decode checks %d of the %d with array or object keywords as it builds them (%.1f%%), the others after",
		covered, total, float64(share)/10, decided, cases, 100*float64(decided)/float64(max(cases, 1)),
		fused, containers, 100*float64(fused)/float64(max(containers, 1)))
	assert.GreaterOrEqual(t, share, fastCoverageFloor, "the fast path covers fewer of the corpus's subschemas than when it landed")
}

// TestFastPathSuite runs the JSON-Schema-Test-Suite (draft 2020-12 and
// draft-07) through Validate and the authority path, which must agree
// exactly on every test.
func TestFastPathSuite(t *testing.T) {
	shared.Measuring(t)
	suiteDir := shared.Suite(t)
	for _, dr := range []struct{ dir, uri string }{
		{"draft2020-12", "https://json-schema.org/draft/2020-12/schema"},
		{"draft7", "http://json-schema.org/draft-07/schema#"},
	} {
		var total, decided int
		for file, gs := range suiteGroups(t, suiteDir, dr.dir) {
			for _, g := range gs {
				s, err := schema.ParseWith(withDraft(g.Schema, dr.uri), &schema.ParseOptions{Loader: suiteLoader(suiteDir)})
				if err != nil {
					continue
				}
				for _, tc := range g.Tests {
					total++
					if v := schema.FastVerdict(s, tc.Data); v == "valid" || v == "invalid" {
						decided++
					}
					name := dr.dir + "/" + file + " / " + g.Description + " / " + tc.Description
					sameAsAuthority(t, s, tc.Data, name)
					data, err := json.Marshal(tc.Data)
					require.NoError(t, err)
					sameOnBytes(t, s, data, name+" (bytes)")
					sameOnDecode(t, s, data, name+" (decode)")
				}
			}
		}
		t.Logf("%s: the fast path decides %d of %d suite tests", dr.dir, decided, total)
	}
}

// TestFastPathGenerated builds schemas from every keyword the fast path
// covers (and the two it leaves to the diagnostic pass), nested and
// combined at random, and instances near and far from them, and checks
// the fast path against the authority on each pair. It needs no shared
// data: it runs on every clone.
func TestFastPathGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 2026))
	schemas, pairs, decided := 0, 0, 0
	for i := range 1500 {
		g := &gen{rng: rng, draft7: i%4 == 0}
		head := `{"$defs":{"d":` + g.schema(2) + `},`
		if g.draft7 {
			head = `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"d":` + g.schema(2) + `},`
		}
		doc := head + `"allOf":[` + g.schema(3) + `]}`
		s, err := schema.Parse([]byte(doc))
		if err != nil {
			continue // a combination the draft refuses
		}
		schemas++
		for range 30 {
			inst := g.instance(4)
			var v any
			require.NoError(t, json.Unmarshal([]byte(inst), &v), inst)
			pairs++
			if verdict := schema.FastVerdict(s, v); verdict == "valid" || verdict == "invalid" {
				decided++
			}
			if !sameAsAuthority(t, s, v, doc+" ⟵ "+inst) || !sameOnBytes(t, s, []byte(inst), doc+" ⟵ "+inst+" (bytes)") ||
				!sameOnDecode(t, s, []byte(inst), doc+" ⟵ "+inst+" (decode)") {
				return
			}
		}
	}
	t.Logf("%d generated schemas, %d pairs, the fast path decided %d", schemas, pairs, decided)
	assert.Greater(t, schemas, 1000)
	assert.Greater(t, decided, pairs*9/10)
}

// gen writes random schemas and instances over a small vocabulary of
// names and values, so that instances often meet the schemas' keywords.
type gen struct {
	rng    *rand.Rand
	draft7 bool // write draft-07's forms where the drafts differ
}

var genNames = []string{"a", "b", "c", "id", "kind"}

func (g *gen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *gen) schema(depth int) string {
	if depth == 0 || g.rng.IntN(6) == 0 {
		return g.pick(`true`, `false`, `{}`, `{"type":"string"}`, `{"type":"integer","minimum":0}`, `{"enum":[1,"x",null,[1],{"a":1}]}`, `{"const":2}`)
	}
	var kws []string
	for range 1 + g.rng.IntN(4) {
		kws = append(kws, g.keyword(depth-1))
	}
	return "{" + strings.Join(kws, ",") + "}"
}

func (g *gen) keyword(depth int) string {
	switch g.rng.IntN(31) {
	case 0:
		return `"type":` + g.pick(`"object"`, `"array"`, `"string"`, `"number"`, `"integer"`, `"boolean"`, `"null"`, `["string","null"]`, `["number","array"]`)
	case 1:
		return `"enum":` + g.pick(`["x","y"]`, `[1,2.5,"1"]`, `[null,true]`, `[[1,2],{"a":"x"}]`, `[0]`,
			`["a","b","c","d","e","f","g","h","x","ab",1,null]`) // long: strings checked as a set
	case 2:
		return `"const":` + g.pick(`"x"`, `1`, `1.0`, `null`, `{"a":[1]}`, `[]`)
	case 3:
		return g.pick(`"minimum":1`, `"maximum":2.5`, `"exclusiveMinimum":0`, `"exclusiveMaximum":10`, `"multipleOf":0.5`, `"multipleOf":3`)
	case 4:
		return g.pick(`"minLength":2`, `"maxLength":3`, `"pattern":"^[a-c]+$"`, `"pattern":"x"`, `"format":"email"`)
	case 5, 6, 7:
		var ps []string
		for _, n := range genNames[:1+g.rng.IntN(len(genNames))] {
			if g.rng.IntN(2) == 0 {
				ps = append(ps, fmt.Sprintf("%q:%s", n, g.schema(depth)))
			}
		}
		return `"properties":{` + strings.Join(ps, ",") + `}`
	case 8:
		return `"required":` + g.pick(`["a"]`, `["a","b"]`, `["id"]`, `[]`)
	case 9:
		return `"additionalProperties":` + g.schema(depth)
	case 10:
		return `"patternProperties":{"^k":` + g.schema(depth) + `}`
	case 11:
		return `"propertyNames":` + g.pick(`{"maxLength":2}`, `{"pattern":"^[a-z]+$"}`, `{"enum":["a","b"]}`)
	case 12:
		return g.pick(`"minProperties":1`, `"minProperties":2`, `"maxProperties":1`, `"maxProperties":2`, `"dependentRequired":{"a":["b"]}`, `"dependencies":{"a":["c"]}`)
	case 13:
		return `"dependentSchemas":{"a":` + g.schema(depth) + `}`
	case 14, 15:
		return `"items":` + g.schema(depth)
	case 16:
		if g.draft7 {
			return `"items":[` + g.schema(depth) + `,` + g.schema(depth) + `]`
		}
		return `"prefixItems":[` + g.schema(depth) + `,` + g.schema(depth) + `]`
	case 17:
		return g.pick(`"minItems":1`, `"minItems":2`, `"maxItems":1`, `"maxItems":2`, `"uniqueItems":true`)
	case 18:
		return `"contains":` + g.schema(depth) + g.pick(``, `,"minContains":2`, `,"maxContains":1`, `,"minContains":0`)
	case 19:
		return `"allOf":[` + g.schema(depth) + `,` + g.schema(depth) + `]`
	case 20, 21:
		return `"anyOf":[` + g.schema(depth) + `,` + g.schema(depth) + `]`
	case 22:
		return `"oneOf":[` + g.schema(depth) + `,` + g.schema(depth) + `,` + g.schema(depth) + `]`
	case 23:
		return `"not":` + g.schema(depth)
	case 24:
		return `"if":` + g.schema(depth) + `,"then":` + g.schema(depth) + g.pick(``, `,"else":`+g.schema(depth))
	case 25:
		return `"unevaluatedProperties":` + g.pick(`false`, `{"type":"string"}`)
	case 26:
		return `"unevaluatedItems":` + g.pick(`false`, `{"type":"integer"}`)
	case 27:
		if g.draft7 {
			return `"items":[` + g.schema(depth) + `],"additionalItems":` + g.schema(depth)
		}
		return `"$ref":"#/$defs/d"`
	case 28:
		if g.draft7 {
			return `"properties":{"a":{"$ref":"#"}},"allOf":[{"$ref":"#/definitions/d"}]`
		}
		return `"properties":{"a":{"$ref":"#"}}`
	default:
		return `"description":"d"`
	}
}

func (g *gen) instance(depth int) string {
	if depth == 0 {
		return g.pick(`1`, `"x"`, `null`)
	}
	switch g.rng.IntN(9) {
	case 0:
		return g.pick(`null`, `true`, `false`)
	case 1:
		return g.pick(`0`, `1`, `1.0`, `2.5`, `-3`, `10`, `1e3`, `0.5`)
	case 2:
		return g.pick(`"x"`, `"y"`, `"ab"`, `"abcd"`, `""`, `"héé"`, `"k1"`, `"a@b.c"`, `"1"`)
	case 3, 4:
		var items []string
		for range g.rng.IntN(4) {
			items = append(items, g.instance(depth-1))
		}
		return "[" + strings.Join(items, ",") + "]"
	default:
		var ms, names []string
		for _, n := range append(genNames, "k9", "zz") {
			if g.rng.IntN(3) == 0 {
				ms = append(ms, fmt.Sprintf("%q:%s", n, g.instance(depth-1)))
				names = append(names, n)
			}
		}
		if len(names) > 0 && g.rng.IntN(6) == 0 {
			// A name written twice: the last value counts, and a
			// verdict on the first must not.
			ms = append(ms, fmt.Sprintf("%q:%s", names[g.rng.IntN(len(names))], g.instance(depth-1)))
		}
		return "{" + strings.Join(ms, ",") + "}"
	}
}

// FuzzFastPath holds the fast path to the authority path on any schema
// and instance: the same violations, in the same order. Seeds are the
// generated schemas' shapes and, when ../shared is there, every
// JSON-Schema-Test-Suite schema with its instances.
func FuzzFastPath(f *testing.F) {
	g := &gen{rng: rand.New(rand.NewPCG(1, 2))}
	for range 40 {
		f.Add([]byte(g.schema(3)), []byte(g.instance(3)))
	}
	addSuiteSeeds(f, "draft2020-12", "draft7")
	f.Fuzz(func(t *testing.T, schemaBytes, instance []byte) {
		s, err := schema.Parse(schemaBytes)
		if err != nil {
			return
		}
		if !sameOnBytes(t, s, instance, "") || !sameOnDecode(t, s, instance, "") {
			t.Fatalf("schema %s, instance %s", schemaBytes, instance)
		}
		var v any
		if json.Unmarshal(instance, &v) != nil {
			return
		}
		if !sameAsAuthority(t, s, v, "") {
			t.Fatalf("schema %s, instance %s", schemaBytes, instance)
		}
	})
}

// TestFastPathManyProperties checks property lookup in objects of many
// properties (found through a table, not scanned), with names that share
// their first eight bytes, differ only in length or past the eighth byte,
// are empty or multi-byte: each declared name finds its own subschema, and
// names close to them find none.
func TestFastPathManyProperties(t *testing.T) {
	var names []string
	for i := range 12 {
		names = append(names, fmt.Sprintf("description_%d", i), fmt.Sprintf("d%d", i), strings.Repeat("x", i))
	}
	names = append(names, "descript", "description", "descriptioné", "é", "ü")
	props := map[string]any{}
	for _, n := range names {
		props[n] = map[string]any{"type": "string"}
	}
	doc, err := json.Marshal(map[string]any{"type": "object", "properties": props, "additionalProperties": false})
	require.NoError(t, err)
	s, err := schema.Parse(doc)
	require.NoError(t, err)
	for _, n := range names {
		for _, tc := range []struct {
			value string
			valid bool
		}{{`"text"`, true}, {`1`, false}} {
			inst := fmt.Sprintf(`{%q:%s}`, n, tc.value)
			var v any
			require.NoError(t, json.Unmarshal([]byte(inst), &v))
			assert.Equal(t, tc.valid, len(s.Validate(v)) == 0, inst)
			sameAsAuthority(t, s, v, inst)
			sameOnBytes(t, s, []byte(inst), inst+" (bytes)")
			sameOnDecode(t, s, []byte(inst), inst+" (decode)")
		}
	}
	for _, n := range []string{"description_12", "descriptioN_1", "descriptio", "d12", "xxxxxxxxxxxx", "e", "descriptione"} {
		inst := fmt.Sprintf(`{%q:"text"}`, n)
		var v any
		require.NoError(t, json.Unmarshal([]byte(inst), &v))
		assert.NotEmpty(t, s.Validate(v), "%s is not declared", n)
		sameAsAuthority(t, s, v, inst)
		sameOnBytes(t, s, []byte(inst), inst+" (bytes)")
		sameOnDecode(t, s, []byte(inst), inst+" (decode)")
	}
}

// TestFastPathSharedParts checks a value built in Go that holds one array
// and one object in two places each, under alternatives (where the
// diagnostic pass judges each part once): every place is reported.
func TestFastPathSharedParts(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","additionalProperties":{"anyOf":[
		{"type":"array","minItems":1,"items":{"type":"string"}},
		{"type":"object","required":["id"]}]}}`))
	require.NoError(t, err)
	empty, tags, obj := []any{}, []any{"a", 1.0}, map[string]any{"name": "x"}
	v := map[string]any{"e1": empty, "e2": empty, "t1": tags, "t2": tags, "o1": obj, "o2": obj}
	vs := s.Validate(v)
	assert.Equal(t, schema.ValidateAuthority(s, v), vs)
	var paths []string
	for _, x := range vs {
		paths = append(paths, x.Path)
	}
	for _, p := range []string{"$.e1", "$.e2", "$.t1[1]", "$.t2[1]", "$.o1.id", "$.o2.id"} {
		assert.Contains(t, paths, p)
	}
}
