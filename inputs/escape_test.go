package inputs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTagAt(t *testing.T) {
	cases := []struct {
		s    string
		want bool
	}{
		{"<inputs>", true},
		{"</inputs>", true},
		{"</INPUTS>", true},
		{"<InPuTs>", true},
		{"<inputs", true},
		{"</inputs", true},
		{"<inputs >", true},
		{"<inputs\n>", true},
		{`<inputs a="b">`, true},
		{"<inputs/>", true},
		{`<\/inputs>`, true},
		{`<\\\inputs>`, true},
		{"<inputsé>", true},
		{"<inputs2>", false},
		{"<inputs_x>", false},
		{"<inputs-x>", false},
		{"<inputs:x>", false},
		{"<input>", false},
		{"< inputs>", false},
		{"<//inputs>", false},
		{"<", false},
		{"<\\", false},
		{"x", false},
		{"<inputſ>", false}, // only ASCII case folding
	}
	for _, tc := range cases {
		t.Run(tc.s, func(t *testing.T) {
			assert.Equal(t, tc.want, tagAt(tc.s, 0))
		})
	}
}

func TestEscapeTags(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"a < b", "a < b"},
		{"</inputs>", `<\/inputs>`},
		{"<inputs></inputs>", `<\inputs><\/inputs>`},
		{`<\/inputs>`, `<\\/inputs>`},
		{`<\\inputs`, `<\\\inputs`},
		{"<<inputs>", `<<\inputs>`},
		{"<inputs2>", "<inputs2>"},
		{`<\x`, `<\x`},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got := escapeTags(tc.in)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.in, unescapeTags(got))
		})
	}
}

func TestEscapeJSONTags(t *testing.T) {
	assert.Equal(t, `v: ["\u003c/inputs>", "a<b"]`, string(escapeJSONTags([]byte(`v: ["</inputs>", "a<b"]`), 3)))
	assert.Equal(t, `v: ["\u003c\\inputs>"]`, string(escapeJSONTags([]byte(`v: ["<\\inputs>"]`), 3)))
	assert.Equal(t, `<inputs>: [1]`, string(escapeJSONTags([]byte(`<inputs>: [1]`), 10)))
}

func TestIndentation(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a", "a"},
		{"a\nb", "a\n  b"},
		{"a\r\nb", "a\r\n  b"},
		{"a\rb", "a\r  b"},
		{"a\r", "a\r  "},
		{"\n\n", "\n  \n  "},
		{"a\u2028b\u2029c\u0085d", "a\u2028  b\u2029  c\u0085  d"},
		{"a\v\f\x1c\x1d\x1eb", "a\v  \f  \x1c  \x1d  \x1e  b"},
		{"\xc2", "\xc2"},
		{"\xe2\x80", "\xe2\x80"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got := string(appendIndented(nil, tc.in))
			assert.Equal(t, tc.want, got)
			back, ok := unindent(got)
			assert.True(t, ok)
			assert.Equal(t, tc.in, back)
		})
	}
	_, ok := unindent("a\nb")
	assert.False(t, ok)
}

func TestValidKey(t *testing.T) {
	for _, k := range []string{"a", "_", "_a1", "max_words", "a-b", "a.b", "größe", "名前", "नमस्ते"} {
		assert.True(t, validKey(k), k)
	}
	for _, k := range []string{"", "1a", "-a", ".a", "a b", "a:b", "a\nb", "a<b", "a\u200bb", "\xff", "a\xff", "\u0301a"} {
		assert.False(t, validKey(k), k)
	}
}

func TestExpandExponent(t *testing.T) {
	cases := []struct{ in, want string }{
		{"1e+21", "1000000000000000000000"},
		{"1.5e+21", "1500000000000000000000"},
		{"-2.25e+22", "-22500000000000000000000"},
		{"1.7976931348623157e+308", "17976931348623157" + strings.Repeat("0", 292)},
		{"0.5e+1", "5"},
		{"1.25e+1", "1.25e+1"}, // not integral: kept
		{"1e-7", "1e-7"},
		{"3e2", "3e2"},
		{"300", "300"},
		{"1e+999999", "1e+999999"}, // beyond float64: kept
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			assert.Equal(t, tc.want, string(expandExponent([]byte(tc.in))))
		})
	}
}
