package jsonraw_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/jsonraw"
)

// decoderMembers is the reference: the members of the object in data as
// encoding/json's Decoder reads them, token by token.
func decoderMembers(data []byte) ([]jsonraw.Member, bool) {
	if !json.Valid(data) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var members []jsonraw.Member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		members = append(members, jsonraw.Member{Key: tok.(string), Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return members, true
}

// FuzzMembers checks Members against encoding/json: it accepts exactly the
// objects json.Valid accepts, reads the keys and values the Decoder reads,
// and Encode writes them back to the same members.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a":1}`, ` {"b": [1, {"c": "}"}], "a": null} `, `{"a":1,"a":2}`,
		`{"\u00e9\ud83d\ude00\ud800":"\n"}`, "{\"a\xff\":1}", `[]`, `"x"`, `1`, `{"a":1} {}`, `{"a":}`, ``,
		`{"n":-0.5e-3,"t":true,"f":false}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, isObject := decoderMembers(data)
		got, err := jsonraw.Members(data)
		if !isObject {
			require.Error(t, err)
			assert.Nil(t, got)
			var se *jsonraw.SyntaxError
			assert.Equal(t, !json.Valid(data), errors.As(err, &se), "a SyntaxError exactly for invalid JSON")
			assert.Equal(t, json.Valid(data), errors.Is(err, jsonraw.ErrNotObject), "ErrNotObject exactly for other valid JSON")
			return
		}
		require.NoError(t, err)
		require.Equal(t, len(want), len(got))
		for i := range want {
			assert.Equal(t, want[i].Key, got[i].Key)
			assert.Equal(t, string(want[i].Value), string(got[i].Value))
		}
		again, err := jsonraw.Members(jsonraw.Encode(got))
		require.NoError(t, err)
		require.Equal(t, len(got), len(again))
		for i := range got {
			assert.Equal(t, got[i].Key, again[i].Key)
			assert.Equal(t, string(got[i].Value), string(again[i].Value))
		}
	})
}

// FuzzAppendString checks that what AppendString writes reads back with
// encoding/json as the string, invalid UTF-8 aside.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c\n", "<&>", "é\u2028😀", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw := jsonraw.AppendString(nil, s)
		var back string
		require.NoError(t, json.Unmarshal(raw, &back))
		assert.Equal(t, back, jsonraw.Unquote(raw), "Unquote reads it as encoding/json does")
		if utf8.ValidString(s) {
			assert.Equal(t, s, back)
		}
	})
}
