package extract

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// validWhole reports whether the validator accepts all of s as one value.
func validWhole(s string) bool {
	var v validator
	end, ok := v.value(s, 0)
	return ok && end == len(s)
}

func TestValidatorAgreesWithEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{name: "literals", in: `[true, false, null]`},
		{name: "bad literal", in: `[tru]`},
		{name: "numbers", in: `[0, -0, 1.5, -2e10, 3E+2, 4e-2, 120]`},
		{name: "leading zero", in: `[01]`},
		{name: "bare minus", in: `[-]`},
		{name: "dot without digits", in: `[1.]`},
		{name: "exponent without digits", in: `[1e]`},
		{name: "plus sign", in: `[+1]`},
		{name: "escapes", in: `"\" \\ \/ \b \f \n \r \t \u00e9"`},
		{name: "bad escape", in: `"\x"`},
		{name: "short unicode escape", in: `"\u12"`},
		{name: "raw control character", in: "\"a\x01b\""},
		{name: "raw tab", in: "\"a\tb\""},
		{name: "invalid UTF-8 in a string", in: "\"\xff\xfe\""},
		{name: "nested", in: `{"a": [{"b": {}}, [], [[]]]}`},
		{name: "trailing comma", in: `{"a": 1,}`},
		{name: "missing colon", in: `{"a" 1}`},
		{name: "non-string key", in: `{1: 2}`},
		{name: "mismatched", in: `{"a": [1}`},
		{name: "unterminated", in: `{"a": "b`},
		{name: "empty containers", in: `[{}, [], {"": ""}]`},
		{name: "blanks inside", in: "{ \"a\" :\n[ 1 ,\t2 ] }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, json.Valid([]byte(tt.in)), validWhole(tt.in))
		})
	}
	for _, depth := range []int{maxDepth, maxDepth + 1} {
		in := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		assert.Equal(t, json.Valid([]byte(in)), validWhole(in), "depth %d", depth)
	}
}

func TestValidatorStopsWhereTheErrorIs(t *testing.T) {
	var v validator
	for in, want := range map[string]int{
		`{"a": 1,}`:   8,
		`[1, 2`:       5,
		`{"a" 1}`:     5,
		`["a` + "\n":  3,
		`{"a": tru}`:  9,
		`[1.x]`:       3,
		`{"a": "\q"}`: 8,
	} {
		end, ok := v.value(in, 0)
		assert.False(t, ok, in)
		assert.Equal(t, want, end, in)
	}
}

func FuzzValidator(f *testing.F) {
	for _, s := range []string{`{}`, `[1, "a", null]`, `{"a": -1.5e3}`, `"\u00e9"`, `[01]`, `{"a":}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || isSpace(s[0]) {
			return // the validator starts at a value; callers trim
		}
		var v validator
		end, ok := v.value(s, 0)
		if end < 0 || end > len(s) {
			t.Fatalf("end %d outside %d bytes", end, len(s))
		}
		trimmed := strings.TrimRight(s, " \t\r\n")
		if got, want := ok && end == len(trimmed), json.Valid([]byte(s)); got != want {
			t.Fatalf("validator says %v, encoding/json says %v, for %q", got, want, s)
		}
		if ok && !json.Valid([]byte(s[:end])) {
			t.Fatalf("accepted prefix %q is not valid JSON", s[:end])
		}
	})
}
