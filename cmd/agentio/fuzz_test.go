package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzInputs feeds arbitrary bytes to every command that reads input, in
// process: none may panic (run turns a panic into "internal error"), and
// each exits 0, 1 or 2.
func FuzzInputs(f *testing.F) {
	f.Add([]byte(`{"name":"a","output_schema":{"type":"object","properties":{"x":{"type":"strin"}}}}`), "-repair")
	f.Add([]byte("```json\n{\"a\": [1, 2,}\n```"), "-all")
	f.Add([]byte(`{"type":"object","properties":{"a":{"$ref":"#/nowhere"}}}`), "-lenient")
	f.Add([]byte("\xef\xbb\xbf{}"), "-d")
	f.Fuzz(func(t *testing.T, data []byte, flag string) {
		dir := t.TempDir()
		agent := filepath.Join(dir, "agent.json")
		sch := filepath.Join(dir, "x.schema.json")
		if err := os.WriteFile(agent, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(sch, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"lint", "-dialect", "openai", dir},
			{"lint", "-format", "github", dir},
			{"fmt", "-d", dir},
			{"extract", flag},
			{"extract"},
			{"check", "-schema", sch, "-reask"},
			{"check", "-schema", "testdata/replies/summary.schema.json", "-lenient", "-repair"},
			{strings.TrimPrefix(flag, "-"), string(data)},
		} {
			var out, errb bytes.Buffer
			code := run(args, bytes.NewReader(data), &out, &errb)
			if strings.Contains(errb.String(), "internal error") {
				t.Fatalf("%v: %s", args, errb.String())
			}
			if code < 0 || code > 2 {
				t.Fatalf("%v: exit %d", args, code)
			}
		}
	})
}
