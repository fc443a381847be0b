package golden

import (
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestCheckReportsMismatch(t *testing.T) {
	r := &recorder{TB: t}
	Check(r, "sample", "a golden file\nwith a line more\n")
	require.Len(t, r.errors, 1)
	assert.Contains(t, r.errors[0], "testdata/sample.golden differs")
	assert.Contains(t, r.errors[0], "line 2:\n  want: \"\"\n  got:  \"with a line more\"")
}
