// Package schema compiles JSON Schemas (draft 2020-12 and draft-07) on
// github.com/google/jsonschema-go and validates values against them,
// reporting every violation with the instance path where it occurred and a
// message a language model can act on.
//
// Start with [Parse]:
//
//	s, err := schema.Parse([]byte(`{"type":"object","required":["summary"]}`))
//	if err != nil { ... } // *InvalidSchemaError: where in the schema, and why
//	for _, v := range s.Validate(value) {
//		fmt.Println(v.Path, v.Message) // $ 'summary' is a required property
//	}
//
// A [*Schema] is immutable and safe for concurrent use: compile it once and
// share it.
package schema
