package golden

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFirstDiff(t *testing.T) {
	tests := []struct {
		name, want, got, diff string
	}{
		{"changed line", "a\nb\nc", "a\nx\nc", "line 2:\n  want: \"b\"\n  got:  \"x\""},
		{"missing line", "a\nb", "a", "line 2:\n  want: \"b\"\n  got:  (end of text)"},
		{"extra line", "a", "a\nb", "line 2:\n  want: (end of text)\n  got:  \"b\""},
		{"equal", "a", "a", "(no line differs)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.diff, firstDiff(tt.want, tt.got))
		})
	}
}

func TestCheckMatches(t *testing.T) {
	Check(t, "sample", "a golden file\n")
}

func TestCheckOutput(t *testing.T) {
	CheckOutput(t, "sample", func(w io.Writer) error {
		_, err := io.WriteString(w, "a golden file\n")
		return err
	})
}
