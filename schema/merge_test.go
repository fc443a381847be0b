package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

const implicitPromptSchema = `{"type":"object","properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}`

func mustParse(t testing.TB, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err, "schema %s", src)
	return s
}

func TestMergePromptNil(t *testing.T) {
	s, err := schema.MergePrompt(nil)
	require.NoError(t, err)
	assert.Equal(t, implicitPromptSchema, string(s.JSON()))
}

func TestMergePrompt(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			// A custom schema without prompt.
			name: "custom schema",
			in:   `{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`,
			want: `{"type":"object","properties":{"topic":{"type":"string"},"prompt":{"type":"string","minLength":1}},"required":["topic","prompt"]}`,
		},
		{
			name: "empty schema",
			in:   `{}`,
			want: implicitPromptSchema,
		},
		{
			name: "true schema",
			in:   `true`,
			want: implicitPromptSchema,
		},
		{
			name: "type added first",
			in:   `{"properties":{"b":{},"a":{}}}`,
			want: `{"type":"object","properties":{"b":{},"a":{},"prompt":{"type":"string","minLength":1}},"required":["prompt"]}`,
		},
		{
			name: "type added after $schema and $id",
			in:   `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/p","title":"P"}`,
			want: `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/p","type":"object","title":"P","properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}`,
		},
		{
			name: "other type forced to object in place",
			in:   `{"title":"T","type":"string","minLength":3}`,
			want: `{"title":"T","type":"object","minLength":3,"properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}`,
		},
		{
			name: "type list forced to object",
			in:   `{"type":["object","null"]}`,
			want: `{"type":"object","properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}`,
		},
		{
			name: "author's prompt property kept",
			in:   `{"type":"object","properties":{"prompt":{"type":"string","maxLength":200,"description":"What to do"}}}`,
			want: `{"type":"object","properties":{"prompt":{"type":"string","maxLength":200,"description":"What to do"}},"required":["prompt"]}`,
		},
		{
			name: "prompt already required is not listed twice",
			in:   `{"type":"object","required":["prompt","topic"],"properties":{"topic":{}}}`,
			want: `{"type":"object","required":["prompt","topic"],"properties":{"topic":{},"prompt":{"type":"string","minLength":1}}}`,
		},
		{
			name: "parametric agent",
			in:   `{"type":"object","required":["topic","format"],"properties":{"topic":{"type":"string"},"format":{"type":"string","enum":["summary","bullet_points","essay"]},"max_words":{"type":"integer","minimum":50,"maximum":2000}},"additionalProperties":false}`,
			want: `{"type":"object","required":["topic","format","prompt"],"properties":{"topic":{"type":"string"},"format":{"type":"string","enum":["summary","bullet_points","essay"]},"max_words":{"type":"integer","minimum":50,"maximum":2000},"prompt":{"type":"string","minLength":1}},"additionalProperties":false}`,
		},
		{
			name: "root $ref moves into allOf",
			in:   `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/p","definitions":{"p":{"type":"object"}}}`,
			want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","allOf":[{"$ref":"#/definitions/p"}],"definitions":{"p":{"type":"object"}},"properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}`,
		},
		{
			name: "root $ref joins an existing allOf",
			in:   `{"$ref":"#/$defs/p","allOf":[{"required":["a"]}],"$defs":{"p":{}}}`,
			want: `{"type":"object","allOf":[{"$ref":"#/$defs/p"},{"required":["a"]}],"$defs":{"p":{}},"properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}`,
		},
		{
			name: "indentation kept",
			in:   "{\n    \"type\": \"object\",\n    \"properties\": {\n        \"topic\": {\"type\": \"string\"}\n    }\n}\n",
			want: "{\n    \"type\": \"object\",\n    \"properties\": {\n        \"topic\": {\n            \"type\": \"string\"\n        },\n        \"prompt\": {\n            \"type\": \"string\",\n            \"minLength\": 1\n        }\n    },\n    \"required\": [\n        \"prompt\"\n    ]\n}\n",
		},
		{
			name: "tab indentation kept",
			in:   "{\n\t\"type\": \"object\"\n}",
			want: "{\n\t\"type\": \"object\",\n\t\"properties\": {\n\t\t\"prompt\": {\n\t\t\t\"type\": \"string\",\n\t\t\t\"minLength\": 1\n\t\t}\n\t},\n\t\"required\": [\n\t\t\"prompt\"\n\t]\n}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := mustParse(t, tt.in)
			verdict := in.Validate(map[string]any{})
			got, err := schema.MergePrompt(in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got.JSON()))
			assert.Equal(t, tt.in, string(in.JSON()), "input modified")
			assert.Equal(t, verdict, in.Validate(map[string]any{}), "the input's verdict changed")

			again, err := schema.MergePrompt(got)
			require.NoError(t, err)
			assert.Same(t, got, again, "merging twice must be a no-op")
		})
	}
}

func TestMergePromptUnchangedReturnsInput(t *testing.T) {
	in := mustParse(t, `{ "type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"] }`)
	got, err := schema.MergePrompt(in)
	require.NoError(t, err)
	assert.Same(t, in, got)
}

func TestMergePromptValidation(t *testing.T) {
	// The merged schema accepts a prompt with the
	// author's parameters and refuses parameters without a prompt.
	tests := []struct {
		name   string
		schema string // "" is no schema
		value  string
		valid  bool
	}{
		{name: "implicit with prompt", value: `{"prompt":"hello"}`, valid: true},
		{name: "implicit without prompt", value: `{}`, valid: false},
		{name: "implicit empty prompt", value: `{"prompt":""}`, valid: false},
		{name: "implicit prompt not a string", value: `{"prompt":5}`, valid: false},
		{name: "custom with prompt", schema: `{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`, value: `{"prompt":"hello","topic":"AI"}`, valid: true},
		{name: "custom without prompt", schema: `{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`, value: `{"topic":"AI"}`, valid: false},
		{name: "closed schema admits prompt", schema: `{"type":"object","properties":{"topic":{}},"additionalProperties":false}`, value: `{"prompt":"go","topic":"AI"}`, valid: true},
		{name: "closed schema still closed", schema: `{"type":"object","properties":{"topic":{}},"additionalProperties":false}`, value: `{"prompt":"go","extra":1}`, valid: false},
		{name: "author's prompt rules kept", schema: `{"properties":{"prompt":{"type":"string","maxLength":3}}}`, value: `{"prompt":"toolong"}`, valid: false},
		{name: "draft-07 root $ref requires prompt", schema: `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/p","definitions":{"p":{"type":"object"}}}`, value: `{}`, valid: false},
		{name: "draft-07 root $ref still applies", schema: `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/p","definitions":{"p":{"required":["a"]}}}`, value: `{"prompt":"x"}`, valid: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in *schema.Schema
			if tt.schema != "" {
				in = mustParse(t, tt.schema)
			}
			s, err := schema.MergePrompt(in)
			require.NoError(t, err)
			violations, err := s.ValidateJSON([]byte(tt.value))
			require.NoError(t, err)
			if tt.valid {
				assert.Empty(t, violations)
			} else {
				assert.NotEmpty(t, violations)
			}
		})
	}
}

func TestMergePromptFalseSchema(t *testing.T) {
	_, err := schema.MergePrompt(mustParse(t, `false`))
	var me *schema.MergeError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "prompt", me.Property)
	assert.Equal(t, `schema: cannot merge property "prompt": the schema is false and admits no value`, err.Error())
}

func TestMergeProperties(t *testing.T) {
	tests := []struct {
		name  string
		in    string // "" is a nil schema
		props []schema.Property
		want  string
	}{
		{
			name: "optional property",
			in:   `{"type":"object"}`,
			props: []schema.Property{
				{Name: "limit", Schema: mustParse(t, `{"type":"integer"}`)},
			},
			want: `{"type":"object","properties":{"limit":{"type":"integer"}}}`,
		},
		{
			name: "several properties in order",
			in:   `{"type":"object","properties":{"a":{}},"required":["a"]}`,
			props: []schema.Property{
				{Name: "c", Schema: mustParse(t, `{"type":"string"}`), Required: true},
				{Name: "b", Required: true},
			},
			want: `{"type":"object","properties":{"a":{},"c":{"type":"string"},"b":{}},"required":["a","c","b"]}`,
		},
		{
			name: "nil schema",
			props: []schema.Property{
				{Name: "x", Schema: mustParse(t, `{"const":1}`)},
			},
			want: `{"type":"object","properties":{"x":{"const":1}}}`,
		},
		{
			name: "existing property kept, required added",
			in:   `{"type":"object","properties":{"a":{"type":"integer"}}}`,
			props: []schema.Property{
				{Name: "a", Schema: mustParse(t, `{"type":"string"}`), Required: true},
			},
			want: `{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`,
		},
		{
			name: "first of two with one name wins",
			in:   `{}`,
			props: []schema.Property{
				{Name: "a", Schema: mustParse(t, `{"type":"integer"}`)},
				{Name: "a", Schema: mustParse(t, `{"type":"string"}`), Required: true},
			},
			want: `{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`,
		},
		{
			name: "names are escaped for JSON only",
			in:   `{}`,
			props: []schema.Property{
				{Name: `a<b>&"c"`, Required: true},
			},
			want: `{"type":"object","properties":{"a<b>&\"c\"":{}},"required":["a<b>&\"c\""]}`,
		},
		{
			name:  "no properties forces the type",
			in:    `{"type":"array"}`,
			props: nil,
			want:  `{"type":"object"}`,
		},
		{
			name: "property with its own $id may refer into itself",
			in:   `{}`,
			props: []schema.Property{
				{Name: "p", Schema: mustParse(t, `{"$id":"https://example.com/p","$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"}`)},
			},
			want: `{"type":"object","properties":{"p":{"$id":"https://example.com/p","$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"}}}`,
		},
		{
			name: "a $ref inside enum is data",
			in:   `{}`,
			props: []schema.Property{
				{Name: "p", Schema: mustParse(t, `{"enum":[{"$ref":"#/x"}]}`)},
			},
			want: `{"type":"object","properties":{"p":{"enum":[{"$ref":"#/x"}]}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in *schema.Schema
			if tt.in != "" {
				in = mustParse(t, tt.in)
			}
			got, err := schema.MergeProperties(in, tt.props...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got.JSON()))
			if in != nil {
				assert.Equal(t, tt.in, string(in.JSON()), "input modified")
			}
		})
	}
}

func TestMergePropertiesLocalRefRefused(t *testing.T) {
	prop := mustParse(t, `{"$defs":{"s":{"type":"string"}},"items":{"$ref":"#/$defs/s"}}`)
	_, err := schema.MergeProperties(nil, schema.Property{Name: "tags", Schema: prop})
	var me *schema.MergeError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "tags", me.Property)
	assert.Contains(t, err.Error(), `"#/$defs/s"`)
}

func TestMergePropertiesLocalRefInDocumentOrder(t *testing.T) {
	// The first local reference in document order is named; a "$ref" in
	// data (const) or in an unknown keyword is not a reference.
	prop := mustParse(t, `{"const":{"$ref":"#/c"},"x-note":{"$ref":"#/x"},"properties":{"b":{"$ref":"#/$defs/b"},"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{},"b":{}}}`)
	_, err := schema.MergeProperties(nil, schema.Property{Name: "p", Schema: prop})
	var me *schema.MergeError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, `its reference "#/$defs/b" would resolve against the merged document (give its root an $id)`, me.Reason)

	data := mustParse(t, `{"type":"object","x-note":{"$ref":"#/x"},"default":{"$ref":"#/d"}}`)
	got, err := schema.MergeProperties(nil, schema.Property{Name: "p", Schema: data})
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object","properties":{"p":{"type":"object","x-note":{"$ref":"#/x"},"default":{"$ref":"#/d"}}}}`, string(got.JSON()))
}

func TestMergePropertiesRequiresNewProperty(t *testing.T) {
	in := mustParse(t, `{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false}`)
	s, err := schema.MergeProperties(in, schema.Property{Name: "b", Schema: mustParse(t, `{"type":"boolean"}`), Required: true})
	require.NoError(t, err)

	violations, err := s.ValidateJSON([]byte(`{"a":1,"b":true}`))
	require.NoError(t, err)
	assert.Empty(t, violations)

	violations, err = s.ValidateJSON([]byte(`{"a":1}`))
	require.NoError(t, err)
	assert.NotEmpty(t, violations)

	// The input still refuses b.
	violations, err = in.ValidateJSON([]byte(`{"a":1,"b":true}`))
	require.NoError(t, err)
	assert.NotEmpty(t, violations)
}

func TestMergePromptConcurrent(t *testing.T) {
	in := mustParse(t, `{"type":"object","properties":{"topic":{"type":"string"}}}`)
	for i := 0; i < 8; i++ {
		t.Run("", func(t *testing.T) {
			t.Parallel()
			got, err := schema.MergePrompt(in)
			require.NoError(t, err)
			assert.Contains(t, string(got.JSON()), `"prompt"`)
		})
	}
}

func FuzzMergePrompt(f *testing.F) {
	for _, s := range []string{
		`{}`, `true`, `false`, `{"type":"string"}`,
		`{"type":"object","properties":{"prompt":{"type":"integer"}},"required":["prompt"]}`,
		`{"$ref":"#/$defs/a","$defs":{"a":{"type":"object"}}}`,
		"{\n  \"required\": [\"a\"],\n  \"properties\": {\"a\": {}}\n}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		in, err := schema.Parse([]byte(src))
		if err != nil {
			return
		}
		before := string(in.JSON())
		got, err := schema.MergePrompt(in)
		assert.Equal(t, before, string(in.JSON()), "input modified")
		if err != nil {
			return
		}
		again, err := schema.MergePrompt(got)
		require.NoError(t, err)
		assert.Same(t, got, again, "merging twice must be a no-op")
		// Whatever the author wrote, a value without a prompt is refused.
		violations, err := got.ValidateJSON([]byte(`{}`))
		require.NoError(t, err)
		assert.NotEmpty(t, violations, "merged %s", got.JSON())
	})
}

func BenchmarkMergePrompt(b *testing.B) {
	in := mustParse(b, `{"type":"object","required":["topic","format"],"properties":{"topic":{"type":"string"},"format":{"type":"string","enum":["summary","bullet_points","essay"]},"max_words":{"type":"integer","minimum":50,"maximum":2000}},"additionalProperties":false}`)
	b.ReportAllocs()
	for range b.N {
		if _, err := schema.MergePrompt(in); err != nil {
			b.Fatal(err)
		}
	}
}
