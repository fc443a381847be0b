package extract_test

import (
	"encoding/json"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
)

// generatedReplies returns replies of every shape repair meets: the fuzz
// seeds, the rule table's texts, and generated replies of broken values
// (quotes of every kind, missing or doubled; bare words; literals;
// truncation), with prefixes of some, as a reply cut off.
func generatedReplies(n int) []string {
	var base []string
	base = append(base, fuzzSeeds...)
	var cases []struct{ Text string }
	if b, err := os.ReadFile("testdata/repair_rules.json"); err == nil {
		_ = json.Unmarshal(b, &cases)
	}
	for _, c := range cases {
		base = append(base, c.Text)
	}
	rng := rand.New(rand.NewSource(41))
	words := []string{"alpha", "beta gamma", "it's", `say "hi"`, "a, b", "x: y", "C:\\Users\\me", "line\nbreak", "“smart”", "tab\there", "end]", "}", "{", "ok", "don't", "🙂", "1,000", ", c: 1", `\"q\"`, "`tick`"}
	keys := []string{`"name"`, `'name'`, `name`, `“name”`, `"a b"`, `"id"`, `"tags"`, `'desc'`}
	quotes := [][2]string{{`"`, `"`}, {`'`, `'`}, {"“", "”"}, {`"`, ``}, {"`", "`"}, {"‘", "’"}}
	var value func(d int) string
	value = func(d int) string {
		switch k := rng.Intn(10); {
		case k < 4 || d > 3:
			q := quotes[rng.Intn(len(quotes))]
			n := 1 + rng.Intn(3)
			var ws []string
			for range n {
				ws = append(ws, words[rng.Intn(len(words))])
			}
			return q[0] + strings.Join(ws, " ") + q[1]
		case k == 4:
			return []string{"True", "None", "1_000", "+1", ".5", "NaN", "2.", "-", "0789", "null", "12"}[rng.Intn(11)]
		case k < 7:
			var b strings.Builder
			b.WriteString("[")
			for i := range rng.Intn(5) {
				if i > 0 {
					b.WriteString([]string{", ", ",", " ", ",\n  "}[rng.Intn(4)])
				}
				b.WriteString(value(d + 1))
			}
			b.WriteString([]string{"]", ",]", "", "}"}[rng.Intn(4)])
			return b.String()
		default:
			var b strings.Builder
			b.WriteString("{")
			for i := range rng.Intn(5) {
				if i > 0 {
					b.WriteString([]string{", ", ",", "\n  ", ",\n  "}[rng.Intn(4)])
				}
				b.WriteString(keys[rng.Intn(len(keys))])
				b.WriteString([]string{": ", ":", " "}[rng.Intn(3)])
				b.WriteString(value(d + 1))
			}
			b.WriteString([]string{"}", ",}", "", "]"}[rng.Intn(4)])
			return b.String()
		}
	}
	for range n {
		var b strings.Builder
		if rng.Intn(2) == 0 {
			b.WriteString("Here is the result:\n")
		}
		fence := rng.Intn(3) == 0
		if fence {
			b.WriteString("```json\n")
		}
		for i := range 1 + rng.Intn(3) {
			if i > 0 {
				b.WriteString([]string{"\n\nAnd:\n", ", ", "\n"}[rng.Intn(3)])
			}
			b.WriteString(value(0))
		}
		if fence && rng.Intn(2) == 0 {
			b.WriteString("\n```")
		}
		base = append(base, b.String())
	}
	if n < 0 { // large replies
		n = -n
		var large []string
		for range n {
			var b strings.Builder
			b.WriteString("Here are the records:\n[")
			target := 20000 + rng.Intn(200000)
			for i := 0; b.Len() < target; i++ {
				if i > 0 {
					b.WriteString(",\n")
				}
				b.WriteString(value(1))
			}
			if rng.Intn(2) == 0 {
				b.WriteString("]\nDone.")
			}
			s := b.String()
			large = append(large, s, s[:len(s)*(50+rng.Intn(50))/100])
		}
		return large
	}
	// every prefix (a reply cut off) of some
	var out []string
	for i, s := range base {
		out = append(out, s)
		if i%3 == 0 || len(s) < 80 {
			for j := 1; j < len(s); j += 1 + len(s)/40 {
				out = append(out, s[:j])
			}
		}
	}
	return out
}

// TestRepairGeneratedReplies: every candidate of thousands of generated
// replies, under several option sets, is valid JSON whose fixes replaced
// the input's text at their offsets, and a second search of the same
// reply gives the same candidates (nothing remembered across repairs or
// searches changes the answer).
func TestRepairGeneratedReplies(t *testing.T) {
	accept := func(js json.RawMessage) bool { return !strings.Contains(string(js), ",\"") || len(js)%2 == 0 }
	optsets := [][]extract.Option{
		{extract.WithRepair()},
		{extract.WithRepair(), extract.WithAccept(accept)},
		{extract.WithRepair(), extract.WithoutRepairRule(extract.FixMissingQuote, extract.FixSingleQuote)},
		{extract.WithRepair(), extract.WithPreferLast(), extract.WithObjectsOnly()},
	}
	replies := generatedReplies(600)
	if testing.Short() {
		replies = replies[:len(replies)/4]
	}
	for _, text := range replies {
		for _, opts := range optsets {
			cs := extract.Candidates(text, opts...)
			checkCandidates(t, text, cs)
			want := snapshot(cs)
			require.Equal(t, want, extract.Candidates(text, opts...), "%q", text)
		}
	}
}
