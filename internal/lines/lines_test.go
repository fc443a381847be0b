package lines_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/lines"
)

// readAll returns the lines r gives and the error that ended them.
func readAll(r *lines.Reader) ([]string, error) {
	var out []string
	for {
		line, err := r.Next()
		if line != nil {
			out = append(out, string(line))
		}
		if err != nil {
			return out, err
		}
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		max   int
		want  []string
		err   error
		oneBy bool // read the input one byte at a time
	}{
		{name: "lf", in: "a\nbc\n", max: 10, want: []string{"a", "bc"}, err: io.EOF},
		{name: "crlf and empty lines", in: "a\r\n\r\nb\r\n", max: 10, want: []string{"a", "", "b"}, err: io.EOF},
		{name: "last line without end", in: "a\nb", max: 10, want: []string{"a", "b"}, err: io.EOF},
		{name: "empty", in: "", max: 10, err: io.EOF},
		{name: "at the limit", in: "abcd\r\nabcd", max: 4, want: []string{"abcd", "abcd"}, err: io.EOF},
		{name: "past the limit", in: "ab\nabcde\nx\n", max: 4, want: []string{"ab"}, err: lines.ErrTooLong},
		{name: "last line past the limit", in: "abcde", max: 4, err: lines.ErrTooLong},
		{name: "endless line", in: strings.Repeat("x", 1<<20), max: 64 << 10, err: lines.ErrTooLong},
		{name: "one byte at a time", in: "ab\r\ncd\n", max: 2, want: []string{"ab", "cd"}, err: io.EOF, oneBy: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in io.Reader = strings.NewReader(tt.in)
			if tt.oneBy {
				in = iotest.OneByteReader(in)
			}
			got, err := readAll(lines.NewReader(in, tt.max))
			assert.Equal(t, tt.want, got)
			assert.ErrorIs(t, err, tt.err)
		})
	}
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	r := lines.NewReader(io.MultiReader(strings.NewReader("a\nhalf"), iotest.ErrReader(boom)), 10)
	got, err := readAll(r)
	assert.Equal(t, []string{"a"}, got, "the part of a line read before the error is dropped")
	require.ErrorIs(t, err, boom)
	_, err = r.Next()
	assert.ErrorIs(t, err, boom, "the error is sticky")
}

// FuzzReader checks that the lines read, joined by \n, give back the input
// with its \r\n ends as \n, and that no line is longer than the limit.
func FuzzReader(f *testing.F) {
	f.Add("a\nb\r\n\r\nc", 3)
	f.Add("\r\r\n\n", 1)
	f.Add(strings.Repeat("y", 5000)+"\n", 4096)
	f.Fuzz(func(t *testing.T, in string, max int) {
		if max < 0 || max > 1<<16 {
			return
		}
		got, err := readAll(lines.NewReader(strings.NewReader(in), max))
		for _, l := range got {
			if len(l) > max {
				t.Fatalf("line of %d bytes past the limit %d", len(l), max)
			}
		}
		if errors.Is(err, lines.ErrTooLong) {
			return
		}
		if err != io.EOF {
			t.Fatalf("error %v, want io.EOF", err)
		}
		want := strings.ReplaceAll(strings.TrimSuffix(strings.TrimSuffix(in, "\n"), "\r"), "\r\n", "\n")
		if strings.Join(got, "\n") != want {
			t.Fatalf("lines %q of %q", got, in)
		}
	})
}
