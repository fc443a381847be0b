package schema_test

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/schema"
)

// patterns are patterns as schemas write them: simple ones, matched by
// steps, and others, left to regexp.
var patterns = []struct {
	src    string
	simple bool
}{
	{`^[A-Z]{3}-[0-9]{4}$`, true},
	{`^[a-zA-Z0-9_-]+$`, true},
	{`^\d{4}-\d{2}-\d{2}$`, true},
	{`^v\d+\.\d+\.\d+$`, true},
	{`^[a-z]{2,8}`, true},
	{`^x?yz+$`, true},
	{`^x?y*z+$`, false}, // a step that may take nothing before another that may not
	{`^.{1,5}$`, true},
	{`^é+ü$`, true},
	{`^$`, false},
	{`^[a-z]*[a-z0-9]$`, false}, // the first step would take what the second needs
	{`^a*a$`, false},
	{`^a?b?$`, false},
	{`[A-Z]+`, false}, // found anywhere
	{`^(ab)+$`, false},
	{`^a|b$`, false},
	{`(?i)^abc$`, false},
	{`^a*?b$`, false},
}

func TestPatternSteps(t *testing.T) {
	inputs := []string{"", "ABC-1234", "ABC-12345", "abc-1234", "a", "ab_-9", "2024-01-31", "2024-1-31", "v1.22.333", "v1.2",
		"abcdefghij", "A", "yz", "xyyz", "xz", "x", "z", "hello", "\n", "ab\ncd", "ééü", "ü", "é\xffü", "\xff", "aa", "b", "ab", "abab"}
	for _, p := range patterns {
		re := regexp.MustCompile(p.src)
		for _, in := range inputs {
			got, simple := schema.PatternMatch(p.src, in)
			assert.Equal(t, p.simple, simple, "%s: matched by steps", p.src)
			assert.Equal(t, re.MatchString(in), got, "%s on %q", p.src, in)
		}
	}
}

// FuzzPattern holds the steps of a simple pattern to regexp, on any input.
func FuzzPattern(f *testing.F) {
	f.Add(0, "ABC-1234")
	f.Add(4, "ab")
	f.Add(6, "xyz")
	f.Add(7, "é\xff")
	f.Fuzz(func(t *testing.T, i int, s string) {
		p := patterns[(i%len(patterns)+len(patterns))%len(patterns)]
		got, _ := schema.PatternMatch(p.src, s)
		assert.Equal(t, regexp.MustCompile(p.src).MatchString(s), got, "%s on %q", p.src, s)
	})
}
