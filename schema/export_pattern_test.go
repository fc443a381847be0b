package schema

import "regexp"

// PatternMatch reports whether s matches the pattern src as the fast path
// matches it, and whether it used its own steps rather than regexp.
func PatternMatch(src, s string) (matched, simple bool) {
	p := newPattern(regexp.MustCompile(src))
	return match(p, s), p.steps != nil
}
