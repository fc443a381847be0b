package extract_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/internal/shared"
)

// heldTokens are what heldInputs inserts into replies: quotes of
// every kind, backslashes, brackets, separators, comments, placeholders,
// literals, non-ASCII and long runs.
var heldTokens = []string{
	`'`, `"`, "“", "”", "‘", "’", "„", "‚", "`", "´", `\`, `\"`, `\'`, `\\`,
	"{", "}", "[", "]", "(", ")", ",", ":", ";", "//", "/*", "*/", "# c\n", "/* y */",
	"...", "…", "\n", "\t", "\r\n", " + ", "NaN", "True", "None", "1_000", ".5", "+3",
	"é", "中", "\u00a0", "\ufeff", "\xff", "\x01", `'k':`, "“v”", "abc def",
	strings.Repeat("x", 300), strings.Repeat("ab'", 50), strings.Repeat("'a',", 60),
}

// heldInputs returns the repair rule cases, the shapes of brokenKinds
// (alone and repeated past the sizes of the fix log's chunks and 64 KiB),
// and n mutations of them, the same on every run.
func heldInputs(t *testing.T, n int, sizes []int) []string {
	var ins []string
	var rules []struct{ Text string }
	data, err := os.ReadFile("testdata/repair_rules.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rules))
	for _, r := range rules {
		ins = append(ins, r.Text)
	}
	for _, k := range brokenKinds {
		ins = append(ins, k.item)
	}
	pool := append([]string(nil), ins...)
	for _, k := range brokenKinds {
		for _, size := range sizes {
			ins = append(ins, brokenText(k.item, size))
		}
	}
	rng := rand.New(rand.NewSource(41))
	for range n {
		b := []byte(pool[rng.Intn(len(pool))])
		for range 1 + rng.Intn(6) {
			p := rng.Intn(len(b) + 1)
			if rng.Intn(4) == 0 && p < len(b) {
				b = append(b[:p:p], b[min(len(b), p+1+rng.Intn(6)):]...)
				continue
			}
			tok := heldTokens[rng.Intn(len(heldTokens))]
			b = append(b[:p:p], append([]byte(tok), b[p:]...)...)
		}
		ins = append(ins, string(b))
	}
	return ins
}

// heldResult is what the repairs of one input returned, held as the
// caller got it, and its text when it was returned.
type heldResult struct {
	list  []extract.Candidate // as Candidates returned it
	picks []extract.Candidate // what JSON returned, with each validator
	text  string              // the candidates'
	shown string              // what the validators were shown, and the errors
}

// all returns the candidates of r, in a new list.
func (r heldResult) all() []extract.Candidate {
	return append(append([]extract.Candidate(nil), r.list...), r.picks...)
}

func heldText(cs []extract.Candidate) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%q %d %d %v\n", c.JSON, c.Start, c.End, c.Source)
		for _, f := range c.Fixes {
			fmt.Fprintf(&b, " %v %d %q %q %q\n", f.Kind, f.Offset, f.Before, f.After, f.Detail)
		}
	}
	return b.String()
}

// A searcher is what extracts: the package functions (packageFuncs) or
// an [extract.Extractor].
type searcher interface {
	JSON(text string, opts ...extract.Option) (extract.Candidate, error)
	Candidates(text string, opts ...extract.Option) []extract.Candidate
}

// packageFuncs is the searcher of the package functions.
type packageFuncs struct{}

func (packageFuncs) JSON(text string, opts ...extract.Option) (extract.Candidate, error) {
	return extract.JSON(text, opts...)
}

func (packageFuncs) Candidates(text string, opts ...extract.Option) []extract.Candidate {
	return extract.Candidates(text, opts...)
}

// heldRepairs runs with s the repairs a caller does on text: every
// candidate, and the value a validator picks (which settles guesses by
// reading the text twice), logging what the validators were shown.
func heldRepairs(s searcher, text string) heldResult {
	list := s.Candidates(text, extract.WithRepair())
	var picks []extract.Candidate
	var shown strings.Builder
	for _, valid := range []func(json.RawMessage) bool{
		func(m json.RawMessage) bool { return true },
		func(m json.RawMessage) bool { return len(m) > 0 && m[0] == '{' },
		func(m json.RawMessage) bool { h := fnv.New32a(); h.Write(m); return h.Sum32()%2 == 0 },
	} {
		c, err := s.JSON(text, extract.WithRepair(), extract.WithAccept(func(m json.RawMessage) bool {
			fmt.Fprintf(&shown, "%q\n", m)
			return valid(m)
		}))
		fmt.Fprintf(&shown, "err %v\n", err)
		picks = append(picks, c)
	}
	r := heldResult{list: list, picks: picks, shown: shown.String()}
	r.text = heldText(r.all())
	return r
}

// TestRepairResultsHeldStay holds what every repair returned while the
// same goroutine and others repair other replies, and checks that nothing
// returned changed afterwards (a fix's text or a value aliasing a buffer
// the repairer writes again), that each fix's Before is the input's text
// at its offset, and that every goroutine got the same results: with the
// package functions, and with an Extractor per goroutine that repairs
// every reply, its results held across all its later calls (a value,
// list or text sharing its buffers would change).
func TestRepairResultsHeldStay(t *testing.T) {
	tests := []struct {
		name     string
		searcher func() searcher // one for each goroutine
	}{
		{name: "package functions", searcher: func() searcher { return packageFuncs{} }},
		{name: "Extractor", searcher: func() searcher { return new(extract.Extractor) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { testResultsHeldStay(t, tt.searcher) })
	}
}

func testResultsHeldStay(t *testing.T, newSearcher func() searcher) {
	n, sizes := 3000, []int{3000, 70000}
	if testing.Short() || shared.Race {
		// The race detector slows repair seven-fold: fewer and shorter
		// replies (still filling several of the fix log's chunks), still in
		// goroutines.
		n, sizes = 300, []int{3000}
	}
	ins := heldInputs(t, n, sizes)
	const workers = 3
	got := make([][]heldResult, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			s := newSearcher()
			res := make([]heldResult, len(ins))
			for k := range ins {
				i := (k + w*len(ins)/workers) % len(ins) // each its own order
				res[i] = heldRepairs(s, ins[i])
			}
			got[w] = res
		})
	}
	wg.Wait()
	for i, text := range ins {
		for w := range workers {
			r := got[w][i]
			require.Equal(t, r.text, heldText(r.all()), "input %d changed after later repairs", i)
			assert.Equal(t, got[0][i].text, r.text, "input %d: goroutines disagree", i)
			assert.Equal(t, got[0][i].shown, r.shown, "input %d: goroutines disagree", i)
			for _, c := range r.all() {
				for _, f := range c.Fixes {
					require.LessOrEqual(t, f.Offset+len(f.Before), len(text), "input %d: %+v", i, f)
					require.Equal(t, text[f.Offset:f.Offset+len(f.Before)], f.Before, "input %d: %+v", i, f)
					// A detail is written from the fix's texts when the list
					// is made: a text a later repair of the same call wrote
					// over would no longer match it.
					if f.Kind == extract.FixPythonLiteral || f.Kind == extract.FixNonFinite {
						require.Equal(t, "replaced "+f.Before+" with "+f.After, f.Detail, "input %d: %+v", i, f)
					}
				}
			}
		}
	}
}
