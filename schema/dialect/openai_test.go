package dialect_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/shared"
	"github.com/agentio/agentio/schema"
	"github.com/agentio/agentio/schema/dialect"
)

func TestConvertOpenAI(t *testing.T) {
	tests := []struct {
		name    string
		schema  string
		want    string               // the converted schema, minified
		strict  bool                 // want Strict
		wrapped bool                 // want Wrapped
		kinds   []dialect.ChangeKind // change kinds that must appear
	}{
		{
			name:   "closed object keeps key order",
			schema: `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}},"required":["b","a"]}`,
			want:   `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}},"required":["b","a"],"additionalProperties":false}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeClosedObject},
		},
		{
			name:   "optional properties become required and nullable",
			schema: `{"type":"object","properties":{"name":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"unit":{"type":"string","enum":["C","F"]}},"required":["name"],"additionalProperties":false}`,
			want:   `{"type":"object","properties":{"name":{"type":"string"},"tags":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"null"}]},"unit":{"type":["string","null"],"enum":["C","F",null]}},"required":["name","tags","unit"],"additionalProperties":false}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeMadeNullable},
		},
		{
			name:    "array root is wrapped",
			schema:  `{"type":"array","items":{"type":"integer"}}`,
			want:    `{"type":"object","properties":{"value":{"type":"array","items":{"type":"integer"}}},"required":["value"],"additionalProperties":false}`,
			strict:  true,
			wrapped: true,
			kinds:   []dialect.ChangeKind{dialect.ChangeWrappedRoot},
		},
		{
			name:    "string root is wrapped and $schema hoisted then dropped",
			schema:  `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string","minLength":1}`,
			want:    `{"type":"object","properties":{"value":{"type":"string","description":"(minLength: 1)"}},"required":["value"],"additionalProperties":false}`,
			strict:  true,
			wrapped: true,
			kinds:   []dialect.ChangeKind{dialect.ChangeWrappedRoot, dialect.ChangeMovedToDescription, dialect.ChangeDropped},
		},
		{
			name:   "oneOf becomes anyOf",
			schema: `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"]}`,
			want:   `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"],"additionalProperties":false}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeOneOfToAnyOf},
		},
		{
			name:   "unsupported keywords move into the description",
			schema: `{"type":"object","properties":{"title":{"type":"string","description":"The title.","minLength":3,"maxLength":80,"default":"x"},"mail":{"type":"string","format":"email"},"site":{"type":"string","format":"uri"},"n":{"type":"integer","minimum":0,"maximum":9},"xs":{"type":"array","items":{"type":"string"},"uniqueItems":true,"minItems":1}},"required":["title","mail","site","n","xs"]}`,
			want:   `{"type":"object","properties":{"title":{"type":"string","description":"The title. (minLength: 3; maxLength: 80; default: \"x\")"},"mail":{"type":"string","format":"email"},"site":{"type":"string","description":"(format: \"uri\")"},"n":{"type":"integer","minimum":0,"maximum":9},"xs":{"type":"array","items":{"type":"string"},"minItems":1,"description":"(uniqueItems: true)"}},"required":["title","mail","site","n","xs"],"additionalProperties":false}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeMovedToDescription},
		},
		{
			name:   "unknown keywords are dropped",
			schema: `{"type":"object","$comment":"c","x-order":1,"properties":{"a":{"type":"string","readOnly":true}},"required":["a"]}`,
			want:   `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeDropped},
		},
		{
			name:   "map through additionalProperties is not strict",
			schema: `{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"string"}}}}`,
			want:   `{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"string"}}}}`,
			kinds:  []dialect.ChangeKind{dialect.ChangeNotStrict},
		},
		{
			name:   "patternProperties is not strict",
			schema: `{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x-":{"type":"string"}}}`,
			want:   `{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x-":{"type":"string"}}}`,
			kinds:  []dialect.ChangeKind{dialect.ChangeNotStrict},
		},
		{
			name:   "free-form object is not strict",
			schema: `{"type":"object","properties":{"meta":{"type":"object"}},"required":["meta"]}`,
			want:   `{"type":"object","properties":{"meta":{"type":"object"}},"required":["meta"]}`,
			kinds:  []dialect.ChangeKind{dialect.ChangeNotStrict},
		},
		{
			name:   "value of any type is not strict",
			schema: `{"type":"object","properties":{"x":{"description":"anything"}},"required":["x"]}`,
			want:   `{"type":"object","properties":{"x":{"description":"anything"}},"required":["x"]}`,
			kinds:  []dialect.ChangeKind{dialect.ChangeNotStrict},
		},
		{
			name:    "non-strict array root is still wrapped",
			schema:  `{"type":"array","items":{}}`,
			want:    `{"type":"object","properties":{"value":{"type":"array","items":{}}},"required":["value"],"additionalProperties":false}`,
			wrapped: true,
			kinds:   []dialect.ChangeKind{dialect.ChangeWrappedRoot, dialect.ChangeNotStrict},
		},
		{
			name:   "refs, recursion and optional refs",
			schema: `{"type":"object","properties":{"head":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"value":{"type":"number"},"next":{"$ref":"#/$defs/node"}},"required":["value"]}}}`,
			want:   `{"type":"object","properties":{"head":{"anyOf":[{"$ref":"#/$defs/node"},{"type":"null"}]}},"$defs":{"node":{"type":"object","properties":{"value":{"type":"number"},"next":{"anyOf":[{"$ref":"#/$defs/node"},{"type":"null"}]}},"required":["value","next"],"additionalProperties":false}},"additionalProperties":false,"required":["head"]}`,
			strict: true,
		},
		{
			name:   "draft-07 definitions move to $defs",
			schema: `{"type":"object","properties":{"p":{"$ref":"#/definitions/point"}},"required":["p"],"definitions":{"point":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}}`,
			want:   `{"type":"object","properties":{"p":{"$ref":"#/$defs/point"}},"required":["p"],"$defs":{"point":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}},"additionalProperties":false}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeRenamedDefinitions},
		},
		{
			name:   "$ref with siblings is inlined",
			schema: `{"type":"object","properties":{"p":{"$ref":"#/$defs/point","description":"Where."}},"required":["p"],"$defs":{"point":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}}`,
			want:   `{"type":"object","properties":{"p":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"description":"Where.","additionalProperties":false}},"required":["p"],"$defs":{"point":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}},"additionalProperties":false}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeInlinedRef},
		},
		{
			name:   "root $ref is inlined",
			schema: `{"$ref":"#/$defs/r","$defs":{"r":{"type":"object","properties":{"a":{"type":"boolean"}},"required":["a"]}}}`,
			want:   `{"type":"object","properties":{"a":{"type":"boolean"}},"required":["a"],"$defs":{"r":{"type":"object","properties":{"a":{"type":"boolean"}},"required":["a"],"additionalProperties":false}},"additionalProperties":false}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeInlinedRef},
		},
		{
			name:   "allOf branches are merged",
			schema: `{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"integer"}},"required":["b"]}]}`,
			want:   `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeMergedAllOf},
		},
		{
			name:   "conflicting allOf is not strict",
			schema: `{"type":"object","properties":{"v":{"allOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"]}`,
			want:   `{"type":"object","properties":{"v":{"allOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"]}`,
			kinds:  []dialect.ChangeKind{dialect.ChangeNotStrict},
		},
		{
			name:   "constraint-only anyOf moves to the description",
			schema: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"anyOf":[{"required":["a"]},{"required":["b"]}]}`,
			want:   `{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":["string","null"]}},"description":"(anyOf: [{\"required\":[\"a\"]},{\"required\":[\"b\"]}])","additionalProperties":false,"required":["a","b"]}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeMovedToDescription, dialect.ChangeMadeNullable},
		},
		{
			name:    "union root is wrapped",
			schema:  `{"anyOf":[{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]},{"type":"object","properties":{"error":{"type":"string"}},"required":["error"]}]}`,
			want:    `{"type":"object","properties":{"value":{"anyOf":[{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false},{"type":"object","properties":{"error":{"type":"string"}},"required":["error"],"additionalProperties":false}]}},"required":["value"],"additionalProperties":false}`,
			strict:  true,
			wrapped: true,
		},
		{
			name:   "const becomes nullable through anyOf",
			schema: `{"type":"object","properties":{"kind":{"type":"string","const":"a"}}}`,
			want:   `{"type":"object","properties":{"kind":{"anyOf":[{"type":"string","const":"a"},{"type":"null"}]}},"additionalProperties":false,"required":["kind"]}`,
			strict: true,
		},
		{
			name:   "unused definitions are dropped",
			schema: `{"type":"object","properties":{"a":{"$ref":"#/$defs/used"}},"required":["a"],"$defs":{"used":{"type":"string"},"unused":{"type":"object","additionalProperties":{"type":"string"}}}}`,
			want:   `{"type":"object","properties":{"a":{"$ref":"#/$defs/used"}},"required":["a"],"$defs":{"used":{"type":"string"}},"additionalProperties":false}`,
			strict: true,
			kinds:  []dialect.ChangeKind{dialect.ChangeDropped},
		},
		{
			name:   "optional enum gets null",
			schema: `{"type":"object","properties":{"level":{"enum":["high","low"]}}}`,
			want:   `{"type":"object","properties":{"level":{"enum":["high","low",null]}},"additionalProperties":false,"required":["level"]}`,
			strict: true,
		},
		{
			name:   "required property that is not declared is not strict",
			schema: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"]}`,
			want:   `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"]}`,
			kinds:  []dialect.ChangeKind{dialect.ChangeNotStrict},
		},
		{
			name:   "tuple is not strict",
			schema: `{"type":"object","properties":{"pt":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}]}},"required":["pt"]}`,
			want:   `{"type":"object","properties":{"pt":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}]}},"required":["pt"]}`,
			kinds:  []dialect.ChangeKind{dialect.ChangeNotStrict},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			conv, err := dialect.Convert(s, dialect.OpenAI)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(conv.Schema))
			assert.Equal(t, tt.want, string(conv.Schema), "key order")
			assert.Equal(t, tt.strict, conv.Strict, "strict; changes: %v", conv.Changes)
			assert.Equal(t, tt.wrapped, conv.Wrapped)
			if tt.wrapped {
				assert.Equal(t, "value", conv.WrapKey)
			}
			kinds := map[dialect.ChangeKind]bool{}
			for _, c := range conv.Changes {
				kinds[c.Kind] = true
				assert.True(t, strings.HasPrefix(c.Path, "$"), "path %q", c.Path)
				assert.NotEmpty(t, c.Detail)
			}
			for _, k := range tt.kinds {
				assert.True(t, kinds[k], "want a %s change in %v", k, conv.Changes)
			}
			assert.Equal(t, !tt.strict, kinds[dialect.ChangeNotStrict])
			assert.Equal(t, tt.schema, string(s.JSON()), "the input schema is not modified")
			_, err = schema.Parse(conv.Schema)
			assert.NoError(t, err, "the converted schema compiles")
		})
	}
}

func TestConvertOpenAILimits(t *testing.T) {
	var props []string
	for i := 0; i < 5001; i++ {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"integer"}`, i))
	}
	many := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`

	var enum []string
	for i := 0; i < 1001; i++ {
		enum = append(enum, fmt.Sprintf(`"v%d"`, i))
	}
	bigEnum := `{"type":"object","properties":{"e":{"type":"string","enum":[` + strings.Join(enum, ",") + `]}},"required":["e"]}`

	var long []string
	for i := 0; i < 260; i++ {
		long = append(long, fmt.Sprintf(`"%s%d"`, strings.Repeat("x", 60), i))
	}
	longEnum := `{"type":"object","properties":{"e":{"type":"string","enum":[` + strings.Join(long, ",") + `]}},"required":["e"]}`

	deep := `{"type":"string"}`
	for i := 0; i < 11; i++ {
		deep = `{"type":"object","properties":{"d":` + deep + `},"required":["d"]}`
	}
	ten := `{"type":"string"}`
	for i := 0; i < 10; i++ {
		ten = `{"type":"object","properties":{"d":` + ten + `},"required":["d"]}`
	}

	tests := []struct {
		name   string
		schema string
		strict bool
		detail string
	}{
		{name: "over 5000 properties", schema: many, detail: "5001 object properties"},
		{name: "over 1000 enum values", schema: bigEnum, detail: "1001 enum values"},
		{name: "long enum over 250 values", schema: longEnum, detail: "an enum of 260 values"},
		{name: "11 levels of nesting", schema: deep, detail: "nested 11 levels"},
		{name: "10 levels of nesting", schema: ten, strict: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			conv, err := dialect.Convert(s, dialect.OpenAI)
			require.NoError(t, err)
			assert.Equal(t, tt.strict, conv.Strict)
			if tt.detail != "" {
				found := false
				for _, c := range conv.Changes {
					found = found || c.Kind == dialect.ChangeNotStrict && strings.Contains(c.Detail, tt.detail)
				}
				assert.True(t, found, "want %q in %v", tt.detail, conv.Changes)
			}
		})
	}
}

func TestConversionRestore(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		output string // what the model produced against the converted schema
		want   string // what Restore returns
	}{
		{
			name:   "nulls of optional properties removed",
			schema: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"]}`,
			output: `{"a":"x","b":null}`,
			want:   `{"a":"x"}`,
		},
		{
			name:   "null of a required nullable property kept",
			schema: `{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"]}`,
			output: `{"a":null}`,
			want:   `{"a":null}`,
		},
		{
			name:   "non-null optional value kept",
			schema: `{"type":"object","properties":{"b":{"type":"integer"}}}`,
			output: `{"b":3}`,
			want:   `{"b":3}`,
		},
		{
			name:   "wrapped root unwrapped",
			schema: `{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer"},"note":{"type":"string"}},"required":["n"]}}`,
			output: `{"value":[{"n":1,"note":null},{"n":2,"note":"hi"}]}`,
			want:   `[{"n":1},{"n":2,"note":"hi"}]`,
		},
		{
			name:   "through references and recursion",
			schema: `{"type":"object","properties":{"head":{"$ref":"#/$defs/node"}},"required":["head"],"$defs":{"node":{"type":"object","properties":{"v":{"type":"number"},"next":{"$ref":"#/$defs/node"}},"required":["v"]}}}`,
			output: `{"head":{"v":1,"next":{"v":2,"next":null}}}`,
			want:   `{"head":{"v":1,"next":{"v":2}}}`,
		},
		{
			name:   "union branch chosen by its keys",
			schema: `{"type":"object","properties":{"r":{"anyOf":[{"type":"object","properties":{"ok":{"type":"boolean"},"why":{"type":"string"}},"required":["ok"]},{"type":"object","properties":{"error":{"type":"string"},"code":{"type":"integer"}},"required":["error"]}]}},"required":["r"]}`,
			output: `{"r":{"error":"boom","code":null}}`,
			want:   `{"r":{"error":"boom"}}`,
		},
		{
			name:   "optional object made nullable keeps its own optional nulls out",
			schema: `{"type":"object","properties":{"meta":{"type":"object","properties":{"k":{"type":"string"}}}}}`,
			output: `{"meta":{"k":null}}`,
			want:   `{"meta":{}}`,
		},
		{
			name:   "optional object null removed",
			schema: `{"type":"object","properties":{"meta":{"type":"object","properties":{"k":{"type":"string"}}}}}`,
			output: `{"meta":null}`,
			want:   `{}`,
		},
		{
			name:   "non-strict conversion only unwraps",
			schema: `{"type":"array","items":{"type":"object","additionalProperties":{"type":"string"}}}`,
			output: `{"value":[{"a":"x"}]}`,
			want:   `[{"a":"x"}]`,
		},
		{
			name:   "output without the wrapper passes through",
			schema: `{"type":"array","items":{"type":"string"}}`,
			output: `["a"]`,
			want:   `["a"]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			conv, err := dialect.Convert(s, dialect.OpenAI)
			require.NoError(t, err)
			var out any
			require.NoError(t, json.Unmarshal([]byte(tt.output), &out))
			before, err := json.Marshal(out)
			require.NoError(t, err)
			got := conv.Restore(out)
			gotJSON, err := json.Marshal(got)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(gotJSON))
			after, err := json.Marshal(out)
			require.NoError(t, err)
			assert.Equal(t, string(before), string(after), "Restore does not modify its input")
			assert.Empty(t, s.Validate(got), "the restored value is valid against the original")
		})
	}
}

func TestConvertDialects(t *testing.T) {
	s, err := schema.Parse([]byte(`{ "type": "string" }`))
	require.NoError(t, err)

	conv, err := dialect.Convert(s, dialect.Passthrough)
	require.NoError(t, err)
	assert.Equal(t, `{"type":"string"}`, string(conv.Schema))
	assert.False(t, conv.Strict)
	assert.Equal(t, "x", conv.Restore("x"))

	_, err = dialect.Convert(s, dialect.Dialect("klingon"))
	assert.ErrorContains(t, err, `dialect: unknown dialect "klingon"`)

	var nilConv *dialect.Conversion
	assert.Equal(t, 1, nilConv.Restore(1))

	var nilSchema *schema.Schema
	_, err = dialect.Convert(nilSchema, dialect.OpenAI)
	assert.Error(t, err)
}

func TestConvertOpenAIBooleanRoot(t *testing.T) {
	s, err := schema.Parse([]byte(`true`))
	require.NoError(t, err)
	conv, err := dialect.Convert(s, dialect.OpenAI)
	require.NoError(t, err)
	assert.False(t, conv.Strict)
	assert.True(t, conv.Wrapped)

	s, err = schema.Parse([]byte(`false`))
	require.NoError(t, err)
	_, err = dialect.Convert(s, dialect.OpenAI)
	assert.EqualError(t, err, "dialect: cannot convert: openai dialect: the schema false accepts no value")
	assert.ErrorIs(t, err, dialect.ErrUnconvertible)
}

func TestConvertUnknownDialect(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "object"}`))
	require.NoError(t, err)
	_, err = dialect.Convert(s, dialect.Dialect("cohere"))
	assert.ErrorIs(t, err, dialect.ErrUnknown)
	assert.EqualError(t, err, `dialect: unknown dialect "cohere"`)
}

// Convert is computed once per schema and dialect, but every call gets its
// own copy: what one caller changes, the next does not see.
func TestConvertCachedCopies(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}}`))
	require.NoError(t, err)
	first, err := dialect.Convert(s, dialect.OpenAI)
	require.NoError(t, err)
	want := string(first.Schema)
	require.NotEmpty(t, first.Changes)
	wantChange := first.Changes[0]

	first.Schema[0] = 'X'
	first.Changes[0].Detail = "changed by the caller"

	second, err := dialect.Convert(s, dialect.OpenAI)
	require.NoError(t, err)
	assert.Equal(t, want, string(second.Schema))
	assert.Equal(t, wantChange, second.Changes[0])
	assert.Equal(t, map[string]any{"a": "xy"}, second.Restore(map[string]any{"a": "xy"}))
}

// TestConvertOpenAICorpus converts every schema of the shared real-world
// sample: each converts (strict or not) or fails with an error, never a
// panic; every converted schema compiles with jsonschema-go; and Restore
// keeps every valid test instance of a strict conversion valid.
func TestConvertOpenAICorpus(t *testing.T) {
	shared.Measuring(t)
	f, err := os.Open(shared.Corpus(t, "schema_tests.sample.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var compiled, strict, nonStrict, convErrors, parseErrors, instances int
	reasons := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		if testing.Short() && line%10 != 0 {
			continue // -short: every tenth schema
		}
		var rec struct {
			ID     string          `json:"id"`
			Schema json.RawMessage `json:"schema"`
			Tests  []struct {
				Valid bool `json:"valid"`
				Data  any  `json:"data"`
			} `json:"tests"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		s, err := schema.Parse(rec.Schema)
		if err != nil {
			parseErrors++
			continue
		}
		compiled++
		conv, err := dialect.Convert(s, dialect.OpenAI)
		if err != nil {
			convErrors++
			assert.True(t, strings.HasPrefix(err.Error(), "schema: "), "%s: %v", rec.ID, err)
			continue
		}
		var js jsonschema.Schema
		if assert.NoError(t, json.Unmarshal(conv.Schema, &js), "%s: the converted schema decodes", rec.ID) {
			_, err = js.Resolve(nil)
			assert.NoError(t, err, "%s: the converted schema compiles: %s", rec.ID, conv.Schema)
		}
		if !conv.Strict {
			nonStrict++
			classes := map[string]bool{}
			for _, c := range conv.Changes {
				if c.Kind == dialect.ChangeNotStrict {
					classes[openaiReasonClass(c.Detail)] = true
				}
			}
			for class := range classes {
				reasons[class]++
			}
			continue
		}
		strict++
		for _, tc := range rec.Tests {
			if !tc.Valid || len(s.Validate(tc.Data)) > 0 {
				continue
			}
			instances++
			in := tc.Data
			if conv.Wrapped {
				in = map[string]any{conv.WrapKey: in}
			}
			assert.Empty(t, s.Validate(conv.Restore(in)), "%s: Restore keeps a valid instance valid", rec.ID)
		}
	}
	require.NoError(t, sc.Err())
	t.Logf("schemas: %d compiled (%d did not parse); openai dialect: %d strict, %d non-strict, %d errors; %d valid instances restored",
		compiled, parseErrors, strict, nonStrict, convErrors, instances)
	t.Logf("non-strict schemas by reason (a schema may have several): %v", reasons)
	assert.Equal(t, compiled, strict+nonStrict+convErrors)
}

// openaiReasonClass shortens a not-strict detail to its kind, for the log.
func openaiReasonClass(detail string) string {
	for _, p := range []string{"any type", "without properties", "map", "patternProperties", "tuple", "list", "without items",
		"nested", "enum", "object properties", "characters", "boolean schema", "required property", "allOf", "recursive", "$ref"} {
		if strings.Contains(detail, p) {
			return p
		}
	}
	return detail
}

// FuzzConvertOpenAI checks that converting any schema that compiles never
// panics or loops, that a strict result compiles, and that Restore copes
// with any value.
func FuzzConvertOpenAI(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"a":{"type":"string"}}}`,
		`{"type":"array","items":{"$ref":"#"}}`,
		`{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n","description":"x"}}}},"$ref":"#/$defs/n"}`,
		`{"allOf":[{"$ref":"#/definitions/a"}],"definitions":{"a":{"allOf":[{"$ref":"#/definitions/a"}]}}}`,
		`{"oneOf":[{"type":"string"},{"type":"object","additionalProperties":{"type":"integer"}}]}`,
		`{"type":"object","properties":{"x":{"enum":[1,"a",null]},"y":{"const":{"k":[1]}}},"required":["x"]}`,
	} {
		f.Add(seed, `{"value":{"a":null,"next":{"next":null}}}`)
	}
	f.Fuzz(func(t *testing.T, src, value string) {
		s, err := schema.Parse([]byte(src))
		if err != nil {
			return
		}
		conv, err := dialect.Convert(s, dialect.OpenAI)
		if err != nil {
			return
		}
		if conv.Strict {
			var js jsonschema.Schema
			require.NoError(t, json.Unmarshal(conv.Schema, &js))
			_, err := js.Resolve(nil)
			require.NoError(t, err, "strict schema %s", conv.Schema)
		}
		var v any
		if json.Unmarshal([]byte(value), &v) == nil {
			conv.Restore(v)
		}
	})
}

// Convert a schema for OpenAI's strict mode, send conv.Schema with strict
// set to conv.Strict, and map the reply back before validating it against
// the original schema.
func ExampleConvert() {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"city":{"type":"string","minLength":1},"zip":{"type":"string"}},"required":["city"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	conv, err := dialect.Convert(s, dialect.OpenAI)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv.Strict, string(conv.Schema))
	for _, c := range conv.Changes {
		fmt.Println(c.Kind, c.Path)
	}

	var reply any
	_ = json.Unmarshal([]byte(`{"city":"Oslo","zip":null}`), &reply)
	restored := conv.Restore(reply)
	fmt.Println(restored, len(s.Validate(restored)))
	// Output:
	// true {"type":"object","properties":{"city":{"type":"string","description":"(minLength: 1)"},"zip":{"type":["string","null"]}},"required":["city","zip"],"additionalProperties":false}
	// moved_to_description $.properties.city
	// closed_object $
	// made_nullable $.properties.zip
	// map[city:Oslo] 0
}

// openaiBenchSchema is a review schema of a realistic size: nested objects,
// optional properties, enums, an array of items.
const openaiBenchSchema = `{"type":"object","properties":{
	"summary":{"type":"string","minLength":1},
	"verdict":{"enum":["approve","request_changes","comment"]},
	"issues":{"type":"array","items":{"type":"object","properties":{
		"file":{"type":"string"},"line":{"type":"integer","minimum":1},
		"severity":{"enum":["blocker","major","minor","nit"]},
		"description":{"type":"string"},"suggestion":{"type":"string"},
		"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}},
		"required":["file","line","severity","description"]}},
	"counts":{"type":"object","properties":{"blocker":{"type":"integer"},"major":{"type":"integer"},"minor":{"type":"integer"},"nit":{"type":"integer"}}}},
	"required":["summary","verdict","issues"]}`

// BenchmarkConvertOpenAI measures the conversion itself, which Convert
// does once per schema (BenchmarkConvertCached measures the calls after).
func BenchmarkConvertOpenAI(b *testing.B) {
	s, err := schema.Parse([]byte(openaiBenchSchema))
	require.NoError(b, err)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := dialect.Convert(s, dialect.OpenAI); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConversionRestore restores a reply of about 100 KB: 400 issues.
func BenchmarkConversionRestore(b *testing.B) {
	s, err := schema.Parse([]byte(openaiBenchSchema))
	require.NoError(b, err)
	conv, err := dialect.Convert(s, dialect.OpenAI)
	require.NoError(b, err)
	var issues []string
	for i := 0; i < 400; i++ {
		issues = append(issues, fmt.Sprintf(`{"file":"internal/pkg/file%03d.go","line":%d,"severity":"minor","description":"%s","suggestion":null,"tags":null}`,
			i, i+1, strings.Repeat("The loop re-reads the slice on every pass. ", 4)))
	}
	reply := []byte(`{"summary":"Looks fine.","verdict":"comment","issues":[` + strings.Join(issues, ",") + `],"counts":null}`)
	var v any
	require.NoError(b, json.Unmarshal(reply, &v))
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		conv.Restore(v)
	}
}
