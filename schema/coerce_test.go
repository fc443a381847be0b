package schema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

// decode decodes JSON with UseNumber, as the enforce loop does before
// coercing.
func decode(t testing.TB, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	return v
}

func encode(t testing.TB, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}

// TestCoerce checks each kind of coercion, each thing Coerce must never do,
// and ambiguity. want is the coerced value ("" when nothing may change);
// kinds are the coercions recorded, in order; valid says whether the
// result must then pass the schema.
func TestCoerce(t *testing.T) {
	const review = `{"type":"object","properties":{
		"severity":{"enum":["high","medium","low"]},
		"line":{"type":"integer"},
		"score":{"type":"number"},
		"blocking":{"type":"boolean"},
		"tags":{"type":"array","items":{"type":"string"}},
		"lines":{"type":"array","items":{"type":"integer"}},
		"note":{"type":"string"},
		"answerText":{"type":"string"},
		"meta":{"type":"object","properties":{"a":{"type":"integer"}}}
	},"required":["severity"]}`
	const answers = `{"type":"object","properties":{"answers":{"type":"array","items":{"type":"object",
		"properties":{"answer":{"type":"string"},"confidence":{"type":"integer"}},"required":["answer","confidence"]}}},"required":["answers"]}`
	tests := []struct {
		name   string
		schema string
		value  string
		opts   []schema.CoerceOption
		want   string
		kinds  []schema.CoercionKind
		paths  []string
	}{
		// Each kind.
		{name: "string to integer", schema: review, value: `{"severity":"high","line":"42"}`,
			want: `{"line":42,"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceStringToNumber}, paths: []string{"$.line"}},
		{name: "string with space to number", schema: review, value: `{"severity":"high","score":" 2.50 "}`,
			want: `{"score":2.50,"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceStringToNumber}},
		{name: "string 5.0 to integer 5", schema: review, value: `{"severity":"high","line":"5.0"}`,
			want: `{"line":5,"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceStringToNumber}},
		{name: "big integer keeps its digits", schema: `{"type":"integer"}`, value: `"123456789012345678901234567890"`,
			want: `123456789012345678901234567890`, kinds: []schema.CoercionKind{schema.CoerceStringToNumber}},
		{name: "string to boolean", schema: review, value: `{"severity":"high","blocking":"True"}`,
			want: `{"blocking":true,"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceStringToBoolean}},
		{name: "float with zero fraction to integer", schema: review, value: `{"severity":"high","line":5.0}`,
			want: `{"line":5,"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceFloatToInteger}},
		{name: "exponent to integer", schema: `{"type":"integer"}`, value: `5e2`, want: `500`, kinds: []schema.CoercionKind{schema.CoerceFloatToInteger}},
		{name: "enum case", schema: review, value: `{"severity":"High"}`,
			want: `{"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceEnumMatch}, paths: []string{"$.severity"}},
		{name: "enum separators and space", schema: `{"enum":["in_progress","done"]}`, value: `" In Progress "`,
			want: `"in_progress"`, kinds: []schema.CoercionKind{schema.CoerceEnumMatch}},
		{name: "const case", schema: `{"const":"ok"}`, value: `"OK"`, want: `"ok"`, kinds: []schema.CoercionKind{schema.CoerceEnumMatch}},
		{name: "key case", schema: review, value: `{"Severity":"high","LINE":3}`,
			want: `{"line":3,"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceKeyMatch, schema.CoerceKeyMatch}, paths: []string{"$.severity", "$.line"}},
		{name: "key separators", schema: review, value: `{"severity":"high","answer_text":"yes"}`,
			want: `{"answerText":"yes","severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceKeyMatch}},
		{name: "key renamed then its value coerced", schema: review, value: `{"severity":"high","Line":"7"}`,
			want: `{"line":7,"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceKeyMatch, schema.CoerceStringToNumber}},
		{name: "scalar to array", schema: review, value: `{"severity":"high","tags":"security"}`,
			want: `{"severity":"high","tags":["security"]}`, kinds: []schema.CoercionKind{schema.CoerceScalarToArray}},
		{name: "scalar string to array of integers", schema: review, value: `{"severity":"high","lines":"4"}`,
			want: `{"lines":[4],"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceScalarToArray, schema.CoerceStringToNumber}},
		{name: "bare root array", schema: `{"type":"object","properties":{"answers":{"type":"array","items":{"type":"string"}}},"required":["answers"]}`,
			value: `["a","b"]`, want: `{"answers":["a","b"]}`, kinds: []schema.CoercionKind{schema.CoerceWrapRoot}, paths: []string{"$"}},
		{name: "single-element array to its element", schema: review, value: `{"severity":["high"]}`,
			want: `{"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceUnwrapArray}},
		{name: "single-element array to a number", schema: review, value: `{"severity":"low","line":["9"]}`,
			want: `{"line":9,"severity":"low"}`, kinds: []schema.CoercionKind{schema.CoerceUnwrapArray, schema.CoerceStringToNumber}},
		{name: "null optional dropped", schema: review, value: `{"severity":"high","note":null}`,
			want: `{"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceDropNull}, paths: []string{"$.note"}},
		{name: "JSON in a string", schema: review, value: `{"severity":"high","meta":"{\"a\": \"1\"}"}`,
			want: `{"meta":{"a":1},"severity":"high"}`, kinds: []schema.CoercionKind{schema.CoerceParseString, schema.CoerceStringToNumber}},
		{name: "JSON array in a string", schema: review, value: `{"severity":"high","tags":"[\"a\",\"b\"]"}`,
			want: `{"severity":"high","tags":["a","b"]}`, kinds: []schema.CoercionKind{schema.CoerceParseString}},
		{name: "through $ref and allOf", schema: `{"$defs":{"n":{"type":"integer"}},"type":"object","allOf":[{"properties":{"n":{"$ref":"#/$defs/n"}}}]}`,
			value: `{"n":"3"}`, want: `{"n":3}`, kinds: []schema.CoercionKind{schema.CoerceStringToNumber}},
		{name: "array items", schema: `{"type":"array","items":{"type":"object","properties":{"sev":{"enum":["a","b"]}}}}`,
			value: `[{"sev":"a"},{"sev":"B"}]`, want: `[{"sev":"a"},{"sev":"b"}]`, kinds: []schema.CoercionKind{schema.CoerceEnumMatch}, paths: []string{"$[1].sev"}},
		{name: "one alternative takes the coerced value", schema: `{"anyOf":[{"type":"integer"},{"type":"array","items":{"type":"boolean"}}]}`,
			value: `"8"`, want: `8`, kinds: []schema.CoercionKind{schema.CoerceStringToNumber}},
		{name: "default when allowed", schema: `{"type":"object","properties":{"lang":{"type":"string","default":"en"}},"required":["lang"]}`,
			value: `{}`, opts: []schema.CoerceOption{schema.WithCoercions(schema.CoerceDefault)}, want: `{"lang":"en"}`, kinds: []schema.CoercionKind{schema.CoerceDefault}},

		// Never.
		{name: "never a number from prose", schema: review, value: `{"severity":"high","line":"5 apples"}`},
		{name: "never hexadecimal", schema: review, value: `{"severity":"high","line":"0x1F"}`},
		{name: "never NaN", schema: review, value: `{"severity":"high","score":"NaN"}`},
		{name: "never rounds a string", schema: review, value: `{"severity":"high","line":"3.5"}`},
		{name: "never rounds a number", schema: review, value: `{"severity":"high","line":3.5}`},
		{name: "never yes for true", schema: review, value: `{"severity":"high","blocking":"yes"}`},
		{name: "never fills a required property", schema: review, value: `{"line":1}`},
		{name: "never a default unless asked", schema: `{"type":"object","properties":{"lang":{"type":"string","default":"en"}},"required":["lang"]}`, value: `{}`},
		{name: "never clips a long string", schema: `{"type":"string","maxLength":3}`, value: `"abcdef"`},
		{name: "never drops a required null", schema: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, value: `{"a":null}`},
		{name: "never drops a null the schema takes", schema: `{"type":"object","properties":{"a":{"type":["string","null"]}}}`, value: `{"a":null}`},
		{name: "never renames when the exact key is there", schema: review, value: `{"severity":"high","Severity":"low"}`},
		{name: "never renames a declared property", schema: `{"type":"object","properties":{"ab":{"type":"string"},"a_b":{"type":"integer"}}}`, value: `{"a_b":1}`},
		{name: "never parses prose", schema: review, value: `{"severity":"high","meta":"a = 1"}`},
		{name: "never wraps a root with two required", schema: `{"type":"object","properties":{"a":{"type":"array"},"b":{"type":"string"}},"required":["a","b"]}`, value: `[1]`},
		{name: "never unwraps a longer array", schema: review, value: `{"severity":["high","low"]}`},
		{name: "never changes a valid value", schema: review, value: `{"severity":"high","line":5,"note":"x"}`},
		{name: "never coerces a string where a string fits", schema: `{"type":["string","integer"]}`, value: `"5"`},

		// Ambiguity.
		{name: "two enum members match", schema: `{"enum":["in-progress","in_progress"]}`, value: `"In Progress"`},
		{name: "two keys match", schema: review, value: `{"SEVERITY":"high","Severity":"low"}`},
		{name: "two properties one loose form", schema: `{"type":"object","properties":{"a_b":{"type":"string"},"aB":{"type":"string"}},"required":["a_b"]}`, value: `{"AB":"x"}`},
		{name: "two alternatives, two readings", schema: `{"anyOf":[{"type":"integer"},{"type":"array"}]}`, value: `"8"`},
		{name: "two alternatives take different values", schema: `{"anyOf":[{"type":"integer"},{"type":"boolean"},{"type":"array","items":{"type":"string"}}]}`, value: `"true"`},
		{name: "number or array, both readings fit", schema: `{"type":["number","array"],"items":{"type":"string"}}`, value: `"8"`},
		{name: "unwrap or wrap root, both fit", schema: `{"type":"object","properties":{"xs":{"type":"array"}},"required":["xs"]}`, value: `[{"xs":[1]}]`},

		// Readings that conflict, settled by which one makes the value fit.
		{name: "one-element root array wrapped, not unwrapped", schema: answers,
			value: `[{"answer":"x","confidence":4}]`, want: `{"answers":[{"answer":"x","confidence":4}]}`,
			kinds: []schema.CoercionKind{schema.CoerceWrapRoot}, paths: []string{"$"}},
		{name: "one-element root array wrapped, then its keys matched", schema: answers,
			value: `[{"Answer":"x","Confidence":"4"}]`, want: `{"answers":[{"answer":"x","confidence":4}]}`,
			kinds: []schema.CoercionKind{schema.CoerceWrapRoot, schema.CoerceKeyMatch, schema.CoerceKeyMatch, schema.CoerceStringToNumber},
			paths: []string{"$", "$.answers[0].answer", "$.answers[0].confidence", "$.answers[0].confidence"}},
		{name: "one-element root array unwrapped, not wrapped", schema: `{"type":"object","properties":{"xs":{"type":"array","items":{"type":"integer"}}},"required":["xs"]}`,
			value: `[{"xs":[1]}]`, want: `{"xs":[1]}`, kinds: []schema.CoercionKind{schema.CoerceUnwrapArray}},
		{name: "a string holding an array is that array, not its one item", schema: review, value: `{"severity":"high","tags":"[\"a\"]"}`,
			want: `{"severity":"high","tags":["a"]}`, kinds: []schema.CoercionKind{schema.CoerceParseString}},
		{name: "string read as the number that fits, not wrapped", schema: `{"type":["integer","array"],"items":{"type":"boolean"}}`, value: `"8"`,
			want: `8`, kinds: []schema.CoercionKind{schema.CoerceStringToNumber}},
		{name: "string wrapped where the number does not fit", schema: `{"type":["integer","array"],"minimum":10,"items":{"type":"string"}}`, value: `"8"`,
			want: `["8"]`, kinds: []schema.CoercionKind{schema.CoerceScalarToArray}},
		{name: "policy forbids the kind", schema: review, value: `{"severity":"high","line":"4"}`,
			opts: []schema.CoerceOption{schema.WithCoercions(schema.CoerceEnumMatch)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			in := decode(t, tt.value)
			before := encode(t, in)
			got, cs, err := s.Coerce(in, tt.opts...)
			require.NoError(t, err)
			assert.Equal(t, before, encode(t, in), "Coerce modified its input")
			if tt.want == "" {
				assert.Empty(t, cs, "no coercion may apply")
				assert.Equal(t, before, encode(t, got))
				return
			}
			assert.Equal(t, tt.want, encode(t, got))
			var kinds []schema.CoercionKind
			for _, c := range cs {
				kinds = append(kinds, c.Kind)
			}
			assert.Equal(t, tt.kinds, kinds, "%v", cs)
			for i, p := range tt.paths {
				if assert.Less(t, i, len(cs)) {
					assert.Equal(t, p, cs[i].Path)
				}
			}
			plain := decode(t, tt.want)
			data, _ := json.Marshal(plain)
			vs, err := s.ValidateJSON(data)
			require.NoError(t, err)
			assert.Empty(t, vs, "the coerced value is valid")
		})
	}
}

// TestCoercionRecord checks what a Coercion says.
func TestCoercionRecord(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer"}}}}}}`))
	require.NoError(t, err)
	_, cs, err := s.Coerce(decode(t, `{"items":[{"n":1},{"n":" 2 "}]}`))
	require.NoError(t, err)
	require.Len(t, cs, 1)
	assert.Equal(t, schema.Coercion{Path: "$.items[1].n", Pointer: "/items/1/n", Kind: schema.CoerceStringToNumber, Before: `" 2 "`, After: `2`}, cs[0])
	assert.Equal(t, `$.items[1].n: string_to_number " 2 " -> 2`, cs[0].String())
}

func TestCoerceOptions(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"integer"}`))
	require.NoError(t, err)
	_, _, err = s.Coerce("1", schema.WithCoercions("round"))
	assert.ErrorIs(t, err, schema.ErrInvalidOption)
	_, _, err = s.Coerce(nil, nil)
	assert.ErrorIs(t, err, schema.ErrInvalidOption)
	got, cs, err := s.Coerce("1", schema.WithCoercions())
	require.NoError(t, err)
	assert.Empty(t, cs)
	assert.Equal(t, "1", got)
	_, _, err = s.Coerce(make(chan int))
	assert.ErrorIs(t, err, schema.ErrNotJSON)
	// Go values are taken through JSON.
	got, cs, err = s.Coerce(struct{ A string }{"x"})
	require.NoError(t, err)
	assert.Empty(t, cs)
	assert.Equal(t, struct{ A string }{"x"}, got, "v itself when nothing changed")
	assert.NotContains(t, schema.DefaultCoercions(), schema.CoerceDefault)
}

func FuzzCoerce(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"enum":["x","y"]}},"required":["a"]}`, `{"A":"5","b":"X"}`)
	f.Add(`{"anyOf":[{"type":"integer"},{"type":"array","items":{"type":"boolean"}}]}`, `"true"`)
	f.Add(`{"type":"object","properties":{"r":{"type":"array"}},"required":["r"]}`, `[[["1"]]]`)
	f.Add(`{"$defs":{"t":{"type":"object","properties":{"c":{"$ref":"#/$defs/t"}}}},"$ref":"#/$defs/t"}`, `{"c":"{\"c\":\"{}\"}"}`)
	f.Fuzz(func(t *testing.T, schemaText, value string) {
		s, err := schema.Parse([]byte(schemaText))
		if err != nil {
			return
		}
		dec := json.NewDecoder(strings.NewReader(value))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		before, _ := json.Marshal(v)
		got, cs, err := s.Coerce(v, schema.WithCoercions(schema.DefaultCoercions()...))
		if err != nil {
			t.Fatalf("Coerce: %v", err)
		}
		after, _ := json.Marshal(v)
		if string(before) != string(after) {
			t.Fatalf("Coerce modified its input: %s -> %s", before, after)
		}
		out, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("the result does not encode: %v", err)
		}
		if len(cs) == 0 && string(out) != string(before) {
			t.Fatalf("no coercion recorded but the value changed: %s -> %s", before, out)
		}
	})
}

// TestCoerceDraft7RefHidesSiblings: under draft-07 the keywords beside a
// $ref are ignored by validation, so coercion ignores them too: the
// property "Name" beside the $ref does not make "NAME" ambiguous.
func TestCoerceDraft7RefHidesSiblings(t *testing.T) {
	s, err := schema.Parse([]byte(`{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"definitions": {"o": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}},
		"properties": {"a": {"$ref": "#/definitions/o", "properties": {"Name": {"type": "integer"}}}}
	}`))
	require.NoError(t, err)
	got, cs, err := s.Coerce(decode(t, `{"a": {"NAME": "x"}}`))
	require.NoError(t, err)
	assert.Equal(t, `{"a":{"name":"x"}}`, encode(t, got))
	require.Len(t, cs, 1)
	assert.Equal(t, schema.CoerceKeyMatch, cs[0].Kind)
	assert.Empty(t, s.Validate(decode(t, encode(t, got))))
}

// TestCoerceRespellsOnlyUnderOneAlternative: a value one alternative takes
// as written is respelt as that alternative would (5.0 as 5 where an
// integer is wanted); one that several take is left as written.
func TestCoerceRespellsOnlyUnderOneAlternative(t *testing.T) {
	one, err := schema.Parse([]byte(`{"anyOf": [{"type": "integer"}, {"type": "string"}]}`))
	require.NoError(t, err)
	got, cs, err := one.Coerce(decode(t, `5.0`))
	require.NoError(t, err)
	assert.Equal(t, `5`, encode(t, got))
	require.Len(t, cs, 1)
	assert.Equal(t, schema.CoerceFloatToInteger, cs[0].Kind)

	two, err := schema.Parse([]byte(`{"anyOf": [{"type": "integer"}, {"type": "number"}]}`))
	require.NoError(t, err)
	got, cs, err = two.Coerce(decode(t, `5.0`))
	require.NoError(t, err)
	assert.Equal(t, `5.0`, encode(t, got))
	assert.Empty(t, cs)
}
