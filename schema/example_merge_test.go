package schema_test

import (
	"fmt"
	"log"

	"github.com/agentio/agentio/schema"
)

// An autonomous agent's parameters always include a prompt: MergePrompt adds
// it to the author's schema (or gives the implicit one for a nil schema).
func ExampleMergePrompt() {
	params, err := schema.Parse([]byte(`{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`))
	if err != nil {
		log.Fatal(err)
	}
	merged, err := schema.MergePrompt(params)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(merged.JSON()))

	violations, err := merged.ValidateJSON([]byte(`{"topic":"AI"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(violations) > 0)

	implicit, err := schema.MergePrompt(nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(implicit.JSON()))
	// Output:
	// {"type":"object","properties":{"topic":{"type":"string"},"prompt":{"type":"string","minLength":1}},"required":["topic","prompt"]}
	// true
	// {"type":"object","properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}
}

func ExampleMergeProperties() {
	base, err := schema.Parse([]byte("{\n  \"type\": \"object\",\n  \"properties\": {\n    \"summary\": {\"type\": \"string\"}\n  }\n}"))
	if err != nil {
		log.Fatal(err)
	}
	confidence, err := schema.Parse([]byte(`{"type":"number","minimum":0,"maximum":1}`))
	if err != nil {
		log.Fatal(err)
	}
	merged, err := schema.MergeProperties(base,
		schema.Property{Name: "confidence", Schema: confidence, Required: true},
		schema.Property{Name: "notes"},
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(merged.JSON()))
	// Output:
	// {
	//   "type": "object",
	//   "properties": {
	//     "summary": {
	//       "type": "string"
	//     },
	//     "confidence": {
	//       "type": "number",
	//       "minimum": 0,
	//       "maximum": 1
	//     },
	//     "notes": {}
	//   },
	//   "required": [
	//     "confidence"
	//   ]
	// }
}
