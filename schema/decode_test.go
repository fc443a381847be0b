package schema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

// TestDecode checks Decode against json.Unmarshal followed by Validate,
// and its errors, on documents of every kind.
func TestDecode(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","required":["a"],"properties":{"a":{"type":"array","items":{"type":"integer"}},"b":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`))
	require.NoError(t, err)
	deep := strings.Repeat(`{"x":`, schema.DefaultMaxDepth+1) + "1" + strings.Repeat("}", schema.DefaultMaxDepth+1)
	for _, tc := range []struct {
		name, doc string
		err       error
	}{
		{"valid", `{"a":[1,2],"b":null}`, nil},
		{"invalid", `{"a":[1,"2"],"b":3}`, nil},
		{"missing", `{}`, nil},
		{"not an object", `[1]`, nil},
		{"escapes", `{"a":[],"b":"caf\u00e9 \"q\""}`, nil},
		{"repeated key", `{"a":"x","a":[1]}`, nil},
		{"repeated key, the last invalid", `{"a":[1],"a":"x"}`, nil},
		{"invalid, then more members", `{"b":4,"a":[1,{"c":[2]}],"d":{"e":[[]]}}`, nil},
		{"too deep", `{"a":[],"b":` + deep + `}`, nil},
		{"not JSON", `{"a":[1,]}`, schema.ErrNotJSON},
		{"trailing", `{"a":[]} {}`, schema.ErrNotJSON},
		{"number out of range", `{"a":[1e400]}`, schema.ErrNumberRange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, vs, err := s.Decode([]byte(tc.doc))
			sv, svs, serr := s.DecodeString(tc.doc)
			assert.Equal(t, v, sv, "DecodeString's value")
			assert.Equal(t, vs, svs, "DecodeString's violations")
			assert.Equal(t, err == nil, serr == nil, "DecodeString's error")
			if tc.err != nil {
				assert.ErrorIs(t, serr, tc.err)
				assert.ErrorIs(t, err, tc.err)
				assert.Nil(t, v)
				assert.Nil(t, vs)
				return
			}
			require.NoError(t, err)
			var want any
			require.NoError(t, json.Unmarshal([]byte(tc.doc), &want))
			assert.Equal(t, want, v)
			assert.Equal(t, s.Validate(want), vs)
			jvs, err := s.ValidateJSON([]byte(tc.doc))
			require.NoError(t, err)
			assert.Equal(t, vs, jvs)
		})
	}
	var nilSchema *schema.Schema
	v, vs, err := nilSchema.Decode([]byte(`[true]`))
	assert.NoError(t, err)
	assert.Empty(t, vs)
	assert.Equal(t, []any{true}, v)
	v, vs, err = nilSchema.DecodeString(`{"a":"b"}`)
	assert.NoError(t, err)
	assert.Empty(t, vs)
	assert.Equal(t, map[string]any{"a": "b"}, v)
	_, _, err = nilSchema.DecodeString(`{"a":`)
	assert.ErrorIs(t, err, schema.ErrNotJSON)
}
