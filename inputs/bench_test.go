package inputs_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentio/agentio/inputs"
)

// params50 is a 50-parameter call: mostly short strings, as agents' schemas
// have them, with multi-line strings, numbers, booleans, lists and objects.
func params50() map[string]any {
	m := map[string]any{"prompt": "Create content about this topic, following every input above."}
	for i := 0; i < 50; i++ {
		k := fmt.Sprintf("param_%02d", i)
		switch i % 10 {
		case 0:
			m[k] = "first line of a note\nsecond line of a note\nthird line"
		case 1:
			m[k] = 300 + i
		case 2:
			m[k] = 0.25 * float64(i)
		case 3:
			m[k] = i%2 == 0
		case 4:
			m[k] = []any{"alpha", "beta", "gamma"}
		case 5:
			m[k] = map[string]any{"tone": "formal", "length": 200}
		default:
			m[k] = fmt.Sprintf("a short value for parameter number %d", i)
		}
	}
	return m
}

func BenchmarkFormat50(b *testing.B) {
	m := params50()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := inputs.Format(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormatJSON50(b *testing.B) {
	data, err := json.Marshal(params50())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := inputs.FormatJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse50(b *testing.B) {
	text, err := inputs.Format(params50())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := inputs.Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}
