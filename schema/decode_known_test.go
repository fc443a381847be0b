package schema_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

const draft7 = `"$schema":"http://json-schema.org/draft-07/schema#",`

// knownVerdictCases are schemas whose nodes Decode may record a part's verdict
// under while the diagnostic pass asks under another, or where two parts
// may share a key, each with invalid instances (so that the diagnostic
// pass reads decodeRun.known) and valid ones.
var knownVerdictCases = []struct {
	name   string
	schema string
	docs   []string
}{
	{"draft-07 $ref hides its siblings", `{` + draft7 + `"definitions":{"p":{"type":"array","items":{"type":"integer"}}},
		"type":"object","required":["z"],"properties":{"a":{"$ref":"#/definitions/p","type":"string","minItems":9},"b":{"type":"array","items":{"$ref":"#/definitions/p"}}}}`,
		[]string{`{"a":[1,"x"],"b":[[1],["y"],[]]}`, `{"a":[1],"b":[[1],[2,"q"]],"z":1}`, `{"a":[],"b":[[],[]],"z":0}`, `{"a":"s","b":[[[]]]}`}},
	{"2020-12 $ref beside keywords", `{"$defs":{"p":{"type":"array","items":{"type":"integer"}}},
		"type":"object","required":["z"],"properties":{"a":{"$ref":"#/$defs/p","minItems":2},"b":{"type":"array","items":{"$ref":"#/$defs/p","maxItems":1}}}}`,
		[]string{`{"a":[1],"b":[[1],[1,2],[]]}`, `{"a":[1,2],"b":[[1],["x"]]}`, `{"a":[1,2],"b":[[]],"z":1}`, `{"a":[[]],"b":[[],[1,2,3]],"z":{}}`}},
	{"prefixItems, then items", `{"type":"array","minItems":4,"prefixItems":[{"type":"array","items":{"type":"string"}},{"type":"object","required":["q"]}],
		"items":{"type":"array","maxItems":1,"items":{"type":"array","minItems":1}}}`,
		[]string{`[["a"],{"q":1},[[1]]]`, `[[1],{},[[],[]],[[]]]`, `[[],{"q":[]},[],[[]]]`, `[["a"],{"q":1},[[1]],[[2]]]`, `[[],[],[],[]]`}},
	{"draft-07 items array, additionalItems", `{` + draft7 + `"type":"array","minItems":4,"items":[{"type":"array","items":{"type":"string"}},{"type":"object","required":["q"]}],
		"additionalItems":{"type":"array","maxItems":1,"items":{"type":"array","minItems":1}}}`,
		[]string{`[["a"],{"q":1},[[1]]]`, `[[1],{},[[],[]],[[]]]`, `[[],{"q":[]},[],[[]]]`, `[["a"],{"q":1},[[1]],[[2]]]`, `[[],[],[],[]]`}},
	{"draft-07 items, one schema", `{` + draft7 + `"type":"array","items":{"type":"array","items":{"type":"array","maxItems":1}},"maxItems":2}`,
		[]string{`[[[1]],[[]],[[1,2]]]`, `[[[]],[[],[]]]`, `[[],[[]]]`}},
	{"additionalProperties a schema, and false", `{"type":"object","required":["z"],"properties":{"a":{"type":"array"},"c":{"type":"object","additionalProperties":false,"properties":{"k":{"type":"array","items":{"type":"integer"}}}}},
		"additionalProperties":{"type":"array","items":{"type":"string"}}}`,
		[]string{`{"a":[1],"b":["x",2],"c":{"k":[1,"y"],"j":[]},"d":[]}`, `{"a":[],"b":[],"c":{"k":[]},"z":[]}`, `{"a":{},"b":[[]],"c":{"j":{}},"z":["x"]}`}},
	{"patternProperties", `{"type":"object","minProperties":9,"properties":{"ka":{"type":"array","items":{"type":"integer"}}},
		"patternProperties":{"^k":{"type":"array","maxItems":2},"a$":{"type":"array","items":{"type":"integer"}}},"additionalProperties":{"type":"object"}}`,
		[]string{`{"ka":[1,2,3],"kb":["x"],"ba":["x"],"x":[]}`, `{"ka":[1],"kb":[[]],"ba":[[]],"x":{}}`, `{"ka":[],"ka":[1,2,"x"],"x":{"a":[]}}`}},
	{"a property false", `{"type":"object","required":["z"],"properties":{"a":false,"b":{"type":"array","items":false},"c":{"type":"array","prefixItems":[true,false]}}}`,
		[]string{`{"a":[1],"b":[],"c":[[]]}`, `{"a":{},"b":[[]],"c":[[],[]]}`, `{"b":[],"c":[[]],"z":1}`, `{"a":[],"a":[],"z":1}`}},
	{"repeated names", `{"type":"object","required":["z"],"properties":{"a":{"type":"array","items":{"type":"integer"}},"o":{"type":"object","properties":{"a":{"type":"array","minItems":1}}}}}`,
		[]string{`{"a":[1],"a":["x"]}`, `{"a":["x"],"a":[1]}`, `{"a":[],"a":[],"o":{"a":[],"a":[1]},"o":{"a":[1],"a":[]}}`,
			`{"o":{"a":[1]},"o":{"a":[]},"a":[1],"a":[2]}`, `{"a":[[]],"a":[],"z":1,"o":{"a":[],"a":[0]}}`, `{"a":"x","a":[1],"a":[["y"]]}`}},
	{"empty arrays and objects under different nodes", `{"type":"object","properties":{"a":{"type":"array","minItems":1},"b":{"type":"array","maxItems":0},
		"c":{"type":"array","items":{"type":"array","minItems":1}},"d":{"type":"object","minProperties":1},"e":{"type":"object","maxProperties":0},
		"f":{"type":"array","items":{"type":"object","required":["x"]}}}}`,
		[]string{`{"a":[],"b":[],"c":[[],[],[1]],"d":{},"e":{},"f":[{},{},{"x":[]}]}`, `{"a":[[]],"b":[[]],"c":[[[]],[]],"d":{"":{}},"e":{"":{}},"f":[{"x":{}},{}]}`,
			`{"a":[1],"b":[],"c":[[1]],"d":{"q":[]},"e":{},"f":[]}`}},
	{"anyOf and oneOf", `{"type":"object","minProperties":4,"additionalProperties":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"array","minItems":3},
		{"oneOf":[{"type":"object","required":["id"]},{"type":"object","properties":{"id":{"type":"array"}}}]}]}}`,
		[]string{`{"t1":["a",1],"t2":[],"o1":{"id":1},"o2":{"id":[]},"o3":{}}`, `{"t":["x"],"u":[1,2,3],"o":{"id":"s"}}`, `{"a":[[]],"b":[[],[]],"c":{"id":[[]]}}`}},
	{"unevaluated, slow nodes", `{"type":"object","required":["z"],"properties":{"a":{"type":"object","properties":{"x":{"type":"array"}},"unevaluatedProperties":false},
		"b":{"type":"array","prefixItems":[{"type":"array"}],"unevaluatedItems":{"type":"integer"}},"c":{"type":"array","items":{"type":"object","unevaluatedProperties":{"type":"array"}}}}}`,
		[]string{`{"a":{"x":[],"y":[]},"b":[[],1,"x"],"c":[{"p":[]},{"q":1}]}`, `{"a":{"x":[1]},"b":[[1],2],"c":[{}],"z":1}`, `{"a":{"x":{}},"b":[{}],"c":[[]],"z":[]}`}},
	{"recursive", `{"type":"array","maxItems":2,"items":{"anyOf":[{"type":"integer"},{"$ref":"#"}]}}`,
		[]string{`[[[1,2,3]],[[]],[[[["x"]]]]]`, `[[1,[2,[3,["x"]]]],[]]`, `[[],[]]`, `[` + strings.Repeat(`[`, 120) + strings.Repeat(`]`, 120) + `,[1,2,3]]`}},
	{"recursive, fused", `{"$defs":{"n":{"type":"object","required":["v"],"properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/n"}}}}},"$ref":"#/$defs/n"}`,
		[]string{`{"v":1,"kids":[{"v":2,"kids":[]},{"v":"x","kids":[{"kids":[]}]},{"v":3}]}`, `{"kids":[{"v":1,"kids":[{"v":2},{}]}]}`, `{"v":1,"kids":[{"v":2,"kids":[{"v":3}]}]}`}},
}

// TestDecodeKnownCases runs knownVerdictCases through Decode, DecodeString and
// ValidateJSON, against Validate on the decoded value and the authority,
// and, on one pooled run, each document after each other, so that a
// verdict left from the one before would show.
func TestDecodeKnownCases(t *testing.T) {
	for _, tc := range knownVerdictCases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tc.schema))
			require.NoError(t, err)
			invalid := 0
			for round := range 2 {
				for _, doc := range tc.docs {
					name := fmt.Sprintf("%s (round %d)", doc, round)
					require.True(t, json.Valid([]byte(doc)), doc)
					sameOnDecode(t, s, []byte(doc), name)
					v, vs, err := s.Decode([]byte(doc))
					require.NoError(t, err, name)
					assert.Equal(t, s.Validate(v), vs, name)
					jvs, err := s.ValidateJSON([]byte(doc))
					require.NoError(t, err, name)
					assert.Equal(t, vs, jvs, name)
					if len(vs) > 0 {
						invalid++
					}
				}
			}
			assert.NotZero(t, invalid, "no document reached the diagnostic pass")
		})
	}
}

// TestDecodeKnownConcurrent decodes knownVerdictCases' documents from four
// goroutines sharing each Schema (and its pool of decodeRuns, each with
// its table of known verdicts): each gets what one goroutine gets.
func TestDecodeKnownConcurrent(t *testing.T) {
	type job struct {
		s    *schema.Schema
		doc  []byte
		want []schema.Violation
	}
	var jobs []job
	for _, tc := range knownVerdictCases {
		s, err := schema.Parse([]byte(tc.schema))
		require.NoError(t, err)
		for _, doc := range tc.docs {
			_, vs, err := s.Decode([]byte(doc))
			require.NoError(t, err)
			jobs = append(jobs, job{s, []byte(doc), vs})
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				j := jobs[(i*7+g*13)%len(jobs)]
				_, vs, err := j.s.Decode(j.doc)
				if !assert.NoError(t, err) || !assert.Equal(t, j.want, vs, "%s", j.doc) {
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestDecodeGeneratedLarge is TestFastPathGenerated on documents large
// enough that the collector runs while Decode reads them (GOGC=1): many
// generated instances, repeated names among them, in one array; Decode
// must list what Validate lists on the value it returns, and its one-pass
// verdict must be the fast path's.
func TestDecodeGeneratedLarge(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	rng := rand.New(rand.NewPCG(38, 2026))
	schemas := 0
	for i := range 150 {
		g := &gen{rng: rng, draft7: i%4 == 0}
		head := `{"$defs":{"d":` + g.schema(2) + `},`
		if g.draft7 {
			head = `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"d":` + g.schema(2) + `},`
		}
		doc := head + `"type":"array","items":{"allOf":[` + g.schema(3) + `]}}`
		s, err := schema.Parse([]byte(doc))
		if err != nil {
			continue
		}
		schemas++
		insts := make([]string, 300)
		for k := range insts {
			insts[k] = g.instance(4)
		}
		data := []byte("[" + strings.Join(insts, ",") + "]")
		v, vs, err := s.Decode(data)
		require.NoError(t, err)
		if !assert.Equal(t, s.Validate(v), vs, "%s ⟵ %s", doc, data) {
			return
		}
		if fused := schema.FusedVerdict(s, data); fused != "unread" {
			assert.Equal(t, schema.FastVerdict(s, v), fused, "%s ⟵ %s", doc, data)
		}
	}
	assert.Greater(t, schemas, 100)
}

// TestDecodeKnownSmallMaxDepth is TestDecodeKnownCases under small
// ParseOptions.MaxDepth, where documents nest to the limit, past it, and
// the bound on applications (compiled.maxApplications) is small.
func TestDecodeKnownSmallMaxDepth(t *testing.T) {
	for _, depth := range []int{1, 2, 3, 5} {
		for _, tc := range knownVerdictCases {
			s, err := schema.ParseWith([]byte(tc.schema), &schema.ParseOptions{MaxDepth: depth})
			require.NoError(t, err)
			for _, doc := range tc.docs {
				name := fmt.Sprintf("%s, MaxDepth %d: %s", tc.name, depth, doc)
				sameOnDecode(t, s, []byte(doc), name)
				v, vs, err := s.Decode([]byte(doc))
				require.NoError(t, err, name)
				assert.Equal(t, s.Validate(v), vs, name)
			}
		}
	}
}
