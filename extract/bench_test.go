package extract_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/agentio/agentio/extract"
)

const benchSize = 1 << 20

// proseWithBraces is about 1 MB of prose full of braces, brackets and quotes
// that are not JSON, with one JSON object at the end.
func proseWithBraces() string {
	var b strings.Builder
	lines := []string{
		"Use {curly} braces for {placeholders} and [square] ones for options. ",
		`A map looks like {key: value}; "quoted {text}" stays text. `,
		`Some write { "almost": json } or {"unclosed" and move on. `,
		"Nested {prose {with} braces} and [arrays [of] words] abound. ",
		"Templates say {{name}} and {{ count }} while lists say [a, b]. ",
	}
	for i := 0; b.Len() < benchSize-100; i++ {
		b.WriteString(lines[i%len(lines)])
	}
	b.WriteString(`The answer: {"status": "ok", "items": [1, 2, 3], "note": "done {really}"}`)
	return b.String()
}

// smallObjects returns 10,000 small objects of about 100 bytes each, joined
// by sep (",\n" inside an array makes plain JSON; "\n" makes JSON lines).
func smallObjects(sep string) string {
	parts := make([]string, 10000)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"id": %d, "name": "item-%05d", "tags": ["a", "b"], "score": %d.5, "ok": true, "note": "small"}`, i, i, i%100)
	}
	return strings.Join(parts, sep)
}

func BenchmarkJSONProseBraces(b *testing.B) {
	text := proseWithBraces()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := extract.JSON(text)
		if err != nil || c.Source != extract.SourceScan {
			b.Fatalf("got %+v, %v", c, err)
		}
	}
}

func BenchmarkJSONPlainSmallObjects(b *testing.B) {
	text := "[" + smallObjects(",\n") + "]"
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := extract.JSON(text)
		if err != nil || c.Source != extract.SourceWhole {
			b.Fatalf("got %v", err)
		}
	}
}

// BenchmarkJSONThenNote is plain JSON followed by a note, the commonest
// reply that is not JSON alone: the value's bytes are read once.
func BenchmarkJSONThenNote(b *testing.B) {
	text := "[" + smallObjects(",\n") + "]\n\nHope this helps!"
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := extract.JSON(text)
		if err != nil || c.Source != extract.SourceScan {
			b.Fatalf("got %v", err)
		}
	}
}

// BenchmarkValidPlainSmallObjects is the baseline for
// BenchmarkJSONPlainSmallObjects: json.Valid on the same bytes.
func BenchmarkValidPlainSmallObjects(b *testing.B) {
	data := []byte("[" + smallObjects(",\n") + "]")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !json.Valid(data) {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkCandidatesJSONLines(b *testing.B) {
	text := smallObjects("\n")
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := len(extract.Candidates(text)); n != 10000 {
			b.Fatalf("got %d candidates", n)
		}
	}
}

func BenchmarkJSONRepairTruncated(b *testing.B) {
	text := "Here you go:\n[" + smallObjects(",\n")
	text = strings.ReplaceAll(text[:len(text)-40], `"ok": true`, `'ok': True`)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := extract.JSON(text, extract.WithRepair())
		if err != nil || !c.Truncated() {
			b.Fatalf("got %v", err)
		}
	}
}

// BenchmarkCandidatesRepairOpenBraces is the worst case known for repair:
// 1 MB of '{', each a failed attempt that repair must try and give up on,
// but the last, which the text ends inside (it becomes {}).
func BenchmarkCandidatesRepairOpenBraces(b *testing.B) {
	text := strings.Repeat("{", benchSize)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := len(extract.Candidates(text, extract.WithRepair())); n != 1 {
			b.Fatalf("got %d candidates", n)
		}
	}
}

// brokenKinds gives, for each shape repair reads, one object written in it;
// BenchmarkRepairKinds repeats each to 1 MB inside an array.
var brokenKinds = []struct{ name, item string }{
	{"single_quotes", `{'id': 1, 'name': 'item', 'tags': ['a', 'b']}`},
	{"unquoted_keys", `{id: 1, name: "item", tags: ["a", "b"]}`},
	{"trailing_commas", `{"id": 1, "name": "item", "tags": ["a", "b",],}`},
	{"missing_commas", "{\"id\": 1\n\"name\": \"item\" \"tags\": [\"a\" \"b\"]}"},
	{"comments", `{"id": 1, /* the id */ "name": "item" // name` + "\n}"},
	{"python_literals", `{"id": 1, "ok": True, "none": None, "no": False}`},
	{"special_values", `{"id": 1, "x": NaN, "y": undefined, "z": -Infinity}`},
	{"numbers", `{"id": 1, "a": .5, "b": 2., "c": 1_000, "d": +3}`},
	{"unquoted_strings", `{"id": 1, "name": New York, "code": 0789}`},
	{"unescaped_quotes", `{"id": 1, "text": "say "hi" now", "size": "a 24" screen"}`},
	{"escapes", "{\"id\": 1, \"path\": \"C:\\Users\\x\", \"text\": \"one\ntwo\"}"},
	{"wrappers", `{"id": NumberInt(1), "_id": ObjectId("5f1"), "t": (1, 2)}`},
	{"concatenation", `{"id": 1, "text": "hello" + " world"}`},
	{"smart_quotes", `{“id”: 1, “name”: ‘item’}`},
	{"raw_backslashes", `{"id": 1, "re": "\d+\s\n", "path": "C:\users\new"}`},
	{"regexps", `{"id": 1, "re": /a[/]b\/c/gi}`},
	{"bare_key_values", `{id 'x', name “item”}`},
	{"bracketed_words", `{"id": 1, "text": words{in, brackets}x}`},
	{"open_brackets", `{"id": [{"a": [1`},
}

// brokenText repeats item inside an array after a line of prose until the
// text holds size bytes: a broken reply of one kind.
func brokenText(item string, size int) string {
	var sb strings.Builder
	sb.WriteString("Result:\n[")
	for sb.Len() < size {
		sb.WriteString(item)
		sb.WriteString(",\n")
	}
	sb.WriteString("]")
	return sb.String()
}

// validText is a valid JSON document of size bytes, for json.Valid to read
// beside the repairs.
func validText(size int) string {
	var sb strings.Builder
	sb.WriteString("[")
	for sb.Len() < size {
		sb.WriteString(`{"id": 1, "name": "item", "tags": ["a", "b"], "ok": true},` + "\n")
	}
	sb.WriteString(`{}]`)
	return sb.String()
}

// fixListFloor returns the bytes no repair returning fixes can do
// without: the list of Fix values and the text each replaced and wrote,
// which a fix may not share with the input. Details are left out: those
// of fixes alike are shared.
func fixListFloor(fixes []extract.Fix) int {
	n := len(fixes) * int(unsafe.Sizeof(extract.Fix{}))
	for _, f := range fixes {
		n += len(f.Before) + len(f.After)
	}
	return n
}

// BenchmarkRepairKinds repairs 1 MB of broken JSON of each kind, and reads
// a valid document of the same size with json.Valid in the same run, the
// yardstick of reading the bytes once: linear time means MB/s stays of one
// order across kinds and sizes. fixB/op is the part of B/op the returned
// fixes need whatever repair does (see fixListFloor), beyond_x what the
// repair allocates beside it, in sizes of the input, and each kind's
// fix_list_floor the time they need (see buildFixList). Each kind is
// repaired by the package function, then by one Extractor reused for
// every repair (kind/reused).
//
//	go test ./extract -run '^$' -bench RepairKinds -benchmem
func BenchmarkRepairKinds(b *testing.B) {
	valid := []byte(validText(benchSize))
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(valid)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if !json.Valid(valid) {
				b.Fatal("invalid")
			}
		}
	})
	for _, k := range brokenKinds {
		text := brokenText(k.item, benchSize)
		var fixes []extract.Fix // the repair's, for the floor
		b.Run(k.name, func(b *testing.B) {
			c := benchRepair(b, text, extract.JSON)
			fixes = c.Fixes
		})
		b.Run(k.name+"/reused", func(b *testing.B) {
			var x extract.Extractor
			benchRepair(b, text, x.JSON)
		})
		// The time no repair returning these fixes can do without:
		// building the list alone, its texts in one string, in MB/s of
		// the same input, so that the repair's rate without it is
		// 1/(1/repair - 1/floor).
		b.Run(k.name+"/fix_list_floor", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				sinkFixes = buildFixList(fixes)
			}
		})
	}
}

var sinkFixes []extract.Fix

// benchRepair repairs text b.N times with json and reports the part of
// B/op the fix list needs (fixB/op) and the rest in sizes of the input
// (beyond_x). It returns the last candidate.
func benchRepair(b *testing.B, text string, json func(string, ...extract.Option) (extract.Candidate, error)) extract.Candidate {
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	// Built once: a list of options made at each call through a func
	// value would be one more allocation of the loop's own.
	opts := []extract.Option{extract.WithRepair()}
	// One repair before the timer, which a reused Extractor keeps the
	// buffers of.
	c, err := json(text, opts...)
	if err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	b.ResetTimer()
	runtime.ReadMemStats(&before)
	for i := 0; i < b.N; i++ {
		var err error
		c, err = json(text, opts...)
		if err != nil || c.Source != extract.SourceRepaired {
			b.Fatalf("%v", err)
		}
	}
	runtime.ReadMemStats(&after)
	fixB := float64(fixListFloor(c.Fixes))
	perOp := float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
	b.ReportMetric(fixB, "fixB/op")
	b.ReportMetric((perOp-fixB)/float64(len(text)), "beyond_x")
	return c
}

// buildFixList builds a list of fixes like fixes from nothing but their
// offsets, kinds and texts: what returning them costs, whatever finds them.
func buildFixList(fixes []extract.Fix) []extract.Fix {
	size := 0
	for _, f := range fixes {
		size += len(f.Before) + len(f.After)
	}
	var sb strings.Builder
	sb.Grow(size)
	for _, f := range fixes {
		sb.WriteString(f.Before)
		sb.WriteString(f.After)
	}
	texts := sb.String()
	list := make([]extract.Fix, len(fixes))
	at := 0
	for i, f := range fixes {
		before := texts[at : at+len(f.Before)]
		at += len(f.Before)
		list[i] = extract.Fix{Kind: f.Kind, Offset: f.Offset, Before: before, After: texts[at : at+len(f.After)], Detail: f.Detail}
		at += len(f.After)
	}
	return list
}
