package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

func TestParseKeepsAuthorBytes(t *testing.T) {
	src := []byte(`{ "type": "object",  "properties": {"b": {}, "a": {}} }`)
	s, err := schema.Parse(src)
	require.NoError(t, err)
	assert.Equal(t, src, s.JSON())
	assert.Equal(t, `{"type":"object","properties":{"b":{},"a":{}}}`, string(s.Minified()))
	assert.Equal(t, []string{"b", "a"}, s.PropertyOrder())
	assert.Equal(t, []string{"object"}, s.Types())
}

func TestValidateKeywords(t *testing.T) {
	tests := []struct {
		name     string
		schema   string
		instance string
		want     []schema.Violation
	}{
		{name: "type", schema: `{"type":"integer"}`, instance: `"5"`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "type", SchemaPath: "/type", Message: "expected integer, got string \"5\""},
		}},
		{name: "type list", schema: `{"type":["string","null"]}`, instance: `5`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "type", SchemaPath: "/type", Message: "expected string or null, got integer 5"},
		}},
		{name: "enum", schema: `{"enum":["high","medium","low"]}`, instance: `"critical"`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "enum", SchemaPath: "/enum", Message: "'critical' is not one of ['high', 'medium', 'low']"},
		}},
		{name: "const", schema: `{"const":"x"}`, instance: `"y"`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "const", SchemaPath: "/const", Message: "expected 'x', got 'y'"},
		}},
		{name: "required", schema: `{"required":["summary"]}`, instance: `{}`, want: []schema.Violation{
			{Path: "$.summary", Pointer: "/summary", Keyword: "required", SchemaPath: "/required", Message: "'summary' is a required property"},
		}},
		{name: "additionalProperties", schema: `{"properties":{"a":{}},"additionalProperties":false}`, instance: `{"a":1,"extra":2}`, want: []schema.Violation{
			{Path: "$.extra", Pointer: "/extra", Keyword: "additionalProperties", SchemaPath: "/additionalProperties", Message: "additional property 'extra' is not allowed (allowed: 'a')"},
		}},
		{name: "additionalProperties schema", schema: `{"additionalProperties":{"type":"string"}}`, instance: `{"x":1}`, want: []schema.Violation{
			{Path: "$.x", Pointer: "/x", Keyword: "type", SchemaPath: "/additionalProperties/type", Message: "expected string, got integer 1"},
		}},
		{name: "patternProperties", schema: `{"patternProperties":{"^n_":{"type":"number"}}}`, instance: `{"n_a":"x"}`, want: []schema.Violation{
			{Path: "$.n_a", Pointer: "/n_a", Keyword: "type", SchemaPath: "/patternProperties/^n_/type", Message: "expected number, got string \"x\""},
		}},
		{name: "propertyNames", schema: `{"propertyNames":{"pattern":"^[a-z]+$"}}`, instance: `{"Foo":1}`, want: []schema.Violation{
			{Path: "$.Foo", Pointer: "/Foo", Keyword: "propertyNames", SchemaPath: "/propertyNames", Message: "property name 'Foo' is not allowed: 'Foo' does not match the pattern '^[a-z]+$'"},
		}},
		{name: "minProperties", schema: `{"minProperties":2}`, instance: `{"a":1}`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "minProperties", SchemaPath: "/minProperties", Message: "the object has 1 property, fewer than the minimum of 2"},
		}},
		{name: "maxProperties", schema: `{"maxProperties":1}`, instance: `{"a":1,"b":2}`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "maxProperties", SchemaPath: "/maxProperties", Message: "the object has 2 properties, more than the maximum of 1"},
		}},
		{name: "items, every bad item", schema: `{"items":{"type":"string"}}`, instance: `["a",1,"b",2]`, want: []schema.Violation{
			{Path: "$[1]", Pointer: "/1", Keyword: "type", SchemaPath: "/items/type", Message: "expected string, got integer 1"},
			{Path: "$[3]", Pointer: "/3", Keyword: "type", SchemaPath: "/items/type", Message: "expected string, got integer 2"},
		}},
		{name: "items false after prefixItems", schema: `{"prefixItems":[{"type":"string"}],"items":false}`, instance: `["a","b"]`, want: []schema.Violation{
			{Path: "$[1]", Pointer: "/1", Keyword: "items", SchemaPath: "/items", Message: "unexpected item: the array may have at most 1 item"},
		}},
		{name: "additionalItems false", schema: `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`, instance: `["a","b"]`, want: []schema.Violation{
			{Path: "$[1]", Pointer: "/1", Keyword: "additionalItems", SchemaPath: "/additionalItems", Message: "unexpected item: the array may have at most 1 item"},
		}},
		{name: "draft-07 detected from array items", schema: `{"items":[{"type":"string"}],"additionalItems":{"type":"integer"}}`, instance: `["a","b"]`, want: []schema.Violation{
			{Path: "$[1]", Pointer: "/1", Keyword: "type", SchemaPath: "/additionalItems/type", Message: "expected integer, got string \"b\""},
		}},
		{name: "contains", schema: `{"contains":{"type":"integer"}}`, instance: `["a"]`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "contains", SchemaPath: "/contains", Message: "the array must contain an item that matches {\"type\":\"integer\"}"},
		}},
		{name: "minContains", schema: `{"contains":{"type":"integer"},"minContains":2}`, instance: `["a",1]`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "minContains", SchemaPath: "/minContains", Message: "the array has 1 item matching {\"type\":\"integer\"}, fewer than the minimum of 2"},
		}},
		{name: "maxContains", schema: `{"contains":{"type":"integer"},"maxContains":1}`, instance: `[1,2]`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "maxContains", SchemaPath: "/maxContains", Message: "the array has 2 items matching {\"type\":\"integer\"}, more than the maximum of 1"},
		}},
		{name: "minItems", schema: `{"minItems":2}`, instance: `[1]`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "minItems", SchemaPath: "/minItems", Message: "the array has 1 item, fewer than the minimum of 2"},
		}},
		{name: "maxItems", schema: `{"maxItems":1}`, instance: `[1,2]`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "maxItems", SchemaPath: "/maxItems", Message: "the array has 2 items, more than the maximum of 1"},
		}},
		{name: "uniqueItems", schema: `{"uniqueItems":true}`, instance: `[1,2,1.0]`, want: []schema.Violation{
			{Path: "$[2]", Pointer: "/2", Keyword: "uniqueItems", SchemaPath: "/uniqueItems", Message: "items must be unique, but this item equals item 0: 1"},
		}},
		{name: "minLength", schema: `{"minLength":3}`, instance: `"ab"`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "minLength", SchemaPath: "/minLength", Message: "'ab' is too short: 2 characters, at least 3 required"},
		}},
		{name: "maxLength", schema: `{"maxLength":3}`, instance: `"abcd"`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "maxLength", SchemaPath: "/maxLength", Message: "'abcd' is too long: 4 characters, at most 3 allowed"},
		}},
		{name: "pattern", schema: `{"pattern":"^[0-9]+$"}`, instance: `"12a"`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "pattern", SchemaPath: "/pattern", Message: "'12a' does not match the pattern '^[0-9]+$'"},
		}},
		{name: "minimum", schema: `{"minimum":10}`, instance: `5`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "minimum", SchemaPath: "/minimum", Message: "5 is less than the minimum of 10"},
		}},
		{name: "maximum", schema: `{"maximum":10}`, instance: `15.5`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "maximum", SchemaPath: "/maximum", Message: "15.5 is greater than the maximum of 10"},
		}},
		{name: "exclusiveMinimum", schema: `{"exclusiveMinimum":10}`, instance: `10`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "exclusiveMinimum", SchemaPath: "/exclusiveMinimum", Message: "10 must be greater than 10"},
		}},
		{name: "exclusiveMaximum", schema: `{"exclusiveMaximum":10}`, instance: `10`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "exclusiveMaximum", SchemaPath: "/exclusiveMaximum", Message: "10 must be less than 10"},
		}},
		{name: "multipleOf", schema: `{"multipleOf":2}`, instance: `7`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "multipleOf", SchemaPath: "/multipleOf", Message: "7 is not a multiple of 2"},
		}},
		{name: "allOf", schema: `{"allOf":[{"type":"object"},{"required":["a"]}]}`, instance: `{}`, want: []schema.Violation{
			{Path: "$.a", Pointer: "/a", Keyword: "required", SchemaPath: "/allOf/1/required", Message: "'a' is a required property"},
		}},
		{name: "anyOf type summary", schema: `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, instance: `true`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "anyOf", SchemaPath: "/anyOf", Message: "expected string or integer, got boolean true"},
		}},
		{name: "anyOf reports the closest branch", schema: `{"anyOf":[{"type":"string","minLength":3},{"type":"integer"}]}`, instance: `"ab"`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "minLength", SchemaPath: "/anyOf/0/minLength", Message: "'ab' is too short: 2 characters, at least 3 required"},
		}},
		{name: "oneOf discriminated by const", schema: `{"oneOf":[{"type":"object","properties":{"kind":{"const":"a"},"x":{"type":"string"}},"required":["kind","x"]},{"type":"object","properties":{"kind":{"const":"b"},"y":{"type":"integer"}},"required":["kind","y"]}]}`, instance: `{"kind":"b","y":"no"}`, want: []schema.Violation{
			{Path: "$.y", Pointer: "/y", Keyword: "type", SchemaPath: "/oneOf/1/properties/y/type", Message: "expected integer, got string \"no\""},
		}},
		{name: "oneOf matches two", schema: `{"oneOf":[{"type":"integer"},{"minimum":0}]}`, instance: `5`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "oneOf", SchemaPath: "/oneOf", Message: "the value matches 2 of the alternatives (0 and 1) but must match exactly one"},
		}},
		{name: "not", schema: `{"not":{"type":"string"}}`, instance: `"x"`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "not", SchemaPath: "/not", Message: "the value must not match {\"type\":\"string\"}"},
		}},
		{name: "if then", schema: `{"if":{"properties":{"kind":{"const":"a"}}},"then":{"required":["x"]},"else":{"required":["y"]}}`, instance: `{"kind":"a"}`, want: []schema.Violation{
			{Path: "$.x", Pointer: "/x", Keyword: "required", SchemaPath: "/then/required", Message: "'x' is a required property"},
		}},
		{name: "dependentRequired", schema: `{"dependentRequired":{"a":["b"]}}`, instance: `{"a":1}`, want: []schema.Violation{
			{Path: "$.b", Pointer: "/b", Keyword: "dependentRequired", SchemaPath: "/dependentRequired", Message: "'b' is required when 'a' is present"},
		}},
		{name: "dependentSchemas", schema: `{"dependentSchemas":{"a":{"required":["b"]}}}`, instance: `{"a":1}`, want: []schema.Violation{
			{Path: "$.b", Pointer: "/b", Keyword: "required", SchemaPath: "/dependentSchemas/a/required", Message: "'b' is a required property"},
		}},
		{name: "dependencies (draft-07)", schema: `{"dependencies":{"a":["b"]}}`, instance: `{"a":1}`, want: []schema.Violation{
			{Path: "$.b", Pointer: "/b", Keyword: "dependencies", SchemaPath: "/dependencies", Message: "'b' is required when 'a' is present"},
		}},
		{name: "$ref into $defs", schema: `{"$defs":{"s":{"enum":["low","high"]}},"properties":{"sev":{"$ref":"#/$defs/s"}}}`, instance: `{"sev":"mid"}`, want: []schema.Violation{
			{Path: "$.sev", Pointer: "/sev", Keyword: "enum", SchemaPath: "/$defs/s/enum", Message: "'mid' is not one of ['low', 'high']"},
		}},
		{name: "$ref with escaped pointer tokens", schema: `{"$defs":{"a/b~c":{"type":"string"}},"properties":{"x":{"$ref":"#/$defs/a~1b~0c"}}}`, instance: `{"x":1}`, want: []schema.Violation{
			{Path: "$.x", Pointer: "/x", Keyword: "type", SchemaPath: "/$defs/a~1b~0c/type", Message: "expected string, got integer 1"},
		}},
		{name: "$ref into definitions (a vulnerability schema)", schema: `{"definitions":{"v":{"type":"object","required":["id"]}},"type":"object","properties":{"vulns":{"type":"array","items":{"$ref":"#/definitions/v"}}}}`, instance: `{"vulns":[{}]}`, want: []schema.Violation{
			{Path: "$.vulns[0].id", Pointer: "/vulns/0/id", Keyword: "required", SchemaPath: "/definitions/v/required", Message: "'id' is a required property"},
		}},
		{name: "unevaluatedProperties", schema: `{"properties":{"a":{}},"unevaluatedProperties":false}`, instance: `{"a":1,"b":2}`, want: []schema.Violation{
			{Path: "$.b", Pointer: "/b", Keyword: "unevaluatedProperties", SchemaPath: "/unevaluatedProperties", Message: "additional property 'b' is not allowed (allowed: 'a')"},
		}},
		{name: "unevaluatedItems", schema: `{"prefixItems":[{}],"unevaluatedItems":false}`, instance: `[1,2]`, want: []schema.Violation{
			{Path: "$[1]", Pointer: "/1", Keyword: "unevaluatedItems", SchemaPath: "/unevaluatedItems", Message: "unexpected item 2: no schema allows an item at this position"},
		}},
		{name: "false schema", schema: `false`, instance: `1`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "false", SchemaPath: "", Message: "no value is allowed here"},
		}},
		{name: "paths of odd keys", schema: `{"properties":{"odd key":{"type":"string"},"a/b":{"type":"string"}}}`, instance: `{"odd key":1,"a/b":2}`, want: []schema.Violation{
			{Path: "$['odd key']", Pointer: "/odd key", Keyword: "type", SchemaPath: "/properties/odd key/type", Message: "expected string, got integer 1"},
			{Path: "$['a/b']", Pointer: "/a~1b", Keyword: "type", SchemaPath: "/properties/a~1b/type", Message: "expected string, got integer 2"},
		}},
		{name: "$dynamicRef", schema: `{"$dynamicAnchor":"n","type":"object","properties":{"c":{"items":{"$dynamicRef":"#n"}}}}`, instance: `{"c":[1]}`, want: []schema.Violation{
			{Path: "$.c[0]", Pointer: "/c/0", Keyword: "type", SchemaPath: "/type", Message: "expected object, got integer 1"},
		}},
		{name: "anyOf picks the branch with fewest misses", schema: `{"anyOf":[{"type":"object","required":["a","b","c"]},{"type":"object","required":["d"]}]}`, instance: `{}`, want: []schema.Violation{
			{Path: "$.d", Pointer: "/d", Keyword: "required", SchemaPath: "/anyOf/1/required", Message: "'d' is a required property"},
		}},
		{name: "oneOf of constants", schema: `{"oneOf":[{"const":"a"},{"const":"b"}]}`, instance: `"c"`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "oneOf", SchemaPath: "/oneOf", Message: "expected 'a' or 'b', got 'c'"},
		}},
		{name: "anyOf of enum and null", schema: `{"anyOf":[{"enum":["x","y"]},{"type":"null"}]}`, instance: `"z"`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "anyOf", SchemaPath: "/anyOf", Message: "expected 'x', 'y' or null, got 'z'"},
		}},
		{name: "anyOf in items", schema: `{"items":{"anyOf":[{"type":"string"},{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}]}}`, instance: `["ok",{"n":"1"},5]`, want: []schema.Violation{
			{Path: "$[1].n", Pointer: "/1/n", Keyword: "type", SchemaPath: "/items/anyOf/1/properties/n/type", Message: "expected integer, got string \"1\""},
			{Path: "$[2]", Pointer: "/2", Keyword: "anyOf", SchemaPath: "/items/anyOf", Message: "expected string or object, got integer 5"},
		}},
		{name: "$dynamicRef resolved in the dynamic scope", schema: `{"$id":"https://e.com/strict","$dynamicAnchor":"node","$ref":"tree","unevaluatedProperties":false,"$defs":{"tree":{"$id":"https://e.com/tree","$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}}}}}}`, instance: `{"kids":[{"x":1}]}`, want: []schema.Violation{
			{Path: "$.kids[0].x", Pointer: "/kids/0/x", Keyword: "unevaluatedProperties", SchemaPath: "/unevaluatedProperties", Message: "additional property 'x' is not allowed"},
		}},
		{name: "const object", schema: `{"const":{"a":[1,2]}}`, instance: `{"a":[1,3]}`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "const", SchemaPath: "/const", Message: "expected {'a': [1, 2]}, got {'a': [1, 3]}"},
		}},
		{name: "long enum cut short", schema: `{"enum":[1,2,3,4,5,6,7,8,9,10,11,12,13,14]}`, instance: `0`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "enum", SchemaPath: "/enum", Message: "0 is not one of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, … (2 more)]"},
		}},
		{name: "type and minimum both reported", schema: `{"type":"integer","minimum":3}`, instance: `2.5`, want: []schema.Violation{
			{Path: "$", Pointer: "", Keyword: "type", SchemaPath: "/type", Message: "expected integer, got number 2.5"},
			{Path: "$", Pointer: "", Keyword: "minimum", SchemaPath: "/minimum", Message: "2.5 is less than the minimum of 3"},
		}},
		{name: "valid", schema: `{"type":"object","properties":{"a":{"type":"string"}}}`, instance: `{"a":"x","b":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			got, err := s.ValidateJSON([]byte(tt.instance))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestValidateSeedReview(t *testing.T) {
	s, err := schema.Parse([]byte(`{
		"type": "object",
		"required": ["summary", "issues"],
		"properties": {
			"summary": {"type": "string"},
			"issues": {"type": "array", "items": {
				"type": "object",
				"required": ["severity"],
				"properties": {"severity": {"enum": ["high", "medium", "low"]}}
			}}
		}
	}`))
	require.NoError(t, err)
	got, err := s.ValidateJSON([]byte(`{"issues": [{"severity": "critical"}]}`))
	require.NoError(t, err)
	assert.Equal(t, []schema.Violation{
		{Path: "$.issues[0].severity", Pointer: "/issues/0/severity", Keyword: "enum",
			SchemaPath: "/properties/issues/items/properties/severity/enum", Message: "'critical' is not one of ['high', 'medium', 'low']"},
		{Path: "$.summary", Pointer: "/summary", Keyword: "required", SchemaPath: "/required", Message: "'summary' is a required property"},
	}, got)
	assert.Equal(t, "$.issues[0].severity: 'critical' is not one of ['high', 'medium', 'low']\n$.summary: 'summary' is a required property",
		schema.Violations(got).Error())

	got, err = s.ValidateJSON([]byte(`{"summary": "ok", "issues": []}`))
	require.NoError(t, err)
	assert.Empty(t, got)

	_, err = s.ValidateJSON([]byte(`{"summary": `))
	assert.ErrorIs(t, err, schema.ErrNotJSON)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		path   string
		reason string
		is     error
	}{
		{name: "type is a number", schema: `{"type": 5}`, path: "$.type", reason: "type must be a type name or an array of them, not number 5"},
		{name: "type typo", schema: `{"properties": {"a": {"type": "strin"}}}`, path: "$.properties.a.type", reason: "did you mean 'string'?"},
		{name: "required is a string", schema: `{"required": "x"}`, path: "$.required", reason: "required must be an array of strings, not string 'x'"},
		{name: "negative minLength", schema: `{"minLength": -1}`, path: "$.minLength", reason: "minLength must be a non-negative integer, not -1"},
		{name: "fractional maxItems", schema: `{"maxItems": 1.5}`, path: "$.maxItems", reason: "maxItems must be a non-negative integer, not 1.5"},
		{name: "enum not an array", schema: `{"properties": {"severity": {"enum": "high"}}}`, path: "$.properties.severity.enum", reason: "enum must be an array, not string 'high'"},
		{name: "malformed JSON", schema: `{"type": "object",}`, path: "$", reason: "malformed JSON", is: schema.ErrSyntax},
		{name: "trailing data", schema: `{} {}`, path: "$", reason: "unexpected data after the top-level value", is: schema.ErrSyntax},
		{name: "ref points nowhere", schema: `{"properties": {"a": {"$ref": "#/definitions/missing"}}}`, path: "$.properties.a.$ref", reason: "points nowhere"},
		{name: "unknown anchor", schema: `{"$ref": "#nope"}`, path: "$.$ref", reason: "no anchor 'nope'"},
		{name: "remote ref refused", schema: `{"$ref": "https://example.com/s.json"}`, path: "$.$ref", reason: "no loader configured", is: schema.ErrRemoteRef},
		{name: "file ref refused", schema: `{"items": {"$ref": "file:///etc/passwd"}}`, path: "$.items.$ref", reason: "no loader configured", is: schema.ErrRemoteRef},
		{name: "relative ref refused", schema: `{"$ref": "other.json"}`, path: "$.$ref", reason: "no loader configured", is: schema.ErrRemoteRef},
		{name: "unsupported $schema", schema: `{"$schema": "https://example.com/meta"}`, path: "$.$schema", reason: "unsupported $schema", is: schema.ErrUnsupportedDraft},
		{name: "ref cycle", schema: `{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}`, path: "$.$defs.a", reason: "loop", is: schema.ErrRefCycle},
		{name: "bad pattern", schema: `{"pattern": "(?!x)"}`, path: "$.pattern", reason: "not a regular expression Go supports"},
		{name: "bad patternProperties key", schema: `{"patternProperties": {"[": {}}}`, path: "$.patternProperties['[']", reason: "not a regular expression"},
		{name: "array items under 2020-12", schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "items": [{}]}`, path: "$.items", reason: "use prefixItems"},
		{name: "subschema not an object", schema: `{"properties": {"a": 5}}`, path: "$.properties.a", reason: "a schema must be an object or a boolean, not number 5"},
		{name: "empty anyOf", schema: `{"anyOf": []}`, path: "$.anyOf", reason: "anyOf must not be empty"},
		{name: "too deep", schema: strings.Repeat(`{"not":`, 300) + `{}` + strings.Repeat(`}`, 300), reason: "nested more than 256 levels deep", is: schema.ErrLimit},
		{name: "too large", schema: `{"description": "` + strings.Repeat("x", 9<<20) + `"}`, path: "$", reason: "more than the limit", is: schema.ErrLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.Error(t, err)
			assert.Nil(t, s)
			var ie *schema.InvalidSchemaError
			require.ErrorAs(t, err, &ie)
			if tt.path != "" {
				assert.Equal(t, tt.path, ie.Path)
			}
			assert.Contains(t, ie.Reason, tt.reason)
			assert.True(t, strings.HasPrefix(err.Error(), "schema: invalid schema at "), err.Error())
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
		})
	}
}

func TestDrafts(t *testing.T) {
	tests := []struct {
		name     string
		schema   string
		instance string
		valid    bool
	}{
		{name: "2020-12 with trailing #", schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema#", "type": "string"}`, instance: `"x"`, valid: true},
		{name: "2020-12 over http", schema: `{"$schema": "http://json-schema.org/draft/2020-12/schema", "type": "string"}`, instance: `5`},
		{name: "draft-07 without #", schema: `{"$schema": "http://json-schema.org/draft-07/schema", "type": "string"}`, instance: `"x"`, valid: true},
		{name: "draft-07 https", schema: `{"$schema": "https://json-schema.org/draft-07/schema#", "items": [{"type": "string"}], "additionalItems": false}`, instance: `["a", "b"]`},
		{name: "draft-07 detected from dependencies", schema: `{"dependencies": {"a": ["b"]}}`, instance: `{"a": 1}`},
		{name: "draft-07 detected from array items", schema: `{"items": [{"type": "integer"}]}`, instance: `["x"]`},
		{name: "draft-07 ignores siblings of $ref", schema: `{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "minLength": 5}`, instance: `"ab"`, valid: true},
		{name: "2020-12 applies siblings of $ref", schema: `{"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "minLength": 5}`, instance: `"ab"`},
		{name: "draft-06 read as draft-07", schema: `{"$schema": "http://json-schema.org/draft-06/schema#", "items": [{"type": "integer"}]}`, instance: `["x"]`},
		{name: "draft-04 exclusiveMaximum true", schema: `{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 10, "exclusiveMaximum": true}`, instance: `10`},
		{name: "draft-04 exclusiveMinimum false", schema: `{"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 10, "exclusiveMinimum": false}`, instance: `10`, valid: true},
		{name: "definitions under 2020-12", schema: `{"definitions": {"s": {"enum": ["a"]}}, "properties": {"x": {"$ref": "#/definitions/s"}}}`, instance: `{"x": "b"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			got, err := s.ValidateJSON([]byte(tt.instance))
			require.NoError(t, err)
			assert.Equal(t, tt.valid, len(got) == 0, "%v", got)
		})
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []schema.Warning
	}{
		{name: "typo", schema: `{"properties": {"name": {"type": "string", "minLenght": 1}}}`, want: []schema.Warning{
			{Path: "$.properties.name.minLenght", Keyword: "minLenght", Message: "unknown keyword 'minLenght' is ignored (did you mean 'minLength'?)"},
		}},
		{name: "unknown without suggestion", schema: `{"discriminator": {"propertyName": "kind"}, "x-order": 1}`, want: []schema.Warning{
			{Path: "$.discriminator", Keyword: "discriminator", Message: "unknown keyword 'discriminator' is ignored"},
		}},
		{name: "draft-07 keyword under 2020-12", schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "dependencies": {"a": ["b"]}}`, want: []schema.Warning{
			{Path: "$.dependencies", Keyword: "dependencies", Message: "dependencies is a draft-07 keyword and is ignored under draft 2020-12; use dependentRequired or dependentSchemas"},
		}},
		{name: "sibling of $ref under draft-07", schema: `{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {}}, "$ref": "#/definitions/s", "type": "string", "description": "kept"}`, want: []schema.Warning{
			{Path: "$.type", Keyword: "type", Message: "type is ignored beside $ref under draft-07; wrap both in allOf to apply them"},
		}},
		{name: "duplicate keys", schema: `{"type": "string", "properties": {"a": {}, "a": {"type": "integer"}}, "type": "object"}`, want: []schema.Warning{
			{Path: "$.type", Keyword: "type", Message: "'type' appears more than once; only the last one counts"},
			{Path: "$.properties.a", Keyword: "a", Message: "'a' appears more than once; only the last one counts"},
		}},
		{name: "unsatisfiable required", schema: `{"properties": {"a": {}}, "required": ["a", "b"], "additionalProperties": false}`, want: []schema.Warning{
			{Path: "$.required", Keyword: "required", Message: "'b' is required but not declared in properties, and additionalProperties is false: no object can be valid"},
		}},
		{name: "clean", schema: `{"type": "object", "title": "t", "properties": {"a": {"format": "date-time"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			assert.Equal(t, tt.want, s.Warnings())
		})
	}
}

func TestParseWithLoader(t *testing.T) {
	docs := map[string]string{
		"https://example.com/severity.json": `{"enum": ["low", "high"]}`,
		"https://example.com/issue.json":    `{"type": "object", "properties": {"severity": {"$ref": "severity.json"}}}`,
	}
	var calls []string
	load := func(uri string) ([]byte, error) {
		calls = append(calls, uri)
		d, ok := docs[uri]
		if !ok {
			return nil, fmt.Errorf("no document %s", uri)
		}
		return []byte(d), nil
	}
	src := []byte(`{"type": "array", "items": {"$ref": "https://example.com/issue.json"}}`)

	_, err := schema.Parse(src)
	require.ErrorIs(t, err, schema.ErrRemoteRef)

	s, err := schema.ParseWith(src, &schema.ParseOptions{Loader: load})
	require.NoError(t, err)
	assert.Equal(t, []string{"https://example.com/issue.json", "https://example.com/severity.json"}, calls)
	got, err := s.ValidateJSON([]byte(`[{"severity": "mid"}]`))
	require.NoError(t, err)
	assert.Equal(t, []schema.Violation{{Path: "$[0].severity", Pointer: "/0/severity", Keyword: "enum",
		SchemaPath: "https://example.com/severity.json#/enum", Message: "'mid' is not one of ['low', 'high']"}}, got)

	_, err = schema.ParseWith([]byte(`{"$ref": "https://example.com/missing.json"}`), &schema.ParseOptions{Loader: load})
	var ie *schema.InvalidSchemaError
	require.ErrorAs(t, err, &ie)
	assert.ErrorIs(t, err, schema.ErrRemoteRef)
	assert.Equal(t, "$.$ref", ie.Path)
	assert.Contains(t, ie.Reason, "no document https://example.com/missing.json")
}

func TestMarshalRoundTrip(t *testing.T) {
	type entry struct {
		Name   string         `json:"name"`
		Schema *schema.Schema `json:"schema"`
	}
	in := []byte(`{"name":"r","schema":{"type":"object","properties":{"z":{},"a":{}}}}`)
	var e entry
	require.NoError(t, json.Unmarshal(in, &e))
	require.NotNil(t, e.Schema)
	assert.Equal(t, []string{"z", "a"}, e.Schema.PropertyOrder())
	out, err := json.Marshal(e)
	require.NoError(t, err)
	assert.JSONEq(t, string(in), string(out))
	assert.Equal(t, string(in), string(out))

	byValue, err := json.Marshal(map[string]schema.Schema{"s": *e.Schema})
	require.NoError(t, err)
	assert.Equal(t, `{"s":{"type":"object","properties":{"z":{},"a":{}}}}`, string(byValue))

	var fresh entry
	err = json.Unmarshal([]byte(`{"name":"r","schema":{"type":"strin"}}`), &fresh)
	var ie *schema.InvalidSchemaError
	assert.ErrorAs(t, err, &ie)

	// Decoding again into e would overwrite the schema e points to, which
	// others may share: refused, and the schema is unchanged.
	err = json.Unmarshal([]byte(`{"name":"r","schema":{"type":"string"}}`), &e)
	assert.ErrorIs(t, err, schema.ErrImmutable)
	assert.Equal(t, []string{"z", "a"}, e.Schema.PropertyOrder())
}

func TestNewAndFor(t *testing.T) {
	type review struct {
		Summary string   `json:"summary"`
		Tags    []string `json:"tags,omitempty"`
	}
	s, err := schema.For[review]()
	require.NoError(t, err)
	assert.Equal(t, []string{"summary", "tags"}, s.PropertyOrder())
	assert.Equal(t, []string{"object"}, s.Types())
	got := s.Validate(map[string]any{"summary": 5.0})
	assert.Equal(t, []schema.Violation{{Path: "$.summary", Pointer: "/summary", Keyword: "type",
		SchemaPath: "/properties/summary/type", Message: "expected string, got integer 5"}}, got)

	js := &jsonschema.Schema{Types: []string{"string", "null"}}
	s, err = schema.New(js)
	require.NoError(t, err)
	assert.Equal(t, []string{"string", "null"}, s.Types())
	assert.Empty(t, s.Validate(nil))

	_, err = schema.New(nil)
	assert.Error(t, err)
}

func TestRootRefFollowed(t *testing.T) {
	s, err := schema.Parse([]byte(`{"$ref": "#/$defs/in", "$defs": {"in": {"type": "object", "properties": {"z": {}, "a": {}}}}}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"z", "a"}, s.PropertyOrder())
	assert.Equal(t, []string{"object"}, s.Types())

	s, err = schema.Parse([]byte(`{"description": "anything"}`))
	require.NoError(t, err)
	assert.Nil(t, s.PropertyOrder())
	assert.Nil(t, s.Types())

	// An empty "properties" is declared, unlike an absent one.
	s, err = schema.Parse([]byte(`{"$ref": "#/$defs/in", "$defs": {"in": {"type": "object", "properties": {}}}}`))
	require.NoError(t, err)
	assert.NotNil(t, s.PropertyOrder())
	assert.Empty(t, s.PropertyOrder())
}

func TestZeroSchema(t *testing.T) {
	var s *schema.Schema
	assert.Empty(t, s.Validate(1.0))
	assert.Equal(t, "true", string(s.JSON()))
	var z schema.Schema
	assert.Empty(t, z.Validate("x"))
	assert.Nil(t, z.PropertyOrder())
	assert.Nil(t, z.Types())
}

func TestValidateGoValues(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}}`))
	require.NoError(t, err)
	got := s.Validate(map[string]int{"n": 5})
	assert.Equal(t, []schema.Violation{{Path: "$.n", Pointer: "/n", Keyword: "maximum",
		SchemaPath: "/properties/n/maximum", Message: "5 is greater than the maximum of 3"}}, got)

	// jsonschema-go refuses structs; the violation then carries its message.
	got = s.Validate(struct{ N int }{N: 1})
	require.Len(t, got, 1)
	assert.Equal(t, "$", got[0].Path)
	assert.Contains(t, got[0].Message, "struct")
}

func TestValidateDeepInstance(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "array", "items": {"$ref": "#"}}`))
	require.NoError(t, err)
	deep := strings.Repeat("[", 2500) + "1" + strings.Repeat("]", 2500)
	got, err := s.ValidateJSON([]byte(deep))
	require.NoError(t, err)
	require.Len(t, got, 1, "refused once, at the depth limit, before jsonschema-go sees it")
	assert.Equal(t, "maxDepth", got[0].Keyword)
	assert.Contains(t, got[0].Message, "nests more than 128 levels deep")
}

func TestValidateConcurrent(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "object", "required": ["a"], "properties": {"b": {"enum": [1, 2]}}}`))
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				got := s.Validate(map[string]any{"b": 3.0})
				assert.Len(t, got, 2)
				// Decode and ValidateJSON keep scratch space in a pool
				// of the schema's: each call must see only its own.
				doc := fmt.Sprintf(`{"a":[%d,{"x":"%d"}],"b":%d}`, i, i, 1+i%3)
				v, vs, err := s.DecodeString(doc)
				require.NoError(t, err)
				assert.Equal(t, map[string]any{"a": []any{float64(i), map[string]any{"x": fmt.Sprint(i)}}, "b": float64(1 + i%3)}, v)
				assert.Equal(t, i%3 == 2, len(vs) == 1, doc)
				jvs, err := s.ValidateJSON([]byte(doc))
				require.NoError(t, err)
				assert.Equal(t, vs, jvs)
			}
		}()
	}
	wg.Wait()
}

func TestInvalidSchemaErrorUnwrap(t *testing.T) {
	cause := errors.New("cause")
	err := error(&schema.InvalidSchemaError{Path: "$.a", Reason: "bad", Err: cause})
	assert.ErrorIs(t, err, cause)
	assert.Equal(t, "schema: invalid schema at $.a: bad", err.Error())
}

// TestSchemaImmutable: decoding into a compiled Schema fails and leaves it
// as it was; decoding into a new one (a *Schema field) compiles.
func TestSchemaImmutable(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"integer"}`))
	require.NoError(t, err)
	shared := s
	err = json.Unmarshal([]byte(`{"type":"string"}`), s)
	require.ErrorIs(t, err, schema.ErrImmutable)
	assert.Empty(t, shared.Validate(3.0), "the shared schema still wants an integer")
	assert.NotEmpty(t, shared.Validate("x"))

	var doc struct {
		S *schema.Schema `json:"s"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"s": {"type":"string"}}`), &doc))
	assert.Empty(t, doc.S.Validate("x"))
	var bad struct {
		S *schema.Schema `json:"s"`
	}
	var ise *schema.InvalidSchemaError
	assert.ErrorAs(t, json.Unmarshal([]byte(`{"s": {"type":"strin"}}`), &bad), &ise)
}
