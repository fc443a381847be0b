package enforce

import (
	"fmt"
	"unicode/utf8"
)

// cut returns s, or its first max bytes (at a rune boundary) followed by
// "…" when it is longer.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return s[:runeStart(s, max)] + "…"
}

// cutMiddle returns s, or when it is longer than max bytes its head (three
// quarters of max) and tail (one quarter) around a marker saying how many
// bytes were left out. Cuts fall on rune boundaries.
func cutMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head := runeStart(s, max*3/4)
	tail := runeStart(s, len(s)-max/4)
	return fmt.Sprintf("%s\n[... %d bytes cut ...]\n%s", s[:head], tail-head, s[tail:])
}

// runeStart returns the largest index <= i that starts a rune in s.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
