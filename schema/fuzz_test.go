package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentio/agentio/schema"
)

// FuzzParse checks that Parse never panics, fails only with an
// *InvalidSchemaError, keeps the author's bytes, and that for a compiled
// schema the diagnostic pass never reports violations in a value
// jsonschema-go accepts.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","required":["a"],"properties":{"a":{"enum":[1,"x",null]}}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`,
		`{"$defs":{"n":{"$dynamicAnchor":"n","items":{"$dynamicRef":"#n"}}},"$ref":"#/$defs/n"}`,
		`{"anyOf":[{"minLength":2},{"type":"integer","multipleOf":3}],"not":{"const":6}}`,
		`{"if":{"required":["k"]},"then":{"properties":{"k":{"pattern":"^a"}}},"else":false}`,
		`{"prefixItems":[{}],"unevaluatedItems":false,"contains":{"type":"null"},"maxContains":1}`,
		`{"dependentSchemas":{"a":{"unevaluatedProperties":false}},"patternProperties":{"^x":true}}`,
		`true`, `false`, `{"$ref":"#/definitions/x"}`, `{"type":"strin"}`, `[`,
	} {
		f.Add([]byte(s))
	}
	values := []any{nil, true, 0.0, 1.5, -3.0, "", "abc", []any{}, []any{"a", 1.0, nil}, map[string]any{}, map[string]any{"a": 1.0, "k": "b", "x1": []any{}}}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := schema.Parse(data)
		if err != nil {
			var ie *schema.InvalidSchemaError
			if !errors.As(err, &ie) {
				t.Fatalf("error is %T, not *InvalidSchemaError: %v", err, err)
			}
			if !strings.HasPrefix(ie.Path, "$") && !strings.Contains(ie.Path, "#$") {
				t.Fatalf("path %q is not a JSONPath", ie.Path)
			}
			return
		}
		if !bytes.Equal(s.JSON(), data) {
			t.Fatal("JSON() differs from the source")
		}
		for _, v := range values {
			vs := s.Validate(v)
			if len(vs) == 0 && schema.DiagnosticCount(s, v) != 0 {
				t.Fatalf("the diagnostic pass reports violations in a valid value %v", v)
			}
			for _, x := range vs {
				if !strings.HasPrefix(x.Path, "$") || x.Message == "" {
					t.Fatalf("malformed violation %+v", x)
				}
			}
		}
	})
}

// FuzzValidateJSON checks that ValidateJSON never panics, errs exactly on
// bytes that are not JSON, and reports located violations.
func FuzzValidateJSON(f *testing.F) {
	s, err := schema.Parse([]byte(benchSchema))
	if err != nil {
		f.Fatal(err)
	}
	for _, in := range []string{
		`{"scanner":"x","summary":"y","vulnerabilities":[{"id":"VULN-0001","severity":"high","description":"long enough text"}]}`,
		`{"scanner":"","vulnerabilities":[{"id":"bad","severity":"severe","cvss":11,"affected_files":["a","a"],"extra":1}]}`,
		`[1,2,3]`, `"str"`, `null`, `{"a":`, `{"vulnerabilities":[[],{},null,1e400]}`,
	} {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vs, err := s.ValidateJSON(data)
		if json.Valid(data) != (err == nil) {
			t.Fatalf("json.Valid=%v but err=%v", json.Valid(data), err)
		}
		if err != nil {
			if !errors.Is(err, schema.ErrNotJSON) {
				t.Fatalf("error does not wrap ErrNotJSON: %v", err)
			}
			return
		}
		var v any
		_ = json.Unmarshal(data, &v)
		if len(vs) == 0 && schema.DiagnosticCount(s, v) != 0 {
			t.Fatal("the diagnostic pass reports violations in a valid value")
		}
		for _, x := range vs {
			if !strings.HasPrefix(x.Path, "$") || x.Message == "" || x.Keyword == "" {
				t.Fatalf("malformed violation %+v", x)
			}
		}
	})
}

// FuzzDiagnosticAgreement checks that the diagnostic pass reaches
// jsonschema-go's verdict on its own, for arbitrary schema and instance
// pairs: Validate's fallback to jsonschema-go's message should never be
// needed.
func FuzzDiagnosticAgreement(f *testing.F) {
	f.Add([]byte(`{"properties":{"a":{"type":"integer"}},"unevaluatedProperties":false}`), []byte(`{"a":1,"b":2}`))
	f.Add([]byte(`{"anyOf":[{"required":["a"]},{"items":false}],"unevaluatedItems":{"type":"null"}}`), []byte(`[null,1]`))
	f.Add([]byte(`{"oneOf":[{"minimum":1},{"multipleOf":2}],"not":{"enum":[4]}}`), []byte(`6`))
	f.Add([]byte(`{"if":{"minLength":2},"then":{"pattern":"^a"},"else":{"const":"b"}}`), []byte(`"xy"`))
	f.Add([]byte(`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{}],"additionalItems":{"type":"string"},"dependencies":{"a":{"required":["b"]}}}`), []byte(`[1,2]`))
	f.Add([]byte(`{"contains":{"type":"string"},"minContains":2,"maxContains":3,"uniqueItems":true}`), []byte(`["a","b",1,1]`))
	f.Fuzz(func(t *testing.T, schemaBytes, instance []byte) {
		s, err := schema.Parse(schemaBytes)
		if err != nil {
			return
		}
		var v any
		if json.Unmarshal(instance, &v) != nil {
			return
		}
		vs := s.Validate(v)
		if len(vs) == 1 && vs[0].Keyword == "maxDepth" {
			return // refused before jsonschema-go sees it: nothing to agree on
		}
		valid := len(vs) == 0
		if n := schema.DiagnosticCount(s, v); (n == 0) != valid {
			t.Fatalf("jsonschema-go says valid=%v, the diagnostic pass finds %d violations", valid, n)
		}
	})
}
