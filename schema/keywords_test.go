package schema

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestStringLengthBounds holds minLength and maxLength to the count of
// characters utf8.RuneCountInString gives, over generated strings of
// one-, two-, three- and four-byte characters and bytes that are not
// UTF-8, and bounds on each side of their byte and character counts:
// the rule counts only when a bound falls between ⌈bytes/4⌉ and bytes.
func TestStringLengthBounds(t *testing.T) {
	pieces := []string{"a", "é", "€", "😀", "\xff", "\xe2\x82", " "}
	rng := rand.New(rand.NewPCG(38, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		chars := utf8.RuneCountInString(s)
		around := []int{0, 1, chars - 1, chars, chars + 1, len(s) - 1, len(s), len(s) + 1, (len(s) + 3) / 4, (len(s)+3)/4 - 1}
		lo, hi := around[rng.IntN(len(around))], around[rng.IntN(len(around))]
		n := &fastNode{strings: true}
		switch rng.IntN(3) {
		case 0:
			n.minLength = &lo
		case 1:
			n.maxLength = &hi
		default:
			n.minLength, n.maxLength = &lo, &hi
		}
		var want failure
		if n.minLength != nil && chars < lo {
			want |= failMinLength
		}
		if n.maxLength != nil && chars > hi {
			want |= failMaxLength
		}
		if !assert.Equal(t, want, stringFailures(n, s), "%q (%d characters, %d bytes), min %v max %v", s, chars, len(s), n.minLength != nil, n.maxLength != nil) {
			return
		}
		assert.Equal(t, want, stringFailures(n, []byte(s)), "%q as bytes", s)
	}
}
