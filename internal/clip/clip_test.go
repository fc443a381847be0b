package clip_test

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/internal/clip"
)

func TestHeadTail(t *testing.T) {
	tests := []struct {
		name, s    string
		max        int
		head, tail string
		cut        bool
	}{
		{name: "short", s: "abc", max: 5, head: "abc", tail: "abc"},
		{name: "exact", s: "abc", max: 3, head: "abc", tail: "abc"},
		{name: "ascii", s: "abcdef", max: 4, head: "abcd", tail: "cdef", cut: true},
		{name: "inside a rune", s: "aééb", max: 2, head: "a", tail: "b", cut: true},
		{name: "on a rune boundary", s: "aééb", max: 3, head: "aé", tail: "éb", cut: true},
		{name: "zero", s: "ab", max: 0, head: "", tail: "", cut: true},
		{name: "negative", s: "ab", max: -1, head: "", tail: "", cut: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, hcut := clip.Head(tt.s, tt.max)
			tl, tcut := clip.Tail(tt.s, tt.max)
			assert.Equal(t, tt.head, h)
			assert.Equal(t, tt.tail, tl)
			assert.Equal(t, tt.cut, hcut)
			assert.Equal(t, tt.cut, tcut)
		})
	}
}

func FuzzHeadTail(f *testing.F) {
	f.Add("aé😀b", 3)
	f.Fuzz(func(t *testing.T, s string, max int) {
		h, _ := clip.Head(s, max)
		tl, _ := clip.Tail(s, max)
		for _, part := range []string{h, tl} {
			if max >= 0 && len(part) > max && len(s) > max {
				t.Fatalf("%q is longer than %d", part, max)
			}
		}
		if len(s) > 0 && s[:len(h)] != h || s[len(s)-len(tl):] != tl {
			t.Fatalf("not a prefix/suffix: %q %q of %q", h, tl, s)
		}
		if utf8.ValidString(s) && (!utf8.ValidString(h) || !utf8.ValidString(tl)) {
			t.Fatalf("split a rune: %q %q of %q", h, tl, s)
		}
	})
}

func TestEllipsis(t *testing.T) {
	assert.Equal(t, "short", clip.Ellipsis("short", 5))
	assert.Equal(t, "sho…", clip.Ellipsis("short", 3))
	assert.Equal(t, "é…", clip.Ellipsis("éé", 3), "no character is split")
	assert.Equal(t, "…", clip.Ellipsis("abc", -1))
}
