package extract

import "strings"

// An attempt is one place the scan tried to read a value: a '{' or '[' in
// prose and how far valid JSON reached from it.
type attempt struct {
	start int
	end   int  // just past the value when ok; else where parsing stopped
	ok    bool // a complete, valid value
}

// opener marks the bytes that may start a scanned value (a read-only table).
var opener = func() (t [256]bool) {
	t['{'] = true
	t['['] = true
	return t
}()

// scan finds values in text[seg.start:seg.end] in one pass and hands every
// attempt to visit, in order, until visit returns false. It reports whether
// it read the whole segment.
//
// From each '{' (and '[' unless objectsOnly) it reads one JSON value with the
// validator, which knows strings, so braces inside them cannot derail it. A
// value that parses is taken whole and the scan goes on after it. A value that
// does not parse is an attempt that stopped at some byte; the scan goes on
// from that byte, so values that begin inside the broken one (its fragments)
// are not candidates, and no byte is read twice: the scan is linear.
func (v *validator) scan(text string, seg span, objectsOnly bool, visit func(attempt) bool) bool {
	s := text[:seg.end]
	pos := seg.start
	// The next '{' and '[' at or after pos, each found by a search of the
	// bytes at once and searched for again only once pos has passed it,
	// so that the bytes between values are skipped at the search's pace
	// and none is searched twice for either.
	brace, bracket := -1, -1
	for pos < seg.end {
		if brace < pos {
			brace = indexByteFrom(s, pos, '{')
		}
		next := brace
		if !objectsOnly {
			if bracket < pos {
				bracket = indexByteFrom(s, pos, '[')
			}
			next = min(next, bracket)
		}
		if next == len(s) {
			break
		}
		pos = next
		end, ok := v.value(s, pos)
		if !visit(attempt{start: pos, end: end, ok: ok}) {
			return false
		}
		if end <= pos {
			end = pos + 1
		}
		pos = end
	}
	return true
}

// indexByteFrom returns the offset of the first c in s at or after from,
// or len(s).
func indexByteFrom(s string, from int, c byte) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}
