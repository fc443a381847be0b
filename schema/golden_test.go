package schema_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/schema"
)

// TestViolationsGolden renders every violation of a badly wrong security
// scan report, as a model would be shown them.
func TestViolationsGolden(t *testing.T) {
	s, err := schema.Parse([]byte(benchSchema))
	require.NoError(t, err)
	vs, err := s.ValidateJSON([]byte(`{
		"scanner": "",
		"score": 11,
		"vulnerabilities": [
			{"id": "VULN-0001", "severity": "high", "description": "Shell injection in the upload handler."},
			{"id": "V-2", "severity": "critical!", "description": "short", "cvss": "9.8", "affected_files": ["a.go", "a.go"], "notes": "x"},
			"VULN-0003",
			{"severity": "low"}
		],
		"extra": {"nested": true}
	}`))
	require.NoError(t, err)
	var b strings.Builder
	b.WriteString(schema.Violations(vs).Error())
	b.WriteString("\n\n")
	for _, v := range vs {
		b.WriteString(strings.Join([]string{v.Pointer, v.Keyword, v.SchemaPath}, " | "))
		b.WriteByte('\n')
	}
	golden.Check(t, "violations", b.String())
}
