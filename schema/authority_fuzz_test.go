package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentio/agentio/internal/shared"
	"github.com/agentio/agentio/schema"
)

// addSuiteSeeds adds each JSON-Schema-Test-Suite schema of the drafts
// named, with each of its instances, to f's seeds, when ../shared holds
// the suite.
func addSuiteSeeds(f *testing.F, drafts ...string) {
	suiteDir, ok := shared.SuiteDir()
	if !ok {
		return
	}
	for _, dir := range drafts {
		for _, gs := range suiteGroups(f, suiteDir, dir) {
			for _, g := range gs {
				for _, tc := range g.Tests {
					inst, _ := json.Marshal(tc.Data)
					f.Add([]byte(g.Schema), inst)
				}
			}
		}
	}
}

// FuzzAuthorityAgreement checks the property Validate is built on: for a
// schema both Parse and jsonschema-go accept, and that jsonschema-go
// applies as written, Validate reports no violation exactly when
// jsonschema-go's Validate returns nil. The deliberate differences are
// outside the property by construction: documents Parse reads as draft-07
// without a $schema, $schema variants jsonschema-go does not spell, and
// the real-world readings jsonschema-go refuses. The seeds are ours; when
// ../shared is present, each JSON-Schema-Test-Suite schema is added with
// its instances.
func FuzzAuthorityAgreement(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"a":{"enum":["x","y"]}},"required":["a"],"additionalProperties":false}`), []byte(`{"a":"z","b":1}`))
	f.Add([]byte(`{"anyOf":[{"type":"string","maxLength":3},{"type":"array","items":{"type":"integer"}}]}`), []byte(`[1,"2"]`))
	f.Add([]byte(`{"$defs":{"n":{"type":"number","exclusiveMinimum":0}},"prefixItems":[{"$ref":"#/$defs/n"}],"items":false}`), []byte(`[0,1]`))
	f.Add([]byte(`{"dependentRequired":{"a":["b"]},"propertyNames":{"pattern":"^[a-z]+$"},"minProperties":1}`), []byte(`{"a":1,"B":2}`))
	f.Add([]byte(`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`), []byte(`["a",1]`))
	addSuiteSeeds(f, "draft2020-12")
	f.Fuzz(func(t *testing.T, schemaBytes, instance []byte) {
		s, err := schema.Parse(schemaBytes)
		if err != nil {
			return
		}
		var head struct {
			Schema *string `json:"$schema"`
		}
		if json.Unmarshal(schemaBytes, &head) != nil {
			return // not an object: a boolean schema, or Parse read it differently
		}
		if head.Schema != nil && !authorityDialects[*head.Schema] || head.Schema == nil && draft7Forms.Match(schemaBytes) {
			return // a deliberate difference: jsonschema-go reads the draft differently
		}
		if caseVariants(s) {
			return // a deliberate difference: jsonschema-go applies "TYPE" as "type"
		}
		var js jsonschema.Schema
		if json.Unmarshal(schemaBytes, &js) != nil {
			return
		}
		rs, err := js.Resolve(nil)
		if err != nil {
			return
		}
		var v any
		if json.Unmarshal(instance, &v) != nil {
			return
		}
		vs := s.Validate(v)
		if len(vs) == 1 && vs[0].Keyword == "maxDepth" {
			return // refused before jsonschema-go sees it
		}
		if want := rs.Validate(v) == nil; want != (len(vs) == 0) {
			t.Fatalf("jsonschema-go says valid=%v, Validate reports %v", want, vs)
		}
	})
}
