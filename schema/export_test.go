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

// ValidateAuthority is Validate without the fast path and without the
// diagnostic pass's shortcuts: what Validate returned before them, and
// what they are held to.
func ValidateAuthority(s *Schema, v any) []Violation {
	if tv, deep := tooDeep(v, s.depthLimit()); deep {
		return []Violation{tv}
	}
	return s.validateAuthority(v, false)
}

// FastVerdict is the fast path's verdict on v: "valid", "invalid",
// "undecided", or "none" when the document has no fast path.
func FastVerdict(s *Schema, v any) string {
	p := s.c.fastProgram()
	if p == nil {
		return "none"
	}
	return [...]string{undecided: "undecided", valid: "valid", invalid: "invalid"}[p.check(v)]
}

// FastCoverage counts the subschemas of s's document, those the fast
// path checks itself (not through the diagnostic pass), those with array
// or object keywords, and of these those Decode checks as it builds the
// array or object (fused).
func FastCoverage(s *Schema) (covered, containers, fused, total int) {
	total = len(s.c.order)
	p := s.c.fastProgram()
	if p == nil {
		return 0, 0, 0, total
	}
	for _, sub := range s.c.order {
		n := p.nodes[sub]
		if n == nil || n.slow {
			continue
		}
		covered++
		if n.objects || n.arrays {
			containers++
			if n.fused {
				fused++
			}
		}
	}
	return covered, containers, fused, total
}

// FastBytesVerdict is the verdict of the fast path over the bytes of a
// document: as FastVerdict.
func FastBytesVerdict(s *Schema, data []byte) string {
	p := s.c.fastProgram()
	if p == nil {
		return "none"
	}
	return [...]string{undecided: "undecided", valid: "valid", invalid: "invalid"}[p.checkBytes(data, s.depthLimit())]
}

// FusedVerdict is the verdict of the run that decodes data and checks it
// in the same pass, as Decode does: as FastVerdict, or "unread" when the
// fast decoder leaves data to encoding/json.
func FusedVerdict(s *Schema, data []byte) string {
	p := s.c.fastProgram()
	if p == nil {
		return "none"
	}
	var r decodeRun
	_, got, err := r.check(p, string(data))
	if err != nil {
		return "unread"
	}
	return [...]string{undecided: "undecided", valid: "valid", invalid: "invalid"}[got]
}
