package blueprint_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentio/agentio/blueprint"
)

// FuzzParse checks that Parse never panics and that whatever it accepts
// round-trips: marshalling gives a document that parses to the same
// blueprint and marshals to the same bytes.
func FuzzParse(f *testing.F) {
	for _, name := range exampleAgents {
		if data, err := os.ReadFile(filepath.Join("testdata", "agents", name, "agent.json")); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"name":"a","type":"procedural","x":[1,{"y":null}]}`))
	f.Add([]byte(`{"name":"a","default_output_schema_options":{"max_retries":1e400}}`))
	f.Add([]byte(`{"name":"a","name":"a"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := blueprint.Parse(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		again, err := blueprint.Parse(out)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", out, err)
		}
		if again.Name() != b.Name() || again.Type() != b.Type() || again.Instructions() != b.Instructions() {
			t.Fatalf("round trip changed the blueprint: %s", out)
		}
		out2, err := json.Marshal(again)
		if err != nil || string(out2) != string(out) {
			t.Fatalf("marshal not stable:\n%s\n%s", out, out2)
		}
	})
}
