package schema_test

import (
	"errors"
	"fmt"

	"github.com/agentio/agentio/schema"
)

func ExampleParse() {
	s, err := schema.Parse([]byte(`{
		"type": "object",
		"required": ["summary"],
		"properties": {"severity": {"enum": ["high", "medium", "low"]}}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.PropertyOrder(), s.Types())
	// Output: [severity] [object]
}

func ExampleParse_invalid() {
	_, err := schema.Parse([]byte(`{"properties": {"severity": {"type": "strin"}}}`))
	var ie *schema.InvalidSchemaError
	if errors.As(err, &ie) {
		fmt.Println(ie.Path)
		fmt.Println(ie.Reason)
	}
	// Output:
	// $.properties.severity.type
	// type value 'strin' is not a JSON Schema type (one of array, boolean, integer, null, number, object, string); did you mean 'string'?
}

func ExampleParseWith() {
	docs := map[string]string{"https://example.com/tag.json": `{"type": "string", "maxLength": 3}`}
	load := func(uri string) ([]byte, error) {
		if d, ok := docs[uri]; ok {
			return []byte(d), nil
		}
		return nil, fmt.Errorf("unknown document %s", uri)
	}
	s, err := schema.ParseWith([]byte(`{"items": {"$ref": "https://example.com/tag.json"}}`), &schema.ParseOptions{Loader: load})
	if err != nil {
		fmt.Println(err)
		return
	}
	vs, _ := s.ValidateJSON([]byte(`["ok", "toolong"]`))
	fmt.Println(schema.Violations(vs))
	// Output: $[1]: 'toolong' is too long: 7 characters, at most 3 allowed
}

func ExampleSchema_Validate() {
	s, _ := schema.Parse([]byte(`{
		"type": "object",
		"required": ["summary", "issues"],
		"properties": {
			"summary": {"type": "string"},
			"issues": {"type": "array", "items": {
				"type": "object",
				"properties": {"severity": {"enum": ["high", "medium", "low"]}, "line": {"type": "integer"}}
			}}
		}
	}`))
	value := map[string]any{"issues": []any{map[string]any{"severity": "critical", "line": "5"}}}
	for _, v := range s.Validate(value) {
		fmt.Printf("%s (%s): %s\n", v.Path, v.Keyword, v.Message)
	}
	// Output:
	// $.issues[0].severity (enum): 'critical' is not one of ['high', 'medium', 'low']
	// $.issues[0].line (type): expected integer, got string "5"
	// $.summary (required): 'summary' is a required property
}

func ExampleSchema_ValidateJSON() {
	s, _ := schema.Parse([]byte(`{"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": false}`))
	vs, err := s.ValidateJSON([]byte(`{"n": 1, "extra": true}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(vs[0].Pointer, vs[0].SchemaPath)
	fmt.Println(vs[0].Message)
	// Output:
	// /extra /additionalProperties
	// additional property 'extra' is not allowed (allowed: 'n')
}

func ExampleSchema_Warnings() {
	s, _ := schema.Parse([]byte(`{"properties": {"name": {"type": "string", "minLenght": 1}}}`))
	for _, w := range s.Warnings() {
		fmt.Println(w)
	}
	// Output: $.properties.name.minLenght: unknown keyword 'minLenght' is ignored (did you mean 'minLength'?)
}

func ExampleFor() {
	type Review struct {
		Summary string `json:"summary"`
		Score   int    `json:"score"`
	}
	s, err := schema.For[Review]()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(schema.Violations(s.Validate(map[string]any{"summary": "fine", "score": 4.5})))
	// Output: $.score: expected integer, got number 4.5
}

func ExampleSchema_Decode() {
	s, err := schema.Parse([]byte(`{"type": "object", "required": ["score"], "properties": {"score": {"type": "integer", "maximum": 10}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, violations, err := s.Decode([]byte(`{"score": 7, "note": "fine"}`))
	fmt.Println(v, violations, err)
	v, violations, _ = s.Decode([]byte(`{"score": 12}`))
	fmt.Println(v, violations)
	_, _, err = s.Decode([]byte(`{"score": 1e400}`))
	fmt.Println(errors.Is(err, schema.ErrNumberRange))
	// Output:
	// map[note:fine score:7] [] <nil>
	// map[score:12] [$.score: 12 is greater than the maximum of 10]
	// true
}

func ExampleSchema_DecodeString() {
	s, err := schema.Parse([]byte(`{"type": "array", "items": {"type": "string", "enum": ["low", "high"]}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	reply := `["low", "high", "urgent"]` // a model's reply, held as a string
	v, violations, err := s.DecodeString(reply)
	fmt.Println(v, violations, err)
	_, _, err = s.DecodeString(`["low",`)
	fmt.Println(errors.Is(err, schema.ErrNotJSON))
	// Output:
	// [low high urgent] [$[2]: 'urgent' is not one of ['low', 'high']] <nil>
	// true
}
