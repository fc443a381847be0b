package schema_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentio/agentio/schema"
)

func TestReviewDump(t *testing.T) {
	out := os.Getenv("REVIEW_DUMP")
	if out == "" {
		t.Skip()
	}
	var b strings.Builder
	for i, cs := range reviewCases() {
		s, err := schema.Parse([]byte(cs.s))
		if err != nil {
			continue
		}
		var v any
		fmt.Fprintf(&b, "#%d %s on %q\n", i, cs.s, cs.in)
		if json.Unmarshal([]byte(cs.in), &v) == nil {
			j, _ := json.Marshal(s.Validate(v))
			fmt.Fprintf(&b, " V %s\n", j)
		}
		vs, err := s.ValidateJSON([]byte(cs.in))
		j, _ := json.Marshal(vs)
		fmt.Fprintf(&b, " J %s %v\n", j, err)
		_, vs, err = s.Decode([]byte(cs.in))
		j, _ = json.Marshal(vs)
		fmt.Fprintf(&b, " D %s %v\n", j, err)
	}
	os.WriteFile(out, []byte(b.String()), 0o644)
}
