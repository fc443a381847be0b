package schema_test

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/agentio/agentio/schema"
)

// TestPatternRandomAgainstRegexp generates anchored patterns of classes,
// escapes and quantifiers and holds the step matcher to regexp on strings
// of unicode and invalid UTF-8.
func TestPatternRandomAgainstRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	atoms := []string{"a", "b", "x", "é", "😀", `\d`, `\w`, `\s`, `\S`, `\D`, `\W`, `.`, `[a-z]`, `[^a-z]`, `[^\n]`, `\pL`, `\p{Greek}`, `\PL`, `[ab]`, `[^ab]`, `\.`, `-`, `\x{FFFD}`, `[\x{FFFD}a]`, `(?s:.)`, `\n`, `[[:alpha:]]`, `[^[:digit:]]`, `\x00`, `[\x00-\x7f]`, `[^\x00-\x7f]`}
	quants := []string{"", "", "+", "*", "?", "{2}", "{1,3}", "{0,2}", "{2,}", "{0}", "{1}", "+", "{3,3}"}
	alpha := []string{"a", "b", "x", "é", "😀", "1", "٣", " ", "\n", "\t", "\u00a0", "\xff", "\xc3", "\xed\xa0\x80", "\xf0\x9f\x98", "Α", ".", "-", "\x00", "\uFFFD", "Z", "_"}
	simple, mismatches := 0, 0
	for range 5000 {
		var b strings.Builder
		b.WriteString("^")
		for range 1 + rng.IntN(4) {
			b.WriteString(atoms[rng.IntN(len(atoms))])
			b.WriteString(quants[rng.IntN(len(quants))])
		}
		if rng.IntN(2) == 0 {
			b.WriteString([]string{"$", `\z`}[rng.IntN(2)])
		}
		src := b.String()
		re, err := regexp.Compile(src)
		if err != nil {
			continue
		}
		for range 30 {
			var s strings.Builder
			for range rng.IntN(7) {
				s.WriteString(alpha[rng.IntN(len(alpha))])
			}
			got, isSimple := schema.PatternMatch(src, s.String())
			if isSimple {
				simple++
			}
			if got != re.MatchString(s.String()) {
				mismatches++
				if mismatches < 20 {
					t.Errorf("%s on %q: steps %v, regexp %v", src, s.String(), got, !got)
				}
			}
		}
	}
	t.Logf("simple runs %d", simple)
}
