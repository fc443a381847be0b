package jsonraw_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentio/agentio/internal/jsonraw"
)

// object50 is a parameters object of 50 members: short strings, numbers,
// lists and nested objects, as the inputs package receives them.
func object50() []byte {
	var b strings.Builder
	b.WriteString(`{"prompt": "Create content about this topic."`)
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, `, "param_%02d": `, i)
		switch i % 4 {
		case 0:
			b.WriteString(`"first line\nsecond line"`)
		case 1:
			fmt.Fprintf(&b, "%d", 300+i)
		case 2:
			b.WriteString(`["alpha", "beta", "gamma"]`)
		default:
			b.WriteString(`{"tone": "formal", "length": 200}`)
		}
	}
	b.WriteString("}")
	return []byte(b.String())
}

func BenchmarkMembers50(b *testing.B) {
	data := object50()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := jsonraw.Members(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode50(b *testing.B) {
	members, err := jsonraw.Members(object50())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = jsonraw.Encode(members)
	}
}
