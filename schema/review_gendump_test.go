package schema_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/agentio/agentio/schema"
)

func TestReviewGenDump(t *testing.T) {
	out := os.Getenv("REVIEW_DUMP")
	if out == "" {
		t.Skip()
	}
	var b strings.Builder
	rng := rand.New(rand.NewPCG(91, 38))
	for i := range 3000 {
		g := &gen{rng: rng, draft7: i%4 == 0}
		head := `{"$defs":{"d":` + g.schema(3) + `},`
		if g.draft7 {
			head = `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"d":` + g.schema(3) + `},`
		}
		doc := head + `"allOf":[` + g.schema(4) + `]}`
		insts := make([]string, 20)
		for k := range insts {
			insts[k] = g.instance(5)
		}
		s, err := schema.Parse([]byte(doc))
		if err != nil {
			continue
		}
		for _, inst := range insts {
			var v any
			json.Unmarshal([]byte(inst), &v)
			j1, _ := json.Marshal(s.Validate(v))
			vs, _ := s.ValidateJSON([]byte(inst))
			j2, _ := json.Marshal(vs)
			_, ds, _ := s.Decode([]byte(inst))
			j3, _ := json.Marshal(ds)
			fmt.Fprintf(&b, "%s <- %s\n V %s\n J %s\n D %s\n", doc, inst, j1, j2, j3)
		}
	}
	os.WriteFile(out, []byte(b.String()), 0o644)
}
