package crosscheck_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/schema"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	return v
}

func TestParsePath(t *testing.T) {
	v := decode(t, `{"findings":[{"severity":"high","odd key":1},{"severity":"low"}],"counts":{"high":1,"low":1},"x y":{"a-b":2}}`)
	tests := []struct {
		path  string
		paths []string
	}{
		{"$", []string{"$"}},
		{"$.findings[*].severity", []string{"$.findings[0].severity", "$.findings[1].severity"}},
		{"$.findings[1]", []string{"$.findings[1]"}},
		{"$.findings[5]", nil},
		{"$.counts[*]", []string{"$.counts.high", "$.counts.low"}},
		{"$['x y']['a-b']", []string{"$['x y']['a-b']"}},
		{`$.findings[0]["odd key"]`, []string{"$.findings[0]['odd key']"}},
		{"$.missing.deeper[*]", nil},
		{"$.findings.severity", nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p, err := crosscheck.ParsePath(tt.path)
			require.NoError(t, err)
			var got []string
			for _, m := range p.Select(v) {
				got = append(got, m.Path)
			}
			assert.Equal(t, tt.paths, got)
		})
	}
	for _, bad := range []string{"", "findings", "$.", "$[", "$[*", "$[01]", "$['a", "$..a", "$[-1]", "$a", "$.a b"} {
		_, err := crosscheck.ParsePath(bad)
		assert.ErrorIs(t, err, crosscheck.ErrInvalidPath, bad)
	}
}

func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"$", "$.a[*].b", "$['x\\'y'][3]", "$[*][*]", `$["a"]`} {
		f.Add(s)
	}
	v := decode(f, `{"a":[{"b":1},{"b":[2,{"c":3}]}],"x'y":[0,1,2,3],"":{"":null}}`)
	f.Fuzz(func(t *testing.T, s string) {
		p, err := crosscheck.ParsePath(s)
		if err != nil {
			return
		}
		assert.Equal(t, s, p.String())
		for _, m := range p.Select(v) {
			// Every concrete path selects exactly its value again.
			q, err := crosscheck.ParsePath(m.Path)
			require.NoError(t, err, "%s selected %s, which does not parse", s, m.Path)
			again := q.Select(v)
			require.Len(t, again, 1, m.Path)
			assert.Equal(t, m.Value, again[0].Value)
		}
	})
}

func outputs(t testing.TB, docs ...string) []crosscheck.Output {
	var out []crosscheck.Output
	for i, d := range docs {
		out = append(out, crosscheck.Output{Name: fmt.Sprintf("agent%d", i+1), Value: decode(t, d)})
	}
	return out
}

func TestContradictions(t *testing.T) {
	base := crosscheck.Rule{Name: "severity", Items: "$.findings[*]", Key: []string{"file", "line"}, Compare: []string{"severity"}}
	tests := []struct {
		name string
		rule crosscheck.Rule
		docs []string
		want string // JSON of the contradictions
	}{
		{name: "same key, different values", rule: base,
			docs: []string{`{"findings":[{"file":"server.go","line":42,"severity":"blocker"}]}`, `{"findings":[{"file":"server.go","line":42,"severity":"fine"}]}`},
			want: `[{"rule":"severity","kind":"conflict","key":{"file":"server.go","line":42},"field":"severity","claims":[{"output":"agent1","path":"$.findings[0]","value":"blocker"},{"output":"agent2","path":"$.findings[0]","value":"fine"}]}]`},
		{name: "agreement", rule: base,
			docs: []string{`{"findings":[{"file":"a","line":1,"severity":"x"}]}`, `{"findings":[{"file":"a","line":1,"severity":"x"}]}`}, want: `null`},
		{name: "different keys", rule: base,
			docs: []string{`{"findings":[{"file":"a","line":1,"severity":"x"}]}`, `{"findings":[{"file":"a","line":2,"severity":"y"}]}`}, want: `null`},
		{name: "numbers compared by value", rule: crosscheck.Rule{Items: "$.items[*]", Key: []string{"id"}, Compare: []string{"n"}},
			docs: []string{`{"items":[{"id":1,"n":2}]}`, `{"items":[{"id":1.0,"n":2.0}]}`}, want: `null`},
		{name: "type mismatch between outputs", rule: crosscheck.Rule{Name: "n", Items: "$.items[*]", Key: []string{"id"}, Compare: []string{"n"}},
			docs: []string{`{"items":[{"id":"a","n":5}]}`, `{"items":[{"id":"a","n":"5"}]}`},
			want: `[{"rule":"n","kind":"conflict","key":{"id":"a"},"field":"n","claims":[{"output":"agent1","path":"$.items[0]","value":5},{"output":"agent2","path":"$.items[0]","value":"5"}]}]`},
		{name: "within tolerance", rule: crosscheck.Rule{Items: "$.items[*]", Key: []string{"id"}, Compare: []string{"score"}, Tolerance: map[string]float64{"score": 0.5}},
			docs: []string{`{"items":[{"id":"a","score":7.2}]}`, `{"items":[{"id":"a","score":7.6}]}`}, want: `null`},
		{name: "beyond tolerance", rule: crosscheck.Rule{Name: "s", Items: "$.items[*]", Key: []string{"id"}, Compare: []string{"score"}, Tolerance: map[string]float64{"score": 0.5}},
			docs: []string{`{"items":[{"id":"a","score":7}]}`, `{"items":[{"id":"a","score":8}]}`},
			want: `[{"rule":"s","kind":"conflict","key":{"id":"a"},"field":"score","claims":[{"output":"agent1","path":"$.items[0]","value":7},{"output":"agent2","path":"$.items[0]","value":8}]}]`},
		{name: "same enum group", rule: crosscheck.Rule{Items: "$.findings[*]", Key: []string{"file"}, Compare: []string{"severity"}, Groups: map[string][][]any{"severity": {{"blocker", "critical"}, {"minor", "nit"}}}},
			docs: []string{`{"findings":[{"file":"a","severity":"blocker"}]}`, `{"findings":[{"file":"a","severity":"critical"}]}`}, want: `null`},
		{name: "different enum groups", rule: crosscheck.Rule{Name: "g", Items: "$.findings[*]", Key: []string{"file"}, Compare: []string{"severity"}, Groups: map[string][][]any{"severity": {{"blocker", "critical"}, {"minor", "nit"}}}},
			docs: []string{`{"findings":[{"file":"a","severity":"blocker"}]}`, `{"findings":[{"file":"a","severity":"nit"}]}`},
			want: `[{"rule":"g","kind":"conflict","key":{"file":"a"},"field":"severity","claims":[{"output":"agent1","path":"$.findings[0]","value":"blocker"},{"output":"agent2","path":"$.findings[0]","value":"nit"}]}]`},
		{name: "missing key field: not compared", rule: base,
			docs: []string{`{"findings":[{"file":"a","severity":"x"}]}`, `{"findings":[{"file":"a","severity":"y"}]}`}, want: `null`},
		{name: "missing compared field: no claim", rule: base,
			docs: []string{`{"findings":[{"file":"a","line":1}]}`, `{"findings":[{"file":"a","line":1,"severity":"y"}]}`}, want: `null`},
		{name: "items not objects", rule: base, docs: []string{`{"findings":["a"]}`, `{"findings":[1]}`}, want: `null`},
		{name: "empty inputs", rule: base, docs: nil, want: `null`},
		{name: "output without items", rule: base, docs: []string{`{}`, `null`, `{"findings":{"file":"a"}}`}, want: `null`},
		{name: "duplicate key inside one output only", rule: base,
			docs: []string{`{"findings":[{"file":"a","line":1,"severity":"x"},{"file":"a","line":1,"severity":"y"}]}`, `{"findings":[]}`}, want: `null`},
		{name: "duplicate key inside one output against another", rule: base,
			docs: []string{`{"findings":[{"file":"a","line":1,"severity":"x"},{"file":"a","line":1,"severity":"y"}]}`, `{"findings":[{"file":"a","line":1,"severity":"x"}]}`},
			want: `[{"rule":"severity","kind":"conflict","key":{"file":"a","line":1},"field":"severity","claims":[{"output":"agent1","path":"$.findings[0]","value":"x"},{"output":"agent1","path":"$.findings[1]","value":"y"},{"output":"agent2","path":"$.findings[0]","value":"x"}]}]`},
		{name: "near match", rule: crosscheck.Rule{Name: "near", Items: "$.findings[*]", Key: []string{"file", "line"}, Compare: []string{"severity"}, Near: &crosscheck.Near{Field: "line", Within: 2}},
			docs: []string{`{"findings":[{"file":"a","line":40,"severity":"high"}]}`, `{"findings":[{"file":"a","line":42,"severity":"low"},{"file":"b","line":41,"severity":"low"},{"file":"a","line":50,"severity":"low"}]}`},
			want: `[{"rule":"near","kind":"near","key":{"file":"a","line":40},"field":"severity","claims":[{"output":"agent1","path":"$.findings[0]","value":"high"},{"output":"agent2","path":"$.findings[0]","value":"low"}]}]`},
		{name: "near match that agrees", rule: crosscheck.Rule{Items: "$.findings[*]", Key: []string{"file", "line"}, Compare: []string{"severity"}, Near: &crosscheck.Near{Field: "line", Within: 2}},
			docs: []string{`{"findings":[{"file":"a","line":40,"severity":"high"}]}`, `{"findings":[{"file":"a","line":41,"severity":"high"}]}`}, want: `null`},
		{name: "presence off by default", rule: base,
			docs: []string{`{"findings":[{"file":"a","line":1,"severity":"x"}]}`, `{"findings":[]}`}, want: `null`},
		{name: "presence when asked", rule: crosscheck.Rule{Name: "p", Items: "$.findings[*]", Key: []string{"file", "line"}, Presence: true},
			docs: []string{`{"findings":[{"file":"a","line":1}]}`, `{"findings":[]}`, `{"other":true}`},
			want: `[{"rule":"p","kind":"missing","key":{"file":"a","line":1},"claims":[{"output":"agent1","path":"$.findings[0]"}],"missing":["agent2"]}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := crosscheck.Compile(tt.rule)
			require.NoError(t, err)
			got, err := json.Marshal(rs.Contradictions(outputs(t, tt.docs...)...))
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name string
		rule crosscheck.Rule
		msg  string
	}{
		{"bad path", crosscheck.Rule{Items: "findings", Key: []string{"a"}, Compare: []string{"b"}}, "items: not a path"},
		{"no key", crosscheck.Rule{Items: "$.x[*]", Compare: []string{"b"}}, "key:"},
		{"nothing compared", crosscheck.Rule{Items: "$.x[*]", Key: []string{"a"}}, "compare:"},
		{"tolerance of an uncompared field", crosscheck.Rule{Items: "$.x[*]", Key: []string{"a"}, Compare: []string{"b"}, Tolerance: map[string]float64{"c": 1}}, "tolerance.c"},
		{"negative tolerance", crosscheck.Rule{Items: "$.x[*]", Key: []string{"a"}, Compare: []string{"b"}, Tolerance: map[string]float64{"b": -1}}, "tolerance.b"},
		{"value in two groups", crosscheck.Rule{Items: "$.x[*]", Key: []string{"a"}, Compare: []string{"b"}, Groups: map[string][][]any{"b": {{"x", "y"}, {"y"}}}}, "two groups"},
		{"near on a non-key field", crosscheck.Rule{Items: "$.x[*]", Key: []string{"a"}, Compare: []string{"b"}, Near: &crosscheck.Near{Field: "b", Within: 1}}, "near.field"},
		{"near without distance", crosscheck.Rule{Items: "$.x[*]", Key: []string{"a"}, Compare: []string{"b"}, Near: &crosscheck.Near{Field: "a"}}, "near.within"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := crosscheck.Compile(tt.rule)
			require.ErrorIs(t, err, crosscheck.ErrInvalidRule)
			assert.Contains(t, err.Error(), tt.msg)
			assert.Contains(t, err.Error(), `"rule 1"`)
		})
	}
}

func TestAnnotate(t *testing.T) {
	in := map[string]any{"prompt": "Write the review."}
	cs := []crosscheck.Contradiction{{Rule: "r", Kind: crosscheck.KindConflict, Key: map[string]any{"file": "a"}, Field: "severity",
		Claims: []crosscheck.Claim{{Output: "x", Path: "$.findings[0]", Value: "high"}, {Output: "y", Path: "$.findings[2]", Value: "low"}}}}
	out := crosscheck.Annotate(in, cs)
	assert.Equal(t, map[string]any{"prompt": "Write the review."}, in, "the input is not modified")
	data, err := json.Marshal(out)
	require.NoError(t, err)
	assert.JSONEq(t, `{"prompt":"Write the review.","contradictions":[{"rule":"r","kind":"conflict","key":{"file":"a"},"field":"severity","claims":[{"output":"x","path":"$.findings[0]","value":"high"},{"output":"y","path":"$.findings[2]","value":"low"}]}]}`, string(data))

	s, err := schema.Parse([]byte(crosscheck.ContradictionsSchema))
	require.NoError(t, err)
	assert.Empty(t, s.Validate(out[crosscheck.AnnotationKey]), "the annotation fits its schema")
	assert.Equal(t, []any{}, crosscheck.Annotate(nil, nil)[crosscheck.AnnotationKey], "none is an empty list")
}

func TestInvariants(t *testing.T) {
	tests := []struct {
		name  string
		inv   crosscheck.Invariant
		doc   string
		paths []string
		msgs  []string
	}{
		{name: "counts match", inv: crosscheck.Invariant{Kind: crosscheck.CountEquals, Counts: "$.counts", Items: "$.findings[*]", Field: "severity"},
			doc: `{"counts":{"blocker":1,"minor":2,"nit":0},"findings":[{"severity":"blocker"},{"severity":"minor"},{"severity":"minor"}]}`},
		{name: "every count checked", inv: crosscheck.Invariant{Kind: crosscheck.CountEquals, Counts: "$.counts", Items: "$.findings[*]", Field: "severity"},
			doc:   `{"counts":{"blocker":3,"minor":0},"findings":[{"severity":"minor"}]}`,
			paths: []string{"$.counts.blocker", "$.counts.minor"},
			msgs:  []string{"says 3 'blocker' items, but $.findings[*] holds 0 whose severity is 'blocker'", "says 0 'minor' items, but $.findings[*] holds 1 whose severity is 'minor'"}},
		{name: "one count by value", inv: crosscheck.Invariant{Kind: crosscheck.CountEquals, Counts: "$.blockers", Items: "$.findings[*]", Field: "severity", Value: "blocker"},
			doc: `{"blockers":2,"findings":[{"severity":"blocker"}]}`, paths: []string{"$.blockers"}},
		{name: "count not a number is the schema's business", inv: crosscheck.Invariant{Kind: crosscheck.CountEquals, Counts: "$.counts", Items: "$.findings[*]", Field: "severity"},
			doc: `{"counts":{"blocker":"many"},"findings":[]}`},
		{name: "no items", inv: crosscheck.Invariant{Kind: crosscheck.CountEquals, Counts: "$.counts", Items: "$.findings[*]", Field: "severity"},
			doc: `{"counts":{"blocker":1}}`, paths: []string{"$.counts.blocker"}},
		{name: "sum matches", inv: crosscheck.Invariant{Kind: crosscheck.SumEquals, Total: "$.total", Items: "$.lines[*]", Field: "amount", Tolerance: 0.005},
			doc: `{"total":30.3,"lines":[{"amount":10.1},{"amount":20.2}]}`},
		{name: "sum differs", inv: crosscheck.Invariant{Kind: crosscheck.SumEquals, Total: "$.total", Items: "$.lines[*]", Field: "amount"},
			doc: `{"total":100,"lines":[{"amount":60},{"amount":30}]}`, paths: []string{"$.total"}, msgs: []string{"100 is not the sum of amount over $.lines[*], which is 90"}},
		{name: "unique", inv: crosscheck.Invariant{Kind: crosscheck.UniqueBy, Items: "$.findings[*]", Key: []string{"file", "line"}},
			doc: `{"findings":[{"file":"a","line":1},{"file":"a","line":2},{"file":"b","line":1}]}`},
		{name: "duplicate", inv: crosscheck.Invariant{Kind: crosscheck.UniqueBy, Items: "$.findings[*]", Key: []string{"file", "line"}},
			doc: `{"findings":[{"file":"a","line":1},{"file":"b","line":2},{"file":"a","line":1}]}`, paths: []string{"$.findings[2]"},
			msgs: []string{"repeats $.findings[0] (same file 'a' and line 1)"}},
		{name: "references exist", inv: crosscheck.Invariant{Kind: crosscheck.ReferenceExists, Refs: "$.edges[*].from", Targets: "$.nodes[*].id"},
			doc: `{"nodes":[{"id":"a"},{"id":"b"}],"edges":[{"from":"a"},{"from":"b"}]}`},
		{name: "dangling reference", inv: crosscheck.Invariant{Kind: crosscheck.ReferenceExists, Refs: "$.edges[*].from", Targets: "$.nodes[*].id"},
			doc: `{"nodes":[{"id":"a"}],"edges":[{"from":"a"},{"from":"z"}]}`, paths: []string{"$.edges[1].from"}, msgs: []string{"'z' is not among $.nodes[*].id ('a')"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is, err := crosscheck.CompileInvariants(tt.inv)
			require.NoError(t, err)
			vs := is.Check(decode(t, tt.doc))
			var paths []string
			for i, v := range vs {
				paths = append(paths, v.Path)
				assert.Equal(t, "invariant", v.Keyword)
				assert.True(t, strings.HasPrefix(v.Pointer, "/"), v.Pointer)
				if i < len(tt.msgs) {
					assert.Contains(t, v.Message, tt.msgs[i])
				}
			}
			assert.Equal(t, tt.paths, paths)
		})
	}
}

func TestCompileInvariantErrors(t *testing.T) {
	_, err := crosscheck.CompileInvariants(
		crosscheck.Invariant{Kind: "count"},
		crosscheck.Invariant{Kind: crosscheck.CountEquals, Items: "$.f[*]"},
		crosscheck.Invariant{Kind: crosscheck.UniqueBy, Items: "f"},
	)
	require.ErrorIs(t, err, crosscheck.ErrInvalidRule)
	for _, want := range []string{`"count" is not one of`, "counts: required", "field:", "items: not a path", "key:"} {
		assert.Contains(t, err.Error(), want)
	}
}

// benchOutputs returns 3 outputs of n findings each, on the same lines;
// every disagree-th finding's severity differs between the outputs.
func benchOutputs(n, disagree int) []crosscheck.Output {
	sev := []string{"blocker", "major", "minor", "nit"}
	var out []crosscheck.Output
	for o := range 3 {
		var items []any
		for i := range n {
			s := sev[i%4]
			if i%disagree == 0 {
				s = sev[(i+o)%4]
			}
			items = append(items, map[string]any{"file": fmt.Sprintf("f%d.go", i%50), "line": float64(i), "severity": s})
		}
		out = append(out, crosscheck.Output{Name: fmt.Sprint("agent", o), Value: map[string]any{"findings": items}})
	}
	return out
}

// BenchmarkContradictions checks 3 outputs of 1,000 findings each, one in
// ten of which they disagree on (target: under 2 ms).
func BenchmarkContradictions(b *testing.B) {
	benchContradictions(b, 10)
}

// BenchmarkContradictionsAllDisagree is the worst case: the outputs
// disagree on every finding, and each disagreement is reported.
func BenchmarkContradictionsAllDisagree(b *testing.B) {
	benchContradictions(b, 1)
}

func benchContradictions(b *testing.B, disagree int) {
	rs, err := crosscheck.Compile(crosscheck.Rule{Items: "$.findings[*]", Key: []string{"file", "line"}, Compare: []string{"severity"}})
	require.NoError(b, err)
	outs := benchOutputs(1000, disagree)
	want := len(rs.Contradictions(outs...))
	require.Equal(b, 1000/disagree, want)
	b.ResetTimer()
	for range b.N {
		if len(rs.Contradictions(outs...)) != want {
			b.Fatal("contradictions changed")
		}
	}
}

// BenchmarkCountInvariant checks one output of 1,000 findings.
func BenchmarkCountInvariant(b *testing.B) {
	is, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.CountEquals, Counts: "$.counts", Items: "$.findings[*]", Field: "severity"})
	require.NoError(b, err)
	v := benchOutputs(1000, 10)[0].Value.(map[string]any)
	v["counts"] = map[string]any{"blocker": 250.0, "major": 250.0, "minor": 250.0, "nit": 250.0}
	b.ResetTimer()
	for range b.N {
		is.Check(v)
	}
}
