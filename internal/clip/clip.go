package clip

import "unicode/utf8"

// Head returns the longest prefix of s of at most max bytes that ends on a
// rune boundary, and whether anything was cut. A negative max is 0.
func Head(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	i := max
	if i < 0 {
		i = 0
	}
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i], true
}

// Tail returns the longest suffix of s of at most max bytes that starts on
// a rune boundary, and whether anything was cut. A negative max is 0.
func Tail(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	i := len(s) - max
	if max < 0 {
		i = len(s)
	}
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:], true
}

// Ellipsis returns s cut to at most max bytes, as [Head] cuts it, with "…"
// added when anything was cut.
func Ellipsis(s string, max int) string {
	if head, cut := Head(s, max); cut {
		return head + "…"
	}
	return s
}
