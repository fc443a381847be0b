package blueprint_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/schema"
)

// exampleAgents are the example agents in testdata/agents.
var exampleAgents = []string{"code-analyzer", "data-extractor", "parametric-agent", "pr-reviewer", "security-scanner", "summarizer"}

func loadAgent(t *testing.T, name string) *blueprint.Blueprint {
	t.Helper()
	b, err := blueprint.Load(filepath.Join("testdata", "agents", name))
	require.NoError(t, err)
	return b
}

func TestParseSeedAgents(t *testing.T) {
	sec := loadAgent(t, "security-scanner")
	assert.Equal(t, "security-scanner", sec.Name())
	assert.Equal(t, blueprint.TypeAutonomous, sec.Type())
	assert.NotNil(t, sec.OutputSchema())
	assert.Nil(t, sec.ParametersSchema())
	assert.Nil(t, sec.DefaultOutputSchema())
	assert.Contains(t, sec.Instructions(), "You audit source code")

	par := loadAgent(t, "parametric-agent")
	assert.Equal(t, []string{"internal"}, par.Tags())
	require.NotNil(t, par.ParametersSchema())
	assert.Nil(t, par.OutputSchema())
	assert.Contains(t, par.Instructions(), "`<inputs>` block", "system prompt read from agent.system-prompt.md")

	ca := loadAgent(t, "code-analyzer")
	assert.Equal(t, blueprint.TypeAutonomous, ca.Type(), "a blueprint without type is autonomous")
	require.NotNil(t, ca.DefaultOutputSchema())
	opts := ca.DefaultOutputOptions()
	require.NotNil(t, opts.MaxRetries)
	assert.Equal(t, 3, *opts.MaxRetries)
	require.NotNil(t, opts.ExtractJSON)
	assert.True(t, *opts.ExtractJSON)
	assert.Nil(t, opts.StrictJSONOnly)

	pr := loadAgent(t, "pr-reviewer")
	assert.Equal(t, map[string]json.RawMessage{"tools": json.RawMessage(`["git_diff","read_file"]`)}, pr.Extra())
	assert.Equal(t, filepath.Join("testdata", "agents", "pr-reviewer", "agent.json"), pr.Path())
}

func TestMarshalRoundTrips(t *testing.T) {
	for _, name := range exampleAgents {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join("testdata", "agents", name, "agent.json")
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			b, err := blueprint.Parse(src)
			require.NoError(t, err)

			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			require.NoError(t, enc.Encode(b))
			var want bytes.Buffer
			require.NoError(t, json.Compact(&want, src))
			assert.Equal(t, want.String()+"\n", buf.String(), "byte for byte, key order kept")

			again, err := blueprint.Parse(buf.Bytes())
			require.NoError(t, err)
			assert.Equal(t, b.Name(), again.Name())
			assert.Equal(t, b.Extra(), again.Extra())
		})
	}
}

func TestMarshalInlinesPromptFile(t *testing.T) {
	b := loadAgent(t, "parametric-agent")
	data, err := json.Marshal(b)
	require.NoError(t, err)
	again, err := blueprint.Parse(data)
	require.NoError(t, err)
	assert.Equal(t, b.Instructions(), again.Instructions())
	assert.Equal(t, "", again.Path())
}

func TestNullMeansNotConfigured(t *testing.T) {
	b, err := blueprint.Parse([]byte(`{"name":"n","description":null,"type":null,"system_prompt":null,"tags":null,
		"parameters_schema":null,"output_schema":null,"default_output_schema":null,"default_output_schema_options":null}`))
	require.NoError(t, err)
	assert.Equal(t, blueprint.TypeAutonomous, b.Type())
	assert.Nil(t, b.ParametersSchema())
	assert.Nil(t, b.OutputSchema())
	assert.Nil(t, b.DefaultOutputSchema())
	assert.Equal(t, blueprint.OutputOptions{}, b.DefaultOutputOptions())
	assert.Nil(t, b.Tags())
	data, err := json.Marshal(b)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"output_schema":null`, "nulls round-trip too")
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name   string
		doc    string
		field  string // the FieldError's Field
		reason string // a substring of its Reason
		is     error  // the FieldError's cause, matched with errors.Is
	}{
		{name: "not an object", doc: `["name"]`, reason: "one JSON object"},
		{name: "not JSON", doc: `{"name": `, reason: "one JSON object"},
		{name: "trailing data", doc: `{"name":"a"} {}`, reason: "data after"},
		{name: "duplicate key", doc: `{"name":"a","name":"b"}`, reason: `duplicate key "name"`},
		{name: "name missing", doc: `{}`, field: "name", reason: "is required"},
		{name: "name null", doc: `{"name":null}`, field: "name", reason: "is required"},
		{name: "name not string", doc: `{"name":7}`, field: "name", reason: "must be a string"},
		{name: "name empty", doc: `{"name":""}`, field: "name", reason: "must not be empty"},
		{name: "name with space", doc: `{"name":"my agent"}`, field: "name", reason: "may hold only"},
		{name: "name path", doc: `{"name":"../etc"}`, field: "name", reason: "must start with"},
		{name: "name too long", doc: `{"name":"` + string(bytes.Repeat([]byte("a"), 65)) + `"}`, field: "name", reason: "at most 64"},
		{name: "unknown type", doc: `{"name":"a","type":"reactive"}`, field: "type", reason: `got "reactive"`},
		{name: "type not string", doc: `{"name":"a","type":1}`, field: "type", reason: "must be"},
		{name: "description not string", doc: `{"name":"a","description":[]}`, field: "description", reason: "must be a string"},
		{name: "system prompt not string", doc: `{"name":"a","system_prompt":{}}`, field: "system_prompt", reason: "must be a string"},
		{name: "tags not strings", doc: `{"name":"a","tags":[1]}`, field: "tags", reason: "array of non-empty strings"},
		{name: "empty tag", doc: `{"name":"a","tags":[""]}`, field: "tags", reason: "array of non-empty strings"},
		{name: "parameters schema not a schema", doc: `{"name":"a","parameters_schema":"x"}`, field: "parameters_schema", reason: "invalid schema at"},
		{name: "output schema does not compile", doc: `{"name":"a","output_schema":{"type":"object","properties":{"n":{"minimum":"zero"}}}}`, field: "output_schema", reason: "invalid schema at"},
		{name: "output schema not object", doc: `{"name":"a","output_schema":{"type":"array"}}`, field: "output_schema", is: blueprint.ErrOutputNotObject},
		{name: "output schema without properties", doc: `{"name":"a","output_schema":{"type":"object"}}`, field: "output_schema", is: blueprint.ErrOutputNotObject},
		{name: "output schema empty", doc: `{"name":"a","output_schema":{}}`, field: "output_schema", is: blueprint.ErrOutputNotObject},
		{name: "output schema ref to an object without properties", doc: `{"name":"a","output_schema":{"$ref":"#/$defs/s","$defs":{"s":{"type":"object"}}}}`, field: "output_schema", is: blueprint.ErrOutputNotObject},
		{name: "output schema ref to a non-object", doc: `{"name":"a","output_schema":{"$ref":"#/$defs/s","$defs":{"s":{"type":"string"}}}}`, field: "output_schema", is: blueprint.ErrOutputNotObject},
		{name: "default output schema not object", doc: `{"name":"a","default_output_schema":{"type":"string","properties":{}}}`, field: "default_output_schema", is: blueprint.ErrOutputNotObject},
		{name: "options not object", doc: `{"name":"a","default_output_schema_options":3}`, field: "default_output_schema_options", reason: "must be an object"},
		{name: "negative retries", doc: `{"name":"a","default_output_schema_options":{"max_retries":-1}}`, field: "default_output_schema_options.max_retries", reason: "non-negative integer"},
		{name: "fractional retries", doc: `{"name":"a","default_output_schema_options":{"max_retries":1.5}}`, field: "default_output_schema_options.max_retries", reason: "non-negative integer"},
		{name: "retries not number", doc: `{"name":"a","default_output_schema_options":{"max_retries":"2"}}`, field: "default_output_schema_options.max_retries", reason: "must be an integer"},
		{name: "extract_json not bool", doc: `{"name":"a","default_output_schema_options":{"extract_json":"yes"}}`, field: "default_output_schema_options.extract_json", reason: "true or false"},
		{name: "unknown validation mode", doc: `{"name":"a","default_output_schema_options":{"validation_mode":"loose"}}`, field: "default_output_schema_options.validation_mode", reason: `got "loose"`},
		{name: "unknown option", doc: `{"name":"a","default_output_schema_options":{"max_retry":1}}`, field: "default_output_schema_options.max_retry", reason: "unknown option"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := blueprint.Parse([]byte(tt.doc))
			require.Error(t, err)
			assert.Nil(t, b)
			var fe *blueprint.FieldError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tt.field, fe.Field)
			assert.Contains(t, fe.Reason, tt.reason)
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
			assert.Regexp(t, `^blueprint: `, err.Error())
		})
	}
}

func TestParseReportsEveryBadField(t *testing.T) {
	_, err := blueprint.Parse([]byte(`{"name":"a b","type":"x","output_schema":{"type":"array"}}`))
	require.Error(t, err)
	joined, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok)
	var fields []string
	for _, e := range joined.Unwrap() {
		var fe *blueprint.FieldError
		require.ErrorAs(t, e, &fe)
		fields = append(fields, fe.Field)
	}
	assert.Equal(t, []string{"name", "type", "output_schema"}, fields)
}

func TestSchemaErrorNamesWhere(t *testing.T) {
	_, err := blueprint.Parse([]byte(`{"name":"a","output_schema":{"type":"object","properties":{"n":{"type":"integer","minimum":"zero"}}}}`))
	var ise *schema.InvalidSchemaError
	require.ErrorAs(t, err, &ise, "the schema package's error is the cause")
	var fe *blueprint.FieldError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "output_schema", fe.Field)
	assert.Contains(t, fe.Reason, ise.Path)

	data, jerr := json.Marshal(fe)
	require.NoError(t, jerr)
	var shape map[string]string
	require.NoError(t, json.Unmarshal(data, &shape))
	assert.Equal(t, "InvalidSchema", shape["error"])
	assert.Equal(t, "output_schema is not a valid JSON Schema", shape["message"])
	assert.Equal(t, fe.Reason, shape["details"])
}

func TestFieldErrorJSON(t *testing.T) {
	tests := []struct {
		name string
		err  *blueprint.FieldError
		want string
	}{
		{
			name: "plain field",
			err:  &blueprint.FieldError{Field: "name", Reason: "is required"},
			want: `{"error":"InvalidField","message":"name is not valid","details":"is required","field":"name"}`,
		},
		{
			name: "whole document",
			err:  &blueprint.FieldError{Reason: "agent.json must hold one JSON object"},
			want: `{"error":"InvalidField","message":"the document is not valid","details":"agent.json must hold one JSON object","field":""}`,
		},
		{
			name: "output shape",
			err:  &blueprint.FieldError{Field: "output_schema", Reason: "x", Err: blueprint.ErrOutputNotObject},
			want: `{"error":"InvalidSchema","message":"output_schema is not a valid output schema","details":"x","field":"output_schema"}`,
		},
		{
			name: "compile error",
			err:  &blueprint.FieldError{Field: "parameters_schema", Reason: "y", Err: &schema.InvalidSchemaError{Path: "$", Reason: "y"}},
			want: `{"error":"InvalidSchema","message":"parameters_schema is not a valid JSON Schema","details":"y","field":"parameters_schema"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(tt.err)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(data))
		})
	}
}

func TestOutputSchemaShapesAccepted(t *testing.T) {
	for _, doc := range []string{
		`{"type":"object","properties":{}}`,
		`{"type":["object","null"],"properties":{"a":{}}}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`,
	} {
		_, err := blueprint.Parse([]byte(`{"name":"a","output_schema":` + doc + `}`))
		assert.NoError(t, err, doc)
	}
}

func TestErrorsAreNotConfusedWithEachOther(t *testing.T) {
	_, err := blueprint.Parse([]byte(`{"name":"a","output_schema":{"type":"array"}}`))
	assert.False(t, errors.Is(err, blueprint.ErrSchemaNotFound))
	assert.False(t, errors.Is(err, blueprint.ErrDuplicateName))
}

func TestWarnings(t *testing.T) {
	for _, name := range exampleAgents {
		assert.Empty(t, loadAgent(t, name).Warnings(), name)
	}
	b, err := blueprint.Parse([]byte(`{"name":"a",
		"parameters_schema":{"type":"object","properties":{"topic":{"type":"string","minLenght":3}}},
		"output_schema":{"type":"object","properties":{"n":{"type":"integer","maximun":3}}}}`))
	require.NoError(t, err, "lint findings do not stop a load")
	ws := b.Warnings()
	require.Len(t, ws, 2)
	assert.Equal(t, "parameters_schema", ws[0].Field)
	assert.Equal(t, "minLenght", ws[0].Keyword)
	assert.Equal(t, "$.properties.topic.minLenght", ws[0].Path)
	assert.Equal(t, "output_schema", ws[1].Field)
	assert.Contains(t, ws[1].String(), "output_schema: $.properties.n.maximun")
	data, err := json.Marshal(ws[0])
	require.NoError(t, err)
	assert.Contains(t, string(data), `"field":"parameters_schema","path":"$.properties.topic.minLenght","keyword":"minLenght"`)
}

func TestAccessorsReturnCopies(t *testing.T) {
	b := loadAgent(t, "code-analyzer")
	assert.Equal(t, "Scans a code base for vulnerabilities and says when it is done", b.Description())
	o := b.DefaultOutputOptions()
	*o.MaxRetries = 99
	*o.ExtractJSON = false
	assert.Equal(t, 3, *b.DefaultOutputOptions().MaxRetries, "the blueprint's options are not shared")
	assert.True(t, *b.DefaultOutputOptions().ExtractJSON)

	strict, err := blueprint.Parse([]byte(`{"name":"s","default_output_schema_options":{"strict_json_only":true}}`))
	require.NoError(t, err)
	so := strict.DefaultOutputOptions()
	*so.StrictJSONOnly = false
	assert.True(t, *strict.DefaultOutputOptions().StrictJSONOnly)

	pr := loadAgent(t, "pr-reviewer")
	tags := pr.Tags()
	tags[0] = "changed"
	assert.Equal(t, []string{"review", "git"}, pr.Tags())
	extra := pr.Extra()
	extra["tools"][0] = 'X'
	assert.Equal(t, json.RawMessage(`["git_diff","read_file"]`), pr.Extra()["tools"])
}

func TestLongValuesAreCutInMessages(t *testing.T) {
	long := strings.Repeat("é", 100)
	_, err := blueprint.Parse([]byte(`{"name":"a","type":"` + long + `"}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "…")
	assert.Less(t, len(err.Error()), 200)
	assert.True(t, utf8.ValidString(err.Error()), "cut on a rune boundary")
}

func TestSchemaIndentation(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{name: "nested block moves to the margin", doc: "{\"name\":\"a\",\n  \"output_schema\": {\n    \"type\": \"object\",\n    \"properties\": {}\n  }\n}",
			want: "{\n  \"type\": \"object\",\n  \"properties\": {}\n}"},
		{name: "uneven indentation kept", doc: "{\"name\":\"a\",\n  \"output_schema\": {\n\"type\": \"object\",\n    \"properties\": {}\n  }\n}",
			want: "{\n\"type\": \"object\",\n    \"properties\": {}\n  }"},
		{name: "one line kept", doc: `{"name":"a","output_schema":{"type":"object","properties":{}}}`,
			want: `{"type":"object","properties":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := blueprint.Parse([]byte(tt.doc))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(b.OutputSchema().JSON()))
		})
	}
}

// An output schema whose root only refers to its definition is judged by
// the schema it names: an object with properties, so it loads.
func TestParseOutputSchemaRootRef(t *testing.T) {
	for _, doc := range []string{
		`{"name":"a","output_schema":{"$ref":"#/$defs/review","$defs":{"review":{"type":"object","properties":{"summary":{"type":"string"}}}}}}`,
		`{"name":"a","output_schema":{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/review","definitions":{"review":{"type":"object","properties":{"summary":{"type":"string"}}}}}}`,
	} {
		bp, err := blueprint.Parse([]byte(doc))
		require.NoError(t, err, doc)
		require.NotNil(t, bp.OutputSchema())
		assert.Equal(t, []string{"summary"}, bp.OutputSchema().PropertyOrder())
	}
}

func TestUnknownFields(t *testing.T) {
	got, err := blueprint.UnknownFields([]byte(`{"name": "a", "system_promt": "x", "max_retries": 2, "validaton_mode": "lenient", "owner": "me", "tags": []}`))
	require.NoError(t, err)
	assert.Equal(t, []blueprint.UnknownField{
		{Name: "system_promt", Hint: "system_prompt"},
		{Name: "max_retries", Hint: "default_output_schema_options.max_retries"},
		{Name: "validaton_mode", Hint: "default_output_schema_options.validation_mode"},
		{Name: "owner"},
	}, got)
	_, err = blueprint.UnknownFields([]byte(`[1]`))
	var fe *blueprint.FieldError
	assert.ErrorAs(t, err, &fe)
	none, err := blueprint.UnknownFields([]byte(`{"name": "a"}`))
	require.NoError(t, err)
	assert.Empty(t, none)
}
