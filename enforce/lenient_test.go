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
	assert.Equal(t, 7, strictOK, "strict count (update the package doc)")
	assert.Equal(t, 39, lenientOK, "lenient count (update the package doc)")
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
