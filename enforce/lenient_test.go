package enforce_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

type lenientCase struct {
	Name   string          `json:"name"`
	Schema string          `json:"schema"`
	Reply  string          `json:"reply"`
	Want   json.RawMessage `json:"want"`
	Fail   enforce.Outcome `json:"fail"`
}

func readLenientCases(t *testing.T) ([]lenientCase, map[string]*schema.Schema) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "lenient", "cases.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var cases []lenientCase
	schemas := map[string]*schema.Schema{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c lenientCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		if schemas[c.Schema] == nil {
			data, err := os.ReadFile(filepath.Join("testdata", "lenient", c.Schema+".schema.json"))
			require.NoError(t, err)
			schemas[c.Schema], err = schema.Parse(data)
			require.NoError(t, err)
		}
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases, schemas
}

// runOnce runs one case with no re-ask, strict or lenient, repair on.
func runOnce(t *testing.T, c lenientCase, s *schema.Schema, lenient bool) (*enforce.Result, error) {
	reply := providertest.Text(c.Reply)
	if c.Fail == enforce.OutcomeTruncated {
		reply = providertest.Truncated(c.Reply)
	}
	opts := []enforce.Option{enforce.WithMaxRetries(0), enforce.WithRepair(), enforce.WithMode(enforce.ModePrompt)}
	if lenient {
		opts = append(opts, enforce.WithLenient())
	}
	return enforce.Run(context.Background(), providertest.New(reply), enforce.Request{Prompt: "Answer."}, s, opts...)
}

// TestLenientCorpus runs every near-miss reply of testdata/lenient strict
// and lenient, one attempt each, and checks lenient mode's value or
// failure. The counts are stated in the package documentation.
func TestLenientCorpus(t *testing.T) {
	cases, schemas := readLenientCases(t)
	require.GreaterOrEqual(t, len(cases), 60)
	var strictOK, lenientOK, kept int
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			s := schemas[c.Schema]
			if res, err := runOnce(t, c, s, false); err == nil {
				strictOK++
				assert.Empty(t, res.Coercions)
			}
			res, err := runOnce(t, c, s, true)
			if c.Fail != "" {
				require.Error(t, err, "lenient mode accepted %s", resultJSON(res))
				var ve *enforce.ValidationError
				require.True(t, errors.As(err, &ve), "%v", err)
				assert.Equal(t, c.Fail, res.Attempts[len(res.Attempts)-1].Outcome)
				kept++
				return
			}
			require.NoError(t, err)
			lenientOK++
			assert.JSONEq(t, string(c.Want), string(res.JSON))
			vs, err := s.ValidateJSON(res.JSON)
			require.NoError(t, err)
			assert.Empty(t, vs, "the result passes the schema strictly")
		})
	}
	t.Logf("lenient corpus: %d near-miss replies; strict accepts %d, lenient accepts %d (each with the expected value); "+
		"lenient keeps the %d expected failures", len(cases), strictOK, lenientOK, kept)
	assert.Equal(t, 10, strictOK, "strict count (update the package doc)")
	assert.Equal(t, 88, lenientOK, "lenient count (update the package doc)")
}

func resultJSON(res *enforce.Result) string {
	if res == nil {
		return "nothing"
	}
	return string(res.JSON)
}

// TestLenientRecords checks what a lenient run reports, and that a coerced
// value still invalid is not used.
func TestLenientRecords(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","required":["n","level"],"properties":{"n":{"type":"integer"},"level":{"enum":["low","high"]}}}`))
	require.NoError(t, err)
	p := providertest.New(providertest.Text(`{"n":"5","level":"HIGH"}`))
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Go."}, s, enforce.WithLenient())
	require.NoError(t, err)
	assert.JSONEq(t, `{"n":5,"level":"high"}`, string(res.JSON))
	assert.Equal(t, map[string]any{"n": 5.0, "level": "high"}, res.Value)
	require.Len(t, res.Coercions, 2)
	assert.Equal(t, schema.CoerceEnumMatch, res.Coercions[0].Kind)
	assert.Equal(t, "$.level", res.Coercions[0].Path)
	assert.Equal(t, schema.CoerceStringToNumber, res.Coercions[1].Kind)
	assert.Equal(t, res.Coercions, res.Attempts[0].Coercions)

	// "5" is coercible, "x" is not: the re-ask shows the model's own value.
	p = providertest.New(providertest.Text(`{"n":"5","level":"x"}`), providertest.Text(`{"n":5,"level":"low"}`))
	res, err = enforce.Run(context.Background(), p, enforce.Request{Prompt: "Go."}, s, enforce.WithLenient())
	require.NoError(t, err)
	require.Len(t, res.Attempts, 2)
	first := res.Attempts[0]
	assert.Equal(t, enforce.OutcomeInvalid, first.Outcome)
	assert.Empty(t, first.Coercions)
	assert.JSONEq(t, `{"n":"5","level":"x"}`, string(first.JSON))
	assert.Len(t, first.Violations, 2)
	assert.Empty(t, res.Coercions)

	// Coercions the policy leaves out are not made.
	p = providertest.New(providertest.Text(`{"n":"5","level":"HIGH"}`))
	_, err = enforce.Run(context.Background(), p, enforce.Request{Prompt: "Go."}, s,
		enforce.WithLenient(schema.WithCoercions(schema.CoerceEnumMatch)), enforce.WithMaxRetries(0))
	require.Error(t, err)

	_, err = enforce.New(s, enforce.WithLenient(schema.WithCoercions("guess")))
	assert.ErrorIs(t, err, enforce.ErrInvalidOption)
}

// TestLenientRootList checks the two ways a list at the root can reach
// coercion: a bare list of objects where an object root wants it under
// its one required property, and a one-element list, which could also be
// unwrapped, where only wrapping makes it fit.
func TestLenientRootList(t *testing.T) {
	s := parse(t, `{"type":"object","required":["answers"],"additionalProperties":false,"properties":{
		"answers":{"type":"array","items":{"type":"object","required":["answer","confidence"],"additionalProperties":false,
			"properties":{"answer":{"type":"string"},"confidence":{"type":"integer"}}}}}}`)
	tests := []struct {
		name, reply, want string
		kinds             []schema.CoercionKind
	}{
		{name: "bare list, keys capitalised", reply: `[{"Answer": "Paris", "Confidence": 4}, {"Answer": "Lyon", "Confidence": 2}]`,
			want:  `{"answers":[{"answer":"Paris","confidence":4},{"answer":"Lyon","confidence":2}]}`,
			kinds: []schema.CoercionKind{schema.CoerceWrapRoot, schema.CoerceKeyMatch, schema.CoerceKeyMatch, schema.CoerceKeyMatch, schema.CoerceKeyMatch}},
		{name: "one-element list after prose", reply: "The answers:\n[{\"answer\": \"Paris\", \"confidence\": 4}]",
			want: `{"answers":[{"answer":"Paris","confidence":4}]}`, kinds: []schema.CoercionKind{schema.CoerceWrapRoot}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := enforce.Run(ctx, providertest.New(providertest.Text(tt.reply)), enforce.Request{Prompt: "Answer."}, s,
				enforce.WithLenient(), enforce.WithMaxRetries(0))
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(res.JSON))
			var kinds []schema.CoercionKind
			for _, c := range res.Coercions {
				kinds = append(kinds, c.Kind)
			}
			assert.Equal(t, tt.kinds, kinds)
			assert.Equal(t, "$", res.Coercions[0].Path)

			// Strict mode is unchanged: the list is not the answer.
			_, err = enforce.Run(ctx, providertest.New(providertest.Text(tt.reply)), enforce.Request{Prompt: "Answer."}, s, enforce.WithMaxRetries(0))
			var ve *enforce.ValidationError
			require.ErrorAs(t, err, &ve)
		})
	}
}

// TestLenientPrefersWrittenValid checks the order of preference among the
// values of one reply: valid as written, then valid after coercion, then
// fewest violations; and that an object inside a list is not coerced on
// its own when the list itself reads two ways.
func TestLenientPrefersWrittenValid(t *testing.T) {
	s := parse(t, `{"type":"object","required":["n"],"properties":{"n":{"type":"integer"}}}`)
	run := func(reply string) *enforce.Result {
		t.Helper()
		res, err := enforce.Run(ctx, providertest.New(providertest.Text(reply)), enforce.Request{Prompt: "Go."}, s,
			enforce.WithLenient(), enforce.WithMaxRetries(0))
		require.NoError(t, err)
		return res
	}
	// The first value needs coercion, the second is valid as written.
	res := run("First try: {\"n\": \"5\"}. Final: {\"n\": 6}")
	assert.JSONEq(t, `{"n":6}`, string(res.JSON))
	assert.Empty(t, res.Coercions)
	// Only the first can be made valid.
	res = run("First try: {\"n\": \"5\"}. Final: {\"n\": \"six\"}")
	assert.JSONEq(t, `{"n":5}`, string(res.JSON))
	require.Len(t, res.Coercions, 1)

	// [{"Xs": 1}] is the one-element list around {"xs": [1]}, or that
	// list's one item: the list reads two ways, and its object is not
	// taken alone in its place.
	two := parse(t, `{"type":"object","required":["xs"],"additionalProperties":false,"properties":{"xs":{"type":"array","items":{"anyOf":[
		{"type":"integer"},{"type":"object","required":["xs"],"additionalProperties":false,"properties":{"xs":{"type":"array","items":{"type":"integer"}}}}]}}}}`)
	_, err := enforce.Run(ctx, providertest.New(providertest.Text(`[{"Xs": 1}]`)), enforce.Request{Prompt: "Go."}, two,
		enforce.WithLenient(), enforce.WithMaxRetries(0))
	var ve *enforce.ValidationError
	require.ErrorAs(t, err, &ve)
}
