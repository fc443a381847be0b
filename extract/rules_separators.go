package extract

import (
	"strings"
)

// This file holds the repair rules of what stands between the items of
// a container besides blanks and brackets: commas and ... placeholders.

// ellipsis skips a "..." (or "…") placeholder at r.pos and reports whether
// there was one.
func (r *repairer) ellipsis() bool {
	switch r.text[r.pos] {
	case '.', "…"[0]:
		return r.ellipsisAt() // apart, so that the test is inlined
	}
	return false
}

// ellipsisAt is [repairer.ellipsis] at a byte that may start one.
func (r *repairer) ellipsisAt() bool {
	rest := r.text[r.pos:]
	n := 0
	switch {
	case strings.HasPrefix(rest, "..."):
		n = 3
		for n < len(rest) && rest[n] == '.' {
			n++
		}
	case strings.HasPrefix(rest, "…"):
		n = len("…")
	default:
		return false
	}
	r.fix(noteEllipsis, r.pos, rest[:n], "")
	r.pos += n
	return true
}
