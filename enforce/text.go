package enforce

import (
	"fmt"

	"github.com/agentio/agentio/internal/clip"
)

// cut returns s, or its first max bytes (at a rune boundary) followed by
// "…" when it is longer.
func cut(s string, max int) string {
	return clip.Ellipsis(s, max)
}

// cutMiddle returns s, or when it is longer than max bytes its head (three
// quarters of max) and tail (one quarter) around a marker saying how many
// bytes were left out. Cuts fall on rune boundaries.
func cutMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head, _ := clip.Head(s, max*3/4)
	tail, _ := clip.Tail(s, max/4)
	return fmt.Sprintf("%s\n[... %d bytes cut ...]\n%s", head, len(s)-len(head)-len(tail), tail)
}
