package jsonvalue_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/jsonvalue"
)

// cases are documents the decoder must read as encoding/json does,
// including those it leaves to encoding/json.
var cases = []string{
	`null`, `true`, `false`, `0`, `-0`, `1.5e3`, `-12.25E-2`, `1e400`, `-`, `01`, `1.`, `.5`, `1e`, `1e+`,
	`""`, `"plain"`, `"caf\u00e9"`, `"tab\tand \"quote\""`, `"\ud83d\ude00"`, `"\ud83d"`, `"\udc00x"`, "\"bad \xff byte\"",
	"\"ctl \x01\"", `"\x"`, `"unterminated`, `"a\`,
	`{}`, `[]`, `{"a":1,"a":2}`, `{"a":{"b":[1,{"c":null}]}}`, ` [1 , 2 ,3 ] `, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`,
	`[1] x`, `[1][2]`, ``, `   `, `nul`, `truex`, `{"k\u0041":"v"}`, "{\"\xff\":1}",
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 50) + "1" + strings.Repeat("}", 50),
}

func TestDecodeAsEncodingJSON(t *testing.T) {
	for _, doc := range cases {
		t.Run(fmt.Sprintf("%.40q", doc), func(t *testing.T) { same(t, []byte(doc)) })
	}
}

func same(t *testing.T, data []byte) {
	t.Helper()
	var want any
	wantErr := json.Unmarshal(data, &want)
	got, err := jsonvalue.Decode(data)
	var d jsonvalue.Decoder
	fromString, serr := d.DecodeString(string(data))
	if wantErr != nil {
		require.Error(t, err, "%q", data)
		assert.Equal(t, wantErr.Error(), err.Error())
		assert.Nil(t, got)
		require.Error(t, serr, "%q", data)
		assert.Equal(t, wantErr.Error(), serr.Error())
		assert.Nil(t, fromString)
		return
	}
	require.NoError(t, err, "%q", data)
	assert.Equal(t, want, got, "%q", data)
	require.NoError(t, serr, "%q", data)
	assert.Equal(t, want, fromString, "%q (string)", data)
}

func TestDecoderReuse(t *testing.T) {
	var d jsonvalue.Decoder
	a, err := d.Decode([]byte(`{"x":[1,2,{"y":"z"}]}`))
	require.NoError(t, err)
	b, err := d.Decode([]byte(`[true,{"x":null}]`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"x": []any{1.0, 2.0, map[string]any{"y": "z"}}}, a)
	assert.Equal(t, []any{true, map[string]any{"x": nil}}, b)
}

func TestDeepest(t *testing.T) {
	for doc, want := range map[string]int{`1`: 0, `[]`: 1, `{"a":[1,{"b":{}}]}`: 4, `[[],[[]]]`: 3, `[1,]`: -1} {
		var d jsonvalue.Decoder
		d.Decode([]byte(doc))
		assert.Equal(t, want, d.Deepest(), doc)
	}
}

func TestDecodeDoesNotAlias(t *testing.T) {
	data := []byte(`{"k":"value"}`)
	v, err := jsonvalue.Decode(data)
	require.NoError(t, err)
	copy(data, `{"k":"XXXXX"}`)
	assert.Equal(t, map[string]any{"k": "value"}, v)
}

// TestDecodeInParts reads documents through the methods a caller that
// builds its own containers uses, and gets encoding/json's value: here
// every array and object is built by the test, and every scalar is
// decoded by the Decoder.
func TestDecodeInParts(t *testing.T) {
	for _, doc := range cases {
		sameInParts(t, doc)
	}
}

func sameInParts(t *testing.T, doc string) {
	t.Helper()
	var want any
	wantErr := json.Unmarshal([]byte(doc), &want)
	var d jsonvalue.Decoder
	d.Start(doc)
	got, err := inParts(&d)
	if ferr := d.Finish(); err == nil {
		err = ferr
	}
	switch {
	case wantErr != nil:
		assert.Error(t, err, "%q", doc)
	case err != nil:
		// Left to encoding/json: only what the whole decoder leaves to it
		// too (nesting beyond MaxDepth).
		_, derr := d.Decode([]byte(doc))
		require.NoError(t, derr, "%q", doc)
		assert.Equal(t, -1, d.Deepest(), "%q: read in parts, refused whole", doc)
	default:
		assert.Equal(t, want, got, "%q", doc)
	}
}

func inParts(d *jsonvalue.Decoder) (any, error) {
	switch d.Peek() {
	case '{':
		m := map[string]any{}
		empty, err := d.Open()
		for more := !empty; err == nil && more; {
			var k string
			if k, err = d.Key(); err != nil {
				break
			}
			if m[k], err = inParts(d); err != nil {
				break
			}
			more, err = d.Next('}')
		}
		return m, err
	case '[':
		a := []any{}
		empty, err := d.Open()
		for more := !empty; err == nil && more; {
			var v any
			if v, err = inParts(d); err != nil {
				break
			}
			a = append(a, v)
			more, err = d.Next(']')
		}
		return a, err
	}
	return d.Value()
}

func FuzzDecode(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		same(t, data)
		sameInParts(t, string(data))
	})
}

func BenchmarkDecode(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"findings":[`)
	for i := range 1500 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"severity":"minor","file":"internal/pkg%03d/file_%d.go","line":%d}`, i%997, i, i+1)
	}
	sb.WriteString(`],"summary":"many"}`)
	data := []byte(sb.String())
	b.Run("valid", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			json.Valid(data)
		}
	})
	b.Run("jsonvalue", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		var d jsonvalue.Decoder
		for b.Loop() {
			if _, err := d.Decode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
