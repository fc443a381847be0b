package jsonraw_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/jsonraw"
)

// m builds a member for the tables.
func m(key, value string) jsonraw.Member {
	return jsonraw.Member{Key: key, Value: json.RawMessage(value)}
}

func TestMembers(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []jsonraw.Member
	}{
		{name: "empty object", data: `{}`},
		{name: "empty object with space", data: " \t\r\n{ \n } \n"},
		{name: "one member", data: `{"a":1}`, want: []jsonraw.Member{m("a", "1")}},
		{name: "document order", data: `{"b":1,"a":2,"c":3}`, want: []jsonraw.Member{m("b", "1"), m("a", "2"), m("c", "3")}},
		{name: "white space around values", data: "{ \"a\" :\n 1 ,\t\"b\": \"x\" }", want: []jsonraw.Member{m("a", "1"), m("b", `"x"`)}},
		{name: "every kind of value", data: `{"s":"x","n":-1.5e+3,"t":true,"f":false,"z":null,"a":[1,[2]],"o":{"k":{}}}`,
			want: []jsonraw.Member{m("s", `"x"`), m("n", "-1.5e+3"), m("t", "true"), m("f", "false"), m("z", "null"), m("a", "[1,[2]]"), m("o", `{"k":{}}`)}},
		{name: "nested white space kept", data: `{"a": [ 1 , 2 ]}`, want: []jsonraw.Member{m("a", "[ 1 , 2 ]")}},
		{name: "brackets inside strings", data: `{"a":"}]","b":["{\"","]"],"c":1}`, want: []jsonraw.Member{m("a", `"}]"`), m("b", `["{\"","]"]`), m("c", "1")}},
		{name: "duplicate keys kept in place", data: `{"a":1,"b":2,"a":3}`, want: []jsonraw.Member{m("a", "1"), m("b", "2"), m("a", "3")}},
		{name: "escaped key", data: `{"a\nb":1,"\u00e9":2,"\"":3}`, want: []jsonraw.Member{m("a\nb", "1"), m("é", "2"), m(`"`, "3")}},
		{name: "surrogate pair key", data: `{"\ud83d\ude00":1}`, want: []jsonraw.Member{m("😀", "1")}},
		{name: "lone surrogate key", data: `{"\ud800":1}`, want: []jsonraw.Member{m("\ufffd", "1")}},
		{name: "invalid UTF-8 key", data: "{\"a\xffb\":1}", want: []jsonraw.Member{m("a\ufffdb", "1")}},
		{name: "empty key", data: `{"":0}`, want: []jsonraw.Member{m("", "0")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsonraw.Members([]byte(tt.data))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestMembersErrors(t *testing.T) {
	tests := []struct {
		name   string
		data   string
		reason string // the SyntaxError's Reason; "" for ErrNotObject
		offset int64  // the *json.SyntaxError's Offset
	}{
		{name: "empty", data: ``, reason: "unexpected end of JSON input"},
		{name: "only space", data: "  \n", reason: "unexpected end of JSON input", offset: 3},
		{name: "truncated", data: `{"a": `, reason: "unexpected end of JSON input", offset: 6},
		{name: "bad value", data: `{"a": x}`, reason: "invalid character 'x' looking for beginning of value", offset: 7},
		{name: "unquoted key", data: `{a: 1}`, reason: "invalid character 'a' looking for beginning of object key string", offset: 2},
		{name: "trailing comma", data: `{"a":1,}`, reason: "invalid character '}' looking for beginning of object key string", offset: 8},
		{name: "trailing object", data: `{"a":1} {}`, reason: "data after the top-level value", offset: 9},
		{name: "trailing text", data: `{} x`, reason: "data after the top-level value", offset: 4},
		{name: "bad escape", data: `{"\x":1}`, reason: `invalid character 'x' in string escape code`, offset: 4},
		{name: "array", data: `[{"a":1}]`},
		{name: "string", data: `"{}"`},
		{name: "number", data: ` 12 `},
		{name: "null", data: `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsonraw.Members([]byte(tt.data))
			require.Error(t, err)
			assert.Nil(t, got)
			if tt.reason == "" {
				assert.ErrorIs(t, err, jsonraw.ErrNotObject)
				return
			}
			assert.False(t, errors.Is(err, jsonraw.ErrNotObject))
			var se *jsonraw.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.reason, se.Reason)
			assert.Equal(t, "jsonraw: invalid JSON: "+tt.reason, err.Error())
			var jse *json.SyntaxError
			require.ErrorAs(t, err, &jse, "encoding/json's error is the cause")
			assert.Equal(t, tt.offset, jse.Offset)
		})
	}
}

func TestMembersDoesNotShareCapacity(t *testing.T) {
	data := []byte(`{"a":1,"b":2}`)
	got, err := jsonraw.Members(data)
	require.NoError(t, err)
	require.Len(t, got, 2)
	_ = append(got[0].Value, '9')
	assert.Equal(t, `{"a":1,"b":2}`, string(data), "appending to a value copies it")
}
