package crosscheck_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/crosscheck"
)

// groundingCorpus is testdata/grounding_corpus.json: five inputs written
// for these tests and outputs against them, each labelled faithful (a quote,
// exact or with case, spacing, quotation marks, dashes or ellipses changed),
// paraphrase (true to the input, but not a quote), fabrication (a quote
// with a planted change, or parts out of order) or placeholder (a faithful
// quote and an owner that is a placeholder).
type groundingCorpus struct {
	Inputs map[string]string `json:"inputs"`
	Cases  []struct {
		Input  string `json:"input"`
		Label  string `json:"label"`
		Note   string `json:"note"`
		Output any    `json:"output"`
	} `json:"cases"`
}

func TestGroundingCorpus(t *testing.T) {
	data, err := os.ReadFile("testdata/grounding_corpus.json")
	require.NoError(t, err, "testdata/grounding_corpus.json is missing")
	var c groundingCorpus
	require.NoError(t, json.Unmarshal(data, &c))
	require.GreaterOrEqual(t, len(c.Cases), 100)

	invs, err := crosscheck.CompileInvariants(
		crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.evidence"},
		crosscheck.Invariant{Kind: crosscheck.NotPlaceholder, Values: "$.owner"},
	)
	require.NoError(t, err)
	grounds := map[string]*crosscheck.Grounds{}
	for name, text := range c.Inputs {
		grounds[name] = crosscheck.NewGrounds(crosscheck.Inputs{Text: text})
	}
	total, flagged := map[string]int{}, map[string]int{}
	for i, cs := range c.Cases {
		g := grounds[cs.Input]
		require.NotNil(t, g, "case %d: no input %q", i, cs.Input)
		vs := invs.CheckGrounded(cs.Output, g)
		total[cs.Label]++
		if len(vs) > 0 {
			flagged[cs.Label]++
		}
		switch cs.Label {
		case "faithful":
			assert.Empty(t, vs, "case %d (%s): a faithful quote flagged: %v", i, cs.Note, cs.Output)
		case "fabrication", "paraphrase":
			if assert.Len(t, vs, 1, "case %d: %v", i, cs.Output) {
				assert.Equal(t, "$.evidence", vs[0].Path)
			}
		case "placeholder":
			if assert.Len(t, vs, 1, "case %d: %v", i, cs.Output) {
				assert.Equal(t, "$.owner", vs[0].Path)
			}
		default:
			t.Fatalf("case %d: unknown label %q", i, cs.Label)
		}
	}
	for _, l := range []string{"faithful", "paraphrase", "fabrication", "placeholder"} {
		t.Logf("%-11s %3d cases, %3d flagged", l, total[l], flagged[l])
	}
}
