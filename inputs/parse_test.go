package inputs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/inputs"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name   string
		text   string
		params map[string]string
		prompt string
	}{
		{"no block", "Hello", map[string]string{}, "Hello"},
		{"empty text", "", map[string]string{}, ""},
		{"tag without newline is a prompt", "<inputs>", map[string]string{}, "<inputs>"},
		{"indented tag is a prompt", " <inputs>\na: b\n</inputs>\n\nP", map[string]string{}, " <inputs>\na: b\n</inputs>\n\nP"},
		{"design block", "<inputs>\ntopic: AI Safety\nformat: summary\nmax_words: 200\n</inputs>\n\nCreate content about this topic.",
			map[string]string{"topic": "AI Safety", "format": "summary", "max_words": "200"}, "Create content about this topic."},
		{"empty block", "<inputs>\n</inputs>\n\n<inputs>\nx", map[string]string{}, "<inputs>\nx"},
		{"multi-line", "<inputs>\nv:\n  a\n  \n  b\nw: 1\n</inputs>\n\nP", map[string]string{"v": "a\n\nb", "w": "1"}, "P"},
		{"empty value", "<inputs>\nv: \n</inputs>\n\nP", map[string]string{"v": ""}, "P"},
		{"trailing space stripped by a tool", "<inputs>\nv:\n</inputs>\n\nP", map[string]string{"v": ""}, "P"},
		{"value with colons and spaces", "<inputs>\nv:  a: b \n</inputs>\n\nP", map[string]string{"v": " a: b "}, "P"},
		{"escaped tags undone", "<inputs>\nv: <\\/inputs> <\\\\inputs>\n</inputs>\n\nP", map[string]string{"v": "</inputs> <\\inputs>"}, "P"},
		{"JSON text left as written", "<inputs>\nv: [\"\\u003c/inputs>\"]\n</inputs>\n\nP", map[string]string{"v": `["\u003c/inputs>"]`}, "P"},
		{"prompt with its own block", "<inputs>\na: b\n</inputs>\n\n</inputs>\n\n<inputs>\nc: d\n</inputs>",
			map[string]string{"a": "b"}, "</inputs>\n\n<inputs>\nc: d\n</inputs>"},
		{"CR kept in a single-line value", "<inputs>\nv: a\rb\n</inputs>\n\nP", map[string]string{"v": "a\rb"}, "P"},
		{"CR breaks indented", "<inputs>\nv:\n  a\r  b\r\n  c\r  \n</inputs>\n\nP", map[string]string{"v": "a\rb\r\nc\r"}, "P"},
		{"unicode key", "<inputs>\ngröße_2: x\n</inputs>\n\nP", map[string]string{"größe_2": "x"}, "P"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			params, prompt, err := inputs.Parse(tc.text)
			require.NoError(t, err)
			assert.Equal(t, tc.params, params)
			assert.Equal(t, tc.prompt, prompt)
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name string
		text string
		line int
		is   error // nil: only a *SyntaxError
	}{
		{"unterminated", "<inputs>\na: b\n", 3, nil},
		{"unterminated multi-line", "<inputs>\na:\n  b", 3, nil},
		{"no empty line after the block", "<inputs>\na: b\n</inputs>\nP", 4, nil},
		{"block at the very end", "<inputs>\na: b\n</inputs>", 3, nil},
		{"line without a colon", "<inputs>\nhello\n</inputs>\n\nP", 2, nil},
		{"no space after the colon", "<inputs>\na:b\n</inputs>\n\nP", 2, nil},
		{"stray indented line", "<inputs>\n  a: b\n</inputs>\n\nP", 2, nil},
		{"invalid key", "<inputs>\na b: c\n</inputs>\n\nP", 2, inputs.ErrInvalidKey},
		{"duplicate key", "<inputs>\na: 1\nb: 2\na: 3\n</inputs>\n\nP", 4, inputs.ErrDuplicateKey},
		{"CR without indentation", "<inputs>\nv:\n  a\rb\n</inputs>\n\nP", 2, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			params, prompt, err := inputs.Parse(tc.text)
			var se *inputs.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.line, se.Line)
			if tc.is != nil {
				assert.ErrorIs(t, err, tc.is)
				var ke *inputs.KeyError
				assert.ErrorAs(t, err, &ke)
			}
			assert.Nil(t, params)
			assert.Empty(t, prompt)
			assert.Regexp(t, `^inputs: line \d+: [a-z"]`, err.Error())
		})
	}
}
