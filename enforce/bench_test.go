package enforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/provider"
)

// bigReview returns a reply of about size bytes: a sentence of prose, then a
// fenced review with as many findings as fit. When invalid, one finding in
// ten has a severity outside the enum.
func bigReview(size int, invalid bool) string {
	var b strings.Builder
	b.WriteString("Here is the review of the change set, as requested.\n\n```json\n{\"findings\":[")
	n := 0
	for b.Len() < size-200 {
		if n > 0 {
			b.WriteByte(',')
		}
		sev := "minor"
		if invalid && n%10 == 0 {
			sev = "critical"
		}
		fmt.Fprintf(&b, `{"severity":%q,"file":"internal/pkg%03d/file_%d.go","line":%d}`, sev, n%997, n, n+1)
		n++
	}
	fmt.Fprintf(&b, "],\"counts\":{\"blocker\":0,\"major\":0,\"minor\":%d},\"summary\":\"%d minor findings\"}\n```\n\nLet me know if you need more.", n, n)
	return b.String()
}

// proseReview returns a reply of about size bytes: reasoning prose with
// braces in it, then a small valid review.
func proseReview(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size-len(validReview)-20; i++ {
		fmt.Fprintf(&b, "Step %d: the handler in {pkg%d} calls f(x) { return x[%d] } and checks the error. ", i, i%50, i)
	}
	b.WriteString("\n\nFinal answer:\n")
	b.WriteString(validReview)
	return b.String()
}

// BenchmarkCheck measures one attempt's overhead, everything but the
// provider call, on 100 KB replies: a valid review that fills the reply, an
// invalid one (the diagnostic pass runs), and prose ending in a small review.
// Beside them, on the valid reply's JSON: json.Valid (reading the bytes
// once, the yardstick of the targets: valid within 3x, invalid within 5x),
// json.Unmarshal into an any (what decoding cost before the fast path),
// and the floor of any Check: finding the JSON in the reply, and
// allocating the value it returns.
func BenchmarkCheck(b *testing.B) {
	valid := bigReview(100<<10, false)
	data := []byte(valid[strings.Index(valid, "{") : strings.LastIndex(valid, "}")+1]) // the reply's JSON
	b.Run("json.Valid_100KB", func(b *testing.B) {
		if !json.Valid(data) {
			b.Fatal("not JSON")
		}
		b.SetBytes(int64(len(valid)))
		for b.Loop() {
			json.Valid(data)
		}
	})
	b.Run("json.Unmarshal_100KB", func(b *testing.B) {
		b.SetBytes(int64(len(valid)))
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("value_floor_100KB", func(b *testing.B) {
		// Allocating the value Check returns, and nothing else: a copy of
		// the decoded reply's maps, slices, strings' and numbers' boxes.
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(valid)))
		b.ReportAllocs()
		for b.Loop() {
			sink = copyValue(v)
		}
	})
	b.Run("extract_100KB", func(b *testing.B) {
		// Finding the JSON in the reply, as Check does first.
		b.SetBytes(int64(len(valid)))
		b.ReportAllocs()
		for b.Loop() {
			if len(extract.Candidates(valid, extract.WithObjectsOnly())) == 0 {
				b.Fatal("no JSON")
			}
		}
	})
	for _, tc := range []struct {
		name    string
		text    string
		invalid bool
	}{
		{"json_100KB", valid, false},
		{"invalid_json_100KB", bigReview(100<<10, true), true},
		{"prose_100KB", proseReview(100 << 10), false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			e, err := enforce.New(parse(b, reviewSchema))
			if err != nil {
				b.Fatal(err)
			}
			resp := &provider.Response{Text: tc.text, StopReason: provider.StopEnd}
			if v := e.Check(context.Background(), enforce.State{}, resp); v.OK == tc.invalid {
				b.Fatalf("unexpected verdict %s %v", v.Outcome, v.Violations)
			}
			b.SetBytes(int64(len(resp.Text)))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				e.Check(context.Background(), enforce.State{}, resp)
			}
		})
	}
}

// BenchmarkCheckRatio measures the targets of BenchmarkCheck as ratios
// to json.Valid on the valid reply's JSON, each iteration timing json.Valid
// and then the work measured, so that the shared machine's drift, which
// moves separate benchmarks by a third, falls on both alike. It reports
// x-json.Valid, the ratio of the summed times; ns/op is the pair's time.
// It leans toward the work measured: json.Valid reads the document after
// that work's allocations have pushed it out of the caches, where
// BenchmarkCheck runs each alone; quote both.
func BenchmarkCheckRatio(b *testing.B) {
	valid := bigReview(100<<10, false)
	data := []byte(valid[strings.Index(valid, "{") : strings.LastIndex(valid, "}")+1])
	sch := parse(b, reviewSchema)
	e, err := enforce.New(sch)
	if err != nil {
		b.Fatal(err)
	}
	var decoded any
	if err := json.Unmarshal(data, &decoded); err != nil {
		b.Fatal(err)
	}
	check := func(text string, ok bool) func() {
		resp := &provider.Response{Text: text, StopReason: provider.StopEnd}
		if v := e.Check(context.Background(), enforce.State{}, resp); v.OK != ok {
			b.Fatalf("unexpected verdict %s %v", v.Outcome, v.Violations)
		}
		return func() { e.Check(context.Background(), enforce.State{}, resp) }
	}
	for _, tc := range []struct {
		name string
		work func()
	}{
		{"Check_valid_100KB", check(valid, true)},
		{"Check_invalid_100KB", check(bigReview(100<<10, true), false)},
		{"extract_100KB", func() { extract.Candidates(valid, extract.WithObjectsOnly()) }},
		{"value_floor_100KB", func() { sink = copyValue(decoded) }},
		{"schema.Decode_100KB", func() { sink, _, _ = sch.Decode(data) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var base, work time.Duration
			for b.Loop() {
				t0 := time.Now()
				json.Valid(data)
				t1 := time.Now()
				tc.work()
				work += time.Since(t1)
				base += t1.Sub(t0)
			}
			b.ReportMetric(float64(work)/float64(base), "x-json.Valid")
		})
	}
}

var sink any

// copyValue returns a copy of a decoded JSON value, each string and
// number boxed anew.
func copyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = copyValue(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = copyValue(e)
		}
		return a
	case string:
		return x // boxed anew; the bytes are shared, as a decoder's can be
	case float64:
		return x
	}
	return v
}

// BenchmarkRun measures one attempt's overhead on a 100 KB reply: everything
// Run does (options, request building, extraction, validation, the result)
// with a provider that answers at once.
func BenchmarkRun(b *testing.B) {
	s := parse(b, reviewSchema)
	resp := &provider.Response{Text: bigReview(100<<10, false), StopReason: provider.StopEnd}
	p := provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) { return resp, nil })
	req := enforce.Request{System: "You review code.", Prompt: "Review the change set."}
	b.SetBytes(int64(len(resp.Text)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := enforce.Run(context.Background(), p, req, s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckTool measures one attempt's overhead in ModeTool on a 100 KB
// submit_result input whose array root the model wrapped as {"result": ...}:
// extraction, unwrapping and validation.
func BenchmarkCheckTool(b *testing.B) {
	s := parse(b, `{"type":"array","items":{"type":"object","required":["severity","file","line"],"properties":{
		"severity":{"type":"string","enum":["blocker","major","minor"]},"file":{"type":"string"},"line":{"type":"integer","minimum":1}}}}`)
	e, err := enforce.New(s)
	if err != nil {
		b.Fatal(err)
	}
	_, st, err := e.Start(enforce.Request{Prompt: "Review."}, provider.Capabilities{Tools: true, ForcedTool: true})
	if err != nil {
		b.Fatal(err)
	}
	review := bigReview(100<<10, false)
	start := strings.Index(review, "[")
	end := strings.Index(review, `,"counts"`)
	args := `{"result":` + review[start:end] + `}`
	resp := &provider.Response{ToolCalls: []provider.ToolCall{{ID: "call_1", Name: enforce.ToolName, Arguments: []byte(args)}}}
	if v := e.Check(context.Background(), st, resp); !v.OK {
		b.Fatalf("unexpected verdict %s %v", v.Outcome, v.Violations)
	}
	b.SetBytes(int64(len(args)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		e.Check(context.Background(), st, resp)
	}
}
