package schema_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/benchkit"
	"github.com/agentio/agentio/schema"
)

// benchSchema is a security-scan result schema of a common shape:
// definitions, $ref, enums, patterns, bounds and closed objects.
const benchSchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "required": ["scanner", "summary", "vulnerabilities"],
  "additionalProperties": false,
  "properties": {
    "scanner": {"type": "string", "minLength": 1},
    "summary": {"type": "string", "maxLength": 2000},
    "score": {"type": "number", "minimum": 0, "maximum": 10},
    "vulnerabilities": {"type": "array", "maxItems": 500, "items": {"$ref": "#/definitions/vulnerability"}}
  },
  "definitions": {
    "vulnerability": {
      "type": "object",
      "required": ["id", "severity", "description"],
      "additionalProperties": false,
      "properties": {
        "id": {"type": "string", "pattern": "^VULN-[0-9]{4}$"},
        "severity": {"type": "string", "enum": ["low", "medium", "high", "critical"]},
        "description": {"type": "string", "minLength": 10},
        "cvss": {"type": ["number", "null"], "minimum": 0, "maximum": 10},
        "affected_files": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
        "fixed": {"type": "boolean"}
      }
    }
  }
}`

// benchInstance returns a decoded instance of about 10 KB; bad makes two
// of its vulnerabilities invalid.
func benchInstance(tb testing.TB, bad bool) (any, int) {
	var vs []string
	for i := range 36 {
		sev := []string{"low", "medium", "high", "critical"}[i%4]
		if bad && i%17 == 5 {
			sev = "severe"
		}
		vs = append(vs, fmt.Sprintf(`{"id":"VULN-%04d","severity":%q,"description":"Unsanitised input reaches a shell command in handler %d.","cvss":%d.5,"affected_files":["cmd/server/main.go","internal/handler/h%d.go"],"fixed":%v}`,
			i, sev, i, i%10, i, i%2 == 0))
	}
	doc := `{"scanner":"agentio-bench","summary":"` + strings.Repeat("Findings from the scan. ", 20) + `","score":7.5,"vulnerabilities":[` + strings.Join(vs, ",") + `]}`
	var v any
	require.NoError(tb, json.Unmarshal([]byte(doc), &v))
	return v, len(doc)
}

func BenchmarkParse(b *testing.B) {
	b.SetBytes(int64(len(benchSchema)))
	b.ResetTimer()
	for range b.N {
		if _, err := schema.Parse([]byte(benchSchema)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateValid and BenchmarkResolvedValidate validate the same
// decoded 10 KB value: the first through Schema.Validate, the second with
// jsonschema-go's Resolved.Validate directly. Their ratio is the cost of the
// wrapper on the valid path (target: within 1.2x).
func BenchmarkValidateValid(b *testing.B) {
	s, err := schema.Parse([]byte(benchSchema))
	require.NoError(b, err)
	v, n := benchInstance(b, false)
	require.Empty(b, s.Validate(v))
	b.SetBytes(int64(n))
	b.ResetTimer()
	for range b.N {
		if len(s.Validate(v)) != 0 {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkResolvedValidate(b *testing.B) {
	var js jsonschema.Schema
	require.NoError(b, json.Unmarshal([]byte(benchSchema), &js))
	rs, err := js.Resolve(nil)
	require.NoError(b, err)
	v, n := benchInstance(b, false)
	require.NoError(b, rs.Validate(v))
	b.SetBytes(int64(n))
	b.ResetTimer()
	for range b.N {
		if rs.Validate(v) != nil {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkValidateInvalid(b *testing.B) {
	s, err := schema.Parse([]byte(benchSchema))
	require.NoError(b, err)
	v, n := benchInstance(b, true)
	require.Len(b, s.Validate(v), 2)
	b.SetBytes(int64(n))
	b.ResetTimer()
	for range b.N {
		if len(s.Validate(v)) != 2 {
			b.Fatal("want 2 violations")
		}
	}
}

// BenchmarkCoerceValid runs Coerce on the valid value of
// BenchmarkValidateValid (about 11 KB once encoded): with nothing to
// change, it must cost a small part of validating it (target: under 10%).
func BenchmarkCoerceValid(b *testing.B) {
	s, err := schema.Parse([]byte(benchSchema))
	require.NoError(b, err)
	v, n := benchInstance(b, false)
	b.SetBytes(int64(n))
	b.ResetTimer()
	for range b.N {
		if _, cs, err := s.Coerce(v); err != nil || len(cs) != 0 {
			b.Fatal(cs, err)
		}
	}
}

// nestedAnyOf returns a schema of depth levels, each an anyOf of two
// overlapping object branches that both lead to the next level through
// $defs (so the schema grows linearly), and an instance that fails at the
// bottom, which makes every branch at every level be tried.
func nestedAnyOf(depth int) (sch, instance []byte) {
	var b strings.Builder
	fmt.Fprintf(&b, `{"$ref": "#/$defs/l%d", "$defs": {"l0": {"type": "string"}`, depth)
	for k := 1; k <= depth; k++ {
		next := fmt.Sprintf(`{"$ref": "#/$defs/l%d"}`, k-1)
		fmt.Fprintf(&b, `, "l%d": {"anyOf": [{"type": "object", "properties": {"a": %s}}, {"type": "object", "required": ["a"], "properties": {"a": %s}}]}`, k, next, next)
	}
	b.WriteString("}}")
	return []byte(b.String()), []byte(strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth))
}

// BenchmarkNestedAnyOf measures validation against overlapping anyOf
// branches nested 8 and 12 deep, with an instance that fails at the
// bottom. Evaluated afresh, every branch at every level doubles the time
// with each level (6 ms at 8, 150 ms at 12 before the fast path); the fast
// path and the diagnostic pass judge each part of the value once per
// subschema, so it grows with the depth only.
func BenchmarkNestedAnyOf(b *testing.B) {
	for _, depth := range []int{8, 12} {
		b.Run(fmt.Sprint(depth), func(b *testing.B) {
			sch, inst := nestedAnyOf(depth)
			s, err := schema.Parse(sch)
			require.NoError(b, err)
			for b.Loop() {
				if vs, err := s.ValidateJSON(inst); err != nil || len(vs) == 0 {
					b.Fatal("the instance must be invalid", err)
				}
			}
		})
	}
}

// BenchmarkManyNames measures one flat object of 40,000 names (about 600
// KB) checked over its bytes (ValidateJSON) and decoded with its value
// checked (Decode): both read each name once, so ValidateJSON costs no more
// than Decode.
func BenchmarkManyNames(b *testing.B) {
	var doc strings.Builder
	doc.WriteString("{")
	for i := range 40000 {
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `"key%07d":%d`, i, i)
	}
	doc.WriteString("}")
	data := []byte(doc.String())
	s, err := schema.Parse([]byte(`{"type":"object","additionalProperties":{"type":"integer","minimum":0}}`))
	require.NoError(b, err)
	b.Run("ValidateJSON", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if vs, err := s.ValidateJSON(data); err != nil || len(vs) > 0 {
				b.Fatal(vs, err)
			}
		}
	})
	b.Run("Decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, vs, err := s.Decode(data); err != nil || len(vs) > 0 {
				b.Fatal(vs, err)
			}
		}
	})
}

// BenchmarkDecodeTree decodes a tree of 4,095 nodes, 11 levels deep
// through a recursive $ref (about 150 KB), valid and with one node in 25
// of a kind the enum lacks, and reports its time as a multiple of
// json.Valid on the same bytes in the same iterations (x-json.Valid).
// The difference between the two is the diagnostic pass: it descends into
// the ~760 nodes that fail, each bad node and its ancestors, and lists
// the 164 violations with their paths.
func BenchmarkDecodeTree(b *testing.B) {
	s, err := schema.Parse([]byte(benchkit.TreeSchema))
	require.NoError(b, err)
	for _, bad := range []bool{false, true} {
		every := 0
		if bad {
			every = 25
		}
		text := benchkit.TreeJSON(11, every)
		data := []byte(text)
		if _, vs, err := s.DecodeString(text); err != nil || len(vs) > 0 != bad {
			b.Fatal(len(vs), err)
		}
		b.Run(map[bool]string{false: "valid", true: "invalid"}[bad], func(b *testing.B) {
			benchkit.RatioToValid(b, data, func() { s.DecodeString(text) })
		})
	}
}
