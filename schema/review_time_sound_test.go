package schema_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentio/agentio/schema"
)

func TestReviewTimeScratch(t *testing.T) {
	build := map[string]func(n int) (string, string){
		"unique objects": func(n int) (string, string) {
			it := make([]string, n)
			for i := range it {
				it[i] = fmt.Sprintf(`{"a":%d,"b":[%d]}`, i, i)
			}
			return `{"uniqueItems":true}`, "[" + strings.Join(it, ",") + "]"
		},
		"unique numbers mixed": func(n int) (string, string) {
			it := make([]string, n)
			for i := range it {
				it[i] = fmt.Sprintf(`%de0`, i)
			}
			return `{"uniqueItems":true}`, "[" + strings.Join(it, ",") + "]"
		},
		"escaped keys": func(n int) (string, string) {
			it := make([]string, n)
			for i := range it {
				it[i] = fmt.Sprintf(`"\u006b%d":1`, i)
			}
			return `{"additionalProperties":{"type":"integer"}}`, "{" + strings.Join(it, ",") + "}"
		},
		"repeated names": func(n int) (string, string) {
			it := make([]string, n)
			for i := range it {
				it[i] = fmt.Sprintf(`"k%d":1`, i%(n/2))
			}
			return `{"additionalProperties":{"type":"integer"}}`, "{" + strings.Join(it, ",") + "}"
		},
		"required many missing": func(n int) (string, string) {
			it := make([]string, n)
			rq := make([]string, n)
			for i := range it {
				it[i] = fmt.Sprintf(`"k%d":1`, i)
				rq[i] = fmt.Sprintf(`"r%d"`, i)
			}
			return `{"required":[` + strings.Join(rq, ",") + `]}`, "{" + strings.Join(it, ",") + "}"
		},
		"enum objects": func(n int) (string, string) {
			it := make([]string, n)
			for i := range it {
				it[i] = fmt.Sprintf(`{"a":%d}`, i)
			}
			return `{"items":{"enum":[{"a":-1},{"a":-2}]}}`, "[" + strings.Join(it, ",") + "]"
		},
	}
	for name, b := range build {
		var prev [3]time.Duration
		for _, n := range []int{2000, 8000, 32000} {
			sch, doc := b(n)
			s, err := schema.Parse([]byte(sch))
			if err != nil {
				t.Fatal(err)
			}
			var cur [3]time.Duration
			var vs, ds []schema.Violation
			for r := 0; r < 3; r++ {
				st := time.Now()
				vs, _ = s.ValidateJSON([]byte(doc))
				if d := time.Since(st); r == 0 || d < cur[0] {
					cur[0] = d
				}
				st = time.Now()
				_, ds, _ = s.Decode([]byte(doc))
				if d := time.Since(st); r == 0 || d < cur[1] {
					cur[1] = d
				}
			}
			t.Logf("%s n=%d: ValidateJSON %v (%d), Decode %v (%d)", name, n, cur[0], len(vs), cur[1], len(ds))
			if prev[0] > 0 {
				t.Logf("  growth %.1fx %.1fx", float64(cur[0])/float64(prev[0]), float64(cur[1])/float64(prev[1]))
			}
			prev = cur
		}
	}
}
