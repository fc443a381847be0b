package jsonraw_test

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/internal/jsonraw"
)

func TestUnquote(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want string
	}{
		{name: "empty", raw: `""`, want: ""},
		{name: "plain", raw: `"abc"`, want: "abc"},
		{name: "short escapes", raw: `"\"\\\/\b\f\n\r\t"`, want: "\"\\/\b\f\n\r\t"},
		{name: "unicode escape", raw: `"\u00e9\u00E9"`, want: "éé"},
		{name: "surrogate pair", raw: `"\ud83d\ude00"`, want: "😀"},
		{name: "lone high surrogate", raw: `"a\ud800b"`, want: "a\ufffdb"},
		{name: "lone low surrogate", raw: `"\udc00"`, want: "\ufffd"},
		{name: "high surrogate then escape", raw: `"\ud800\u0041"`, want: "\ufffdA"},
		{name: "invalid UTF-8", raw: "\"a\xffb\"", want: "a\ufffdb"},
		{name: "raw non-ASCII", raw: `"é😀"`, want: "é😀"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, jsonraw.Unquote([]byte(tt.raw)))
		})
	}
}

func TestDecodeRune(t *testing.T) {
	tests := []struct {
		name string
		s    string // the content of a JSON string, between its quotes
		want rune
		next int
	}{
		{name: "ASCII", s: "ab", want: 'a', next: 1},
		{name: "multi-byte", s: "éa", want: 'é', next: 2},
		{name: "short escape", s: `\nx`, want: '\n', next: 2},
		{name: "slash", s: `\/`, want: '/', next: 2},
		{name: "unicode escape", s: `\u0041`, want: 'A', next: 6},
		{name: "surrogate pair", s: `\ud83d\ude00`, want: '😀', next: 12},
		{name: "lone surrogate kept", s: `\ud800x`, want: 0xd800, next: 6},
		{name: "invalid UTF-8", s: "\xff", want: utf8.RuneError, next: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, next := jsonraw.DecodeRune([]byte(tt.s), 0)
			assert.Equal(t, tt.want, r)
			assert.Equal(t, tt.next, next)
		})
	}
}
