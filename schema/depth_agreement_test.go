package schema_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentio/agentio/schema"
)

// TestMaxDepthAgreement holds the paths to the authority on documents
// nesting around MaxDepth, from 0 to far beyond any document.
func TestMaxDepthAgreement(t *testing.T) {
	schs := []string{
		`{"$ref":"#/$defs/n","$defs":{"n":{"anyOf":[{"type":"integer"},{"type":"object","required":["a"],"properties":{"a":{"$ref":"#/$defs/n"}}}]}}}`,
		`{"$ref":"#/$defs/n","$defs":{"n":{"$ref":"#/$defs/m"},"m":{"type":["array","integer"],"items":{"$ref":"#/$defs/n"}}}}`,
		`{"items":{"items":{"items":{"type":"integer"}}}}`,
		`{}`,
	}
	for _, sch := range schs {
		for _, n := range []int{1, 3, 10, 63, 64, 65, 200} {
			docs := []string{strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n), strings.Repeat(`{"a":`, n) + `"x"` + strings.Repeat("}", n),
				strings.Repeat(`[`, n) + "1" + strings.Repeat("]", n), strings.Repeat(`[`, n) + `"x"` + strings.Repeat("]", n)}
			for _, md := range []int{0, n - 1, n, n + 1, 1 << 20, 1<<31 - 1} {
				if md < 0 {
					continue
				}
				s, err := schema.ParseWith([]byte(sch), &schema.ParseOptions{MaxDepth: md})
				if err != nil {
					t.Logf("%v", err)
					continue
				}
				for _, d := range docs {
					name := fmt.Sprintf("%s md=%d n=%d %s", sch, md, n, d[max(0, len(d)-8):])
					var v any
					json.Unmarshal([]byte(d), &v)
					a := sameAsAuthority(t, s, v, name)
					b := sameOnBytes(t, s, []byte(d), name)
					c := sameOnDecode(t, s, []byte(d), name)
					if !a || !b || !c {
						t.Fatalf("stop")
					}
				}
			}
		}
	}
}
