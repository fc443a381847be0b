package schema_test

import (
	"fmt"
	"log"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

// hintsSchema reaches its locations in every way Hints follows, and hides
// enums under not and if, which Hints must leave out.
const hintsSchema = `{
	"type": "object",
	"description": "the root",
	"properties": {
		"owner": {"type": "string", "default": "unassigned", "examples": ["Ada"]},
		"nothing": {"default": null},
		"status": {"anyOf": [{"enum": ["open", "closed"]}, {"const": "N/A"}]},
		"kind": {"$ref": "#/$defs/kind"},
		"pair": {"type": "array", "prefixItems": [{"description": "first"}], "items": {"description": "rest"}},
		"strict": {"type": "object", "additionalProperties": false},
		"cond": {"if": {"enum": ["x"]}, "then": {"description": "then"}, "else": {"description": "else"}, "not": {"const": "never"}},
		"both": {"allOf": [{"description": "one"}, {"description": "two"}]}
	},
	"patternProperties": {"^x-": {"description": "extension"}},
	"additionalProperties": {"description": "other"},
	"$defs": {"kind": {"const": "TBD", "description": "the kind"}}
}`

func TestHints(t *testing.T) {
	s, err := schema.Parse([]byte(hintsSchema))
	require.NoError(t, err)
	tests := []struct {
		path         string
		descriptions []string
		allowed      []any
		defaults     []any
		examples     []any
	}{
		{path: "$", descriptions: []string{"the root"}},
		{path: "$.owner", defaults: []any{"unassigned"}, examples: []any{"Ada"}},
		{path: "$.nothing", defaults: []any{nil}},
		{path: "$.status", allowed: []any{"open", "closed", "N/A"}},
		{path: "$.kind", descriptions: []string{"the kind"}, allowed: []any{"TBD"}},
		{path: "$.pair[0]", descriptions: []string{"first"}},
		{path: "$.pair[5]", descriptions: []string{"rest"}},
		{path: "$.cond", descriptions: []string{"then", "else"}},
		{path: "$.both", descriptions: []string{"one", "two"}},
		{path: "$['x-trace']", descriptions: []string{"extension"}},
		{path: "$.unknown", descriptions: []string{"other"}},
		{path: "$.strict.member"},
		{path: "$.owner.deeper"},
		{path: "not a path"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			var descriptions []string
			var allowed, defaults, examples []any
			for _, h := range s.Hints(tt.path) {
				if h.Description != "" {
					descriptions = append(descriptions, h.Description)
				}
				allowed = append(allowed, h.Allowed...)
				if h.HasDefault {
					defaults = append(defaults, h.Default)
				}
				examples = append(examples, h.Examples...)
			}
			assert.Equal(t, tt.descriptions, descriptions, "descriptions")
			assert.Equal(t, tt.allowed, allowed, "allowed")
			assert.Equal(t, tt.defaults, defaults, "defaults")
			assert.Equal(t, tt.examples, examples, "examples")
		})
	}
}

// TestHintsDraft7Tuple: draft-07's items array and additionalItems, and
// $ref hiding its siblings.
func TestHintsDraft7Tuple(t *testing.T) {
	s, err := schema.Parse([]byte(`{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"definitions": {"a": {"description": "a"}},
		"type": "array",
		"items": [{"$ref": "#/definitions/a", "description": "hidden"}],
		"additionalItems": {"description": "more"}
	}`))
	require.NoError(t, err)
	desc := func(path string) []string {
		var out []string
		for _, h := range s.Hints(path) {
			out = append(out, h.Description)
		}
		return out
	}
	assert.Equal(t, []string{"a"}, desc("$[0]"))
	assert.Equal(t, []string{"more"}, desc("$[1]"))
}

func TestHintsNil(t *testing.T) {
	var s *schema.Schema
	assert.Empty(t, s.Hints("$"))
}

// The words a schema offers the model at a place, and what it allows
// there: a reply that echoes them back may not be an answer.
func ExampleSchema_Hints() {
	s, err := schema.Parse([]byte(`{
		"type": "object",
		"properties": {
			"owner": {"type": "string", "description": "Who fixes it", "examples": ["Ada"]},
			"status": {"anyOf": [{"enum": ["open", "closed"]}, {"const": "N/A"}]}
		}
	}`))
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range s.Hints("$.owner") {
		fmt.Println(h.Description, h.Examples)
	}
	var allowed []any
	for _, h := range s.Hints("$.status") {
		allowed = append(allowed, h.Allowed...)
	}
	fmt.Println(allowed)
	// Output:
	// Who fixes it [Ada]
	// [open closed N/A]
}
