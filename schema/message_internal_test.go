package schema

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReprThen holds reprThen, which writes a string's rendering and the
// text after it in one allocation, to repr followed by that text, over
// generated strings (quotes, backslashes, control characters, characters
// of several bytes, bytes that are not UTF-8, lengths about the cut) and
// values of other kinds.
func TestReprThen(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	pieces := []string{"a", "'", "\\", "\n", "\r", "\t", "\x01", "é", "漢", "🙂", "\xff", " ", "z"}
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(4 * maxQuoted) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		rest := []string{" is not one of ", "'a', 'b'"}[:rng.IntN(3)]
		require.Equal(t, repr(s)+strings.Join(rest, ""), reprThen(s, rest...), "%q", s)
	}
	for _, v := range []any{nil, true, 2.5, []any{"x", 1.0}, map[string]any{"k": "v"}} {
		require.Equal(t, repr(v)+" tail", reprThen(v, " tail"))
	}
	require.Equal(t, `'it\'s'`, quote("it's", maxQuoted))
	require.Equal(t, "'"+strings.Repeat("x", maxQuoted)+"…'", quote(strings.Repeat("x", maxQuoted+1), maxQuoted))
}
