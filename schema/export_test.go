package schema

// DiagnosticCount runs the diagnostic pass on v whatever jsonschema-go
// says, so tests can check the pass agrees with it on valid values too.
func DiagnosticCount(s *Schema, v any) int {
	pv, ok := plainValue(v)
	if !ok {
		return -1
	}
	return len(s.c.diagnose(pv))
}

// BuiltinDocument exposes the built-in meta-schemas, so the conformance
// test can serve jsonschema-go the same documents.
func BuiltinDocument(uri string) ([]byte, bool) { return builtinDocument(uri) }
