package jsonraw_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/jsonraw"
)

func TestEncode(t *testing.T) {
	tests := []struct {
		name    string
		members []jsonraw.Member
		want    string
	}{
		{name: "none", want: `{}`},
		{name: "order kept", members: []jsonraw.Member{m("b", "1"), m("a", `"x"`)}, want: `{"b":1,"a":"x"}`},
		{name: "values as given", members: []jsonraw.Member{m("a", "[ 1 , 2 ]"), m("n", "1.0")}, want: `{"a":[ 1 , 2 ],"n":1.0}`},
		{name: "duplicate keys written", members: []jsonraw.Member{m("a", "1"), m("a", "2")}, want: `{"a":1,"a":2}`},
		{name: "keys escaped", members: []jsonraw.Member{m("a\"b\n<&>", "1")}, want: `{"a\"b\n<&>":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(jsonraw.Encode(tt.members)))
		})
	}
}

func TestEncodeReadsBack(t *testing.T) {
	data := []byte(`{"z": {"y": [1, "}"]}, "a": null, "z": 2}`)
	members, err := jsonraw.Members(data)
	require.NoError(t, err)
	again, err := jsonraw.Members(jsonraw.Encode(members))
	require.NoError(t, err)
	assert.Equal(t, members, again)
}

func TestAppendString(t *testing.T) {
	tests := []struct {
		name string
		s    string
		want string
	}{
		{name: "empty", s: "", want: `""`},
		{name: "plain", s: "hello world", want: `"hello world"`},
		{name: "tags stay", s: "<inputs> & </inputs>", want: `"<inputs> & </inputs>"`},
		{name: "quote and backslash", s: `a"b\c`, want: `"a\"b\\c"`},
		{name: "control characters", s: "a\nb\tc\x01", want: `"a\nb\tc\u0001"`},
		{name: "non-ASCII as is", s: "é😀", want: `"é😀"`},
		{name: "line separators escaped", s: "a\u2028b", want: `"a\u2028b"`},
		{name: "invalid UTF-8", s: "a\xffb", want: `"a\ufffdb"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := jsonraw.AppendString([]byte("x:"), tt.s)
			assert.Equal(t, "x:"+tt.want, string(got))
		})
	}
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"plain", "a\"b", "tab\there", "\x7f", "é", "\u2029", "<>&"} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		var back string
		require.NoError(t, json.Unmarshal(jsonraw.AppendString(nil, s), &back))
		assert.Equal(t, s, back)
		if s != "<>&" {
			assert.Equal(t, string(want), string(jsonraw.AppendString(nil, s)), "same escapes as encoding/json for %q", s)
		}
	}
}
