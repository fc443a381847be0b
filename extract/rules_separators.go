package extract

import (
	"strings"
)

// This file holds the repair rules of what stands between the items of
// a container besides blanks and brackets: commas and ... placeholders.

// comma reads a comma between the items of a container. One with no item
// before it, or after another, is dropped; otherwise *comma is set to its
// offset, for the next item or a closing bracket to settle.
func (r *repairer) comma(closer byte, count int, comma *int) (closed, applied bool) {
	if count == 0 || *comma >= 0 {
		noItem := noteCommaNoMember
		if closer == ']' {
			noItem = noteCommaNoElement
		}
		r.fix(noItem, r.pos, ",", "")
	} else {
		*comma = r.pos
	}
	r.pos++
	return false, true
}

// ellipsis drops a "..." (or "…") placeholder for omitted items at r.pos.
func (r *repairer) ellipsis(byte, int, *int) (closed, applied bool) {
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
		return false, false
	}
	r.fix(noteEllipsis, r.pos, rest[:n], "")
	r.pos += n
	return false, true
}
