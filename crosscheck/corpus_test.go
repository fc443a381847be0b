package crosscheck_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/internal/shared"
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
		// An owner is a name: there, the names and words that are real
		// answers elsewhere are placeholders too.
		crosscheck.Invariant{Kind: crosscheck.NotPlaceholder, Values: "$.owner",
			Placeholders: []string{"John Doe", "Jane Doe", "test", "example", "string"}},
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

// TestPlaceholdersCorpus measures the default placeholder list on every
// string value of the valid instances of the shared corpus of real-world
// schemas: a value there is an answer, so each one the list flags is a
// false alarm. It must flag at most 0.1%; the log lists the values
// flagged. Blank strings, which NotPlaceholder rejects besides the list,
// are counted apart.
func TestPlaceholdersCorpus(t *testing.T) {
	shared.Measuring(t)
	f, err := os.Open(shared.Corpus(t, "schema_tests.sample.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.NotPlaceholder, Values: "$"})
	require.NoError(t, err)

	var strs []string
	var collect func(v any)
	collect = func(v any) {
		switch x := v.(type) {
		case string:
			strs = append(strs, x)
		case []any:
			for _, e := range x {
				collect(e)
			}
		case map[string]any:
			for _, e := range x {
				collect(e)
			}
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var entry struct {
			Tests []struct {
				Valid bool `json:"valid"`
				Data  any  `json:"data"`
			} `json:"tests"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &entry))
		for _, tc := range entry.Tests {
			if tc.Valid {
				collect(tc.Data)
			}
		}
	}
	require.NoError(t, sc.Err())
	require.Greater(t, len(strs), 10000, "the corpus's valid instances hold strings")

	flagged := map[string]int{}
	blank, n := 0, 0
	for _, s := range strs {
		if strings.TrimSpace(s) == "" {
			blank++
			continue
		}
		if len(invs.Check(s)) > 0 {
			flagged[crosscheck.Normalize(s)]++
			n++
		}
	}
	t.Logf("%d strings; the list flags %d (%.3f%%): %v; blank strings (rejected besides the list): %d (%.2f%%)",
		len(strs), n, 100*float64(n)/float64(len(strs)), flagged, blank, 100*float64(blank)/float64(len(strs)))
	assert.LessOrEqual(t, float64(n), 0.001*float64(len(strs)), "the default list flags %d of %d real answers: %v", n, len(strs), flagged)
}
