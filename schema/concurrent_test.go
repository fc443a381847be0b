package schema_test

import (
	"sync"
	"testing"

	"github.com/agentio/agentio/schema"
)

// TestConcurrentSharedSchemas checks the crafted cases from four
// goroutines sharing each Schema (and its pools of scratch space): the
// same violations as one goroutine finds.
func TestConcurrentSharedSchemas(t *testing.T) {
	cases := craftedCases()
	schemas := map[string]*schema.Schema{}
	for _, cs := range cases {
		if _, ok := schemas[cs.s]; !ok {
			s, err := schema.Parse([]byte(cs.s))
			if err == nil {
				schemas[cs.s] = s
			}
		}
	}
	want := make([]int, len(cases))
	for i, cs := range cases {
		if s := schemas[cs.s]; s != nil {
			vs, _ := s.ValidateJSON([]byte(cs.in))
			want[i] = len(vs)
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < len(cases); i += 3 {
				cs := cases[i]
				if s := schemas[cs.s]; s != nil {
					vs, _ := s.ValidateJSON([]byte(cs.in))
					_, ds, _ := s.Decode([]byte(cs.in))
					if len(vs) != want[i] || len(ds) != want[i] {
						t.Errorf("%s on %s: %d, %d, want %d", cs.s, cs.in, len(vs), len(ds), want[i])
					}
				}
			}
		}()
	}
	wg.Wait()
}
