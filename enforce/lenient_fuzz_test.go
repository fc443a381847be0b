package enforce_test

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// FuzzLenient checks what lenient mode must never do, on any schema and
// any reply: a reply strict mode accepts is taken unchanged, with no
// coercion; and every leaf of a value lenient mode accepts is in the reply
// (a number of exactly the same value, never rounded; a string as written
// or, for an enum member, loosely equal to one written; a boolean written
// as itself or as true/false in a string; a null written as null).
func FuzzLenient(f *testing.F) {
	for _, g := range genSchemas {
		for _, v := range g.values {
			f.Add(g.schema, v)
		}
	}
	for _, seed := range [][2]string{
		{`{"type":"object","required":["answers"],"properties":{"answers":{"type":"array","items":{"type":"object","properties":{"answer":{"type":"string"},"confidence":{"type":"integer"}}}}}}`,
			`[{"Answer": "x", "Confidence": "4"}]`},
		{`{"type":"object","properties":{"n":{"type":"integer"},"s":{"enum":["in_progress","done"]}}}`, `Sure: {"n": "5.0", "s": "In Progress"}`},
		{`{"type":"integer"}`, `"4.5"`},
		{`{"type":"array","items":{"type":"boolean"}}`, "```json\n\"TRUE\"\n```"},
		{`{"type":"object","properties":{"o":{"type":"object"}}}`, `{"o": "{\"a\": [1, 2.50]}"}`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, schemaText, reply string) {
		s, err := schema.Parse([]byte(schemaText))
		if err != nil {
			return
		}
		run := func(opts ...enforce.Option) (*enforce.Result, error) {
			opts = append(opts, enforce.WithMaxRetries(0), enforce.WithMode(enforce.ModePrompt))
			return enforce.Run(ctx, providertest.New(providertest.Text(reply)), enforce.Request{Prompt: "Go."}, s, opts...)
		}
		strict, serr := run()
		res, err := run(enforce.WithLenient())
		if serr == nil {
			require.NoError(t, err, "lenient mode refused what strict mode accepts")
			assert.Equal(t, string(strict.JSON), string(res.JSON), "lenient mode changed a valid reply")
			assert.Empty(t, res.Coercions)
			return
		}
		if err != nil {
			return
		}
		require.NotEmpty(t, res.Coercions, "valid with no coercion, yet strict mode refused it: %v", serr)
		vs, verr := s.ValidateJSON(res.JSON)
		require.NoError(t, verr)
		require.Empty(t, vs, "lenient mode accepted an invalid value")

		var src leaves
		for _, opts := range [][]extract.Option{nil, {extract.WithObjectsOnly()}} {
			for _, c := range extract.Candidates(reply, opts...) {
				src.add(decodeLoose(c.JSON))
			}
		}
		checkLeaves(t, decodeLoose(res.JSON), &src)
	})
}

// decodeLoose decodes data with UseNumber, nil when it does not decode.
func decodeLoose(data []byte) any {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// leaves are the scalars a reply holds, strings holding JSON read too.
type leaves struct {
	strings []string
	numbers []*big.Rat
	bools   []bool
	null    bool
}

func (l *leaves) add(v any) {
	switch x := v.(type) {
	case nil:
		l.null = true
	case bool:
		l.bools = append(l.bools, x)
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(x)); ok {
			l.numbers = append(l.numbers, r)
		}
	case string:
		l.strings = append(l.strings, x)
		if r, ok := new(big.Rat).SetString(strings.TrimSpace(x)); ok {
			l.numbers = append(l.numbers, r)
		}
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true":
			l.bools = append(l.bools, true)
		case "false":
			l.bools = append(l.bools, false)
		}
		if t := strings.TrimSpace(x); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			l.add(decodeLoose([]byte(t)))
		}
	case []any:
		for _, e := range x {
			l.add(e)
		}
	case map[string]any:
		for _, e := range x {
			l.add(e)
		}
	}
}

// checkLeaves asserts that every leaf of v is one of src.
func checkLeaves(t *testing.T, v any, src *leaves) {
	switch x := v.(type) {
	case nil:
		assert.True(t, src.null, "a null the reply does not hold")
	case bool:
		assert.Contains(t, src.bools, x, "a boolean the reply does not hold")
	case json.Number:
		r, ok := new(big.Rat).SetString(string(x))
		require.True(t, ok)
		found := false
		for _, n := range src.numbers {
			found = found || n.Cmp(r) == 0
		}
		assert.True(t, found, "the number %s is not in the reply (rounded or invented)", x)
	case string:
		found := false
		for _, s := range src.strings {
			found = found || s == x || loose(s) == loose(x)
		}
		assert.True(t, found, "the string %q is not in the reply", x)
	case []any:
		for _, e := range x {
			checkLeaves(t, e, src)
		}
	case map[string]any:
		for _, e := range x {
			checkLeaves(t, e, src)
		}
	}
}

// loose is s as enum matching compares it: lower case, without
// surrounding space and the separators '-', '_' and ' '.
func loose(s string) string {
	return strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(strings.TrimSpace(s)))
}
