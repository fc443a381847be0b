package schema_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/shared"
	"github.com/agentio/agentio/schema"
)

// A scalingCase builds, for a size n along one dimension of the input, a
// schema and a valid and an invalid document.
type scalingCase struct {
	name string
	base int // the first size: large enough to be timed
	// build returns the schema, a valid document and an invalid one.
	build func(n int) (sch, good, bad string)
	// maxDepth is the ParseOptions.MaxDepth a size needs (0: the default).
	maxDepth func(n int) int
}

// scalingCases are the dimensions of a validation's input: each grows
// one of them, all else held.
var scalingCases = []scalingCase{
	{
		name: "names per object",
		base: 2500,
		build: func(n int) (string, string, string) {
			var b strings.Builder
			b.WriteString("{")
			for i := range n {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"key%07d":%d`, i, i)
			}
			good := b.String() + "}"
			return `{"type":"object","required":["key0000000"],"additionalProperties":{"type":"integer","minimum":0}}`,
				good, good[:len(good)-1] + `,"last":-1}`
		},
	},
	{
		name: "names per object, declared",
		base: 1000,
		build: func(n int) (string, string, string) {
			var sch, doc strings.Builder
			sch.WriteString(`{"type":"object","additionalProperties":false,"properties":{`)
			doc.WriteString("{")
			for i := range n {
				if i > 0 {
					sch.WriteString(",")
					doc.WriteString(",")
				}
				fmt.Fprintf(&sch, `"key%07d":{"type":"integer"}`, i)
				fmt.Fprintf(&doc, `"key%07d":%d`, i, i)
			}
			sch.WriteString("}}")
			good := doc.String() + "}"
			return sch.String(), good, good[:len(good)-1] + `,"extra":1}`
		},
	},
	{
		name: "array length",
		base: 2000,
		build: func(n int) (string, string, string) {
			items := strings.Repeat(`{"id":1,"tag":"ab","ok":true},`, n)
			good := "[" + items[:len(items)-1] + "]"
			return `{"type":"array","items":{"type":"object","required":["id","tag"],"properties":{"id":{"type":"integer"},"tag":{"type":"string","maxLength":4},"ok":{"type":"boolean"}}}}`,
				good, "[" + items + `{"id":"x","tag":"ab"}]`
		},
	},
	{
		name: "nesting depth",
		base: 100,
		build: func(n int) (string, string, string) {
			sch := `{"$ref":"#/$defs/node","$defs":{"node":{"type":"object","properties":{"a":{"$ref":"#/$defs/node"},"v":{"type":"integer"}}}}}`
			return sch, strings.Repeat(`{"a":`, n) + `{"v":1}` + strings.Repeat("}", n),
				strings.Repeat(`{"a":`, n) + `{"v":"x"}` + strings.Repeat("}", n)
		},
		maxDepth: func(n int) int { return n + 8 },
	},
	{
		name: "nesting depth under anyOf",
		base: 250,
		build: func(n int) (string, string, string) {
			sch := `{"$ref":"#/$defs/node","$defs":{"node":{"anyOf":[{"type":"integer"},{"type":"object","required":["a"],"properties":{"a":{"$ref":"#/$defs/node"}}}]}}}`
			return sch, strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n),
				strings.Repeat(`{"a":`, n) + `"x"` + strings.Repeat("}", n)
		},
		maxDepth: func(n int) int { return n + 8 },
	},
	{
		name: "string length",
		base: 64 << 10,
		build: func(n int) (string, string, string) {
			s := strings.Repeat("abcd efgh ", n/10)
			sch := fmt.Sprintf(`{"type":"object","properties":{"text":{"type":"string","maxLength":%d,"pattern":"^[a-z ]*$"}}}`, 2*n)
			return sch, `{"text":"` + s + `"}`, `{"text":"` + s + `!"}`
		},
	},
	{
		name: "enum size",
		base: 500,
		build: func(n int) (string, string, string) {
			members := make([]string, n)
			for i := range members {
				members[i] = fmt.Sprintf(`"member-%d"`, i)
			}
			items := strings.Repeat(members[n-1]+",", 500)
			sch := `{"type":"array","items":{"enum":[` + strings.Join(members, ",") + `]}}`
			return sch, "[" + items[:len(items)-1] + "]", "[" + items + `"none"]`
		},
	},
	{
		name: "alternatives under anyOf",
		base: 32,
		build: func(n int) (string, string, string) {
			alts := make([]string, n)
			for i := range alts {
				alts[i] = fmt.Sprintf(`{"type":"object","required":["kind"],"properties":{"kind":{"const":"k%d"}}}`, i)
			}
			items := strings.Repeat(fmt.Sprintf(`{"kind":"k%d"},`, n-1), 200)
			sch := `{"type":"array","items":{"anyOf":[` + strings.Join(alts, ",") + `]}}`
			return sch, "[" + items[:len(items)-1] + "]", "[" + items + `{"kind":"none"}]`
		},
	},
	{
		name: "alternatives under oneOf",
		base: 32,
		build: func(n int) (string, string, string) {
			alts := make([]string, n)
			for i := range alts {
				alts[i] = fmt.Sprintf(`{"type":"object","required":["kind"],"properties":{"kind":{"const":"k%d"}}}`, i)
			}
			items := strings.Repeat(`{"kind":"k0"},`, 200)
			sch := `{"type":"array","items":{"oneOf":[` + strings.Join(alts, ",") + `]}}`
			return sch, "[" + items[:len(items)-1] + "]", "[" + items + `{"kind":"none"}]`
		},
	},
	{
		name: "patternProperties count",
		base: 32,
		build: func(n int) (string, string, string) {
			pats := make([]string, n)
			for i := range pats {
				pats[i] = fmt.Sprintf(`"^p%d_":{"type":"integer"}`, i)
			}
			var doc strings.Builder
			doc.WriteString("{")
			for i := range 400 {
				if i > 0 {
					doc.WriteString(",")
				}
				fmt.Fprintf(&doc, `"p%d_%d":%d`, i%n, i, i)
			}
			good := doc.String() + "}"
			sch := `{"type":"object","patternProperties":{` + strings.Join(pats, ",") + `}}`
			return sch, good, good[:len(good)-1] + `,"p0_x":"x"}`
		},
	},
	{
		name: "violations",
		base: 1000,
		build: func(n int) (string, string, string) {
			good := strings.Repeat(`"abc",`, n)
			bad := strings.Repeat(`"a",`, n)
			return `{"type":"array","items":{"type":"string","minLength":3}}`,
				"[" + good[:len(good)-1] + "]", "[" + bad[:len(bad)-1] + "]"
		},
	},
}

// timeOf returns how long a run of f takes once a first run has grown
// the goroutine's stack, the collector stopped (it runs before, not
// during): a heap that crosses the collector's first threshold at one size
// and not at another, or a deep value's first run growing a stack the
// collector shrank, would read as growth that is not the work's.
func timeOf(f func()) time.Duration {
	runtime.GC()
	f()
	// Runs are repeated until they take 5 ms, so a short run is timed over
	// many and a long one alone.
	start, runs := time.Now(), 0
	for runs == 0 || time.Since(start) < 5*time.Millisecond {
		f()
		runs++
	}
	return time.Since(start) / time.Duration(runs)
}

// TestScaling grows each dimension of a validation's input 4x twice and
// fails when a path's time grows more than 6x in a step (more only as far
// as decoding the same documents grew more than 4x), or its allocations
// more than 5x: every path is linear in every dimension. A step up to 9x
// whose allocations grew at most 4.5x is logged rather than failed: the
// work counted is linear, and a shared machine can cost that much more
// for a larger input's memory. It times runs, so it runs in the measuring
// pass (without -race, see internal/shared.Measuring); each time is the
// fastest of five rounds that visit the sizes in turn, so that the
// machine's drift weighs on every size alike, and of more rounds when a
// step looks too steep.
func TestScaling(t *testing.T) {
	shared.Measuring(t)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	type path struct {
		name string
		run  func(s *schema.Schema, doc []byte, v any)
	}
	paths := []path{
		{"Validate", func(s *schema.Schema, _ []byte, v any) { s.Validate(v) }},
		{"ValidateJSON", func(s *schema.Schema, doc []byte, _ any) { _, _ = s.ValidateJSON(doc) }},
		{"Decode", func(s *schema.Schema, doc []byte, _ any) { _, _, _ = s.Decode(doc) }},
	}
	for _, tc := range scalingCases {
		t.Run(tc.name, func(t *testing.T) {
			sizes := []int{tc.base, 4 * tc.base, 16 * tc.base}
			type input struct {
				s     *schema.Schema
				kind  string
				doc   []byte
				value any
			}
			inputs := make([][]input, len(sizes)) // by size: the valid, then the invalid document
			for i, n := range sizes {
				sch, good, bad := tc.build(n)
				opts := &schema.ParseOptions{}
				if tc.maxDepth != nil {
					opts.MaxDepth = tc.maxDepth(n)
				}
				s, err := schema.ParseWith([]byte(sch), opts)
				require.NoError(t, err)
				for _, doc := range []input{{kind: "valid", doc: []byte(good)}, {kind: "invalid", doc: []byte(bad)}} {
					v, vs, err := s.Decode(doc.doc)
					require.NoError(t, err, "size %d, %s", n, doc.kind)
					require.Equal(t, doc.kind == "valid", len(vs) == 0, "size %d: the %s document: %v", n, doc.kind, vs)
					doc.s, doc.value = s, v
					inputs[i] = append(inputs[i], doc)
				}
			}
			for _, p := range paths {
				for d := range inputs[0] {
					// Each size is timed beside a reference that is linear in
					// the document (encoding/json decoding it), in the same
					// rounds: when a larger document costs the machine more
					// than 4x per 4x (its caches, its memory, other work on
					// it), the reference shows it, and the step may grow by
					// as much more.
					best, ref := make([]time.Duration, len(sizes)), make([]time.Duration, len(sizes))
					measure := func(rounds int) {
						for range rounds {
							for i := range sizes {
								in := inputs[i][d]
								got := timeOf(func() { p.run(in.s, in.doc, in.value) })
								if best[i] == 0 || got < best[i] {
									best[i] = got
								}
								got = timeOf(func() {
									var v any
									_ = json.Unmarshal(in.doc, &v)
								})
								if ref[i] == 0 || got < ref[i] {
									ref[i] = got
								}
							}
						}
					}
					allowed := func(i int) float64 {
						return 6 * max(1, float64(ref[i])/float64(ref[i-1])/4)
					}
					// A step that stays under a millisecond is mostly
					// overhead: too short to judge on a shared machine.
					steep := func() bool {
						for i := 1; i < len(best); i++ {
							if best[i] >= time.Millisecond && float64(best[i]) > allowed(i)*float64(best[i-1]) {
								return true
							}
						}
						return false
					}
					// A busy machine slows some runs: look again before
					// judging, longer each time; work that is not linear stays
					// steep however long it is looked at.
					for _, rounds := range []int{5, 10, 30} {
						if measure(rounds); !steep() {
							break
						}
					}
					key := p.name + ", " + inputs[0][d].kind
					// What a run allocates is counted, not timed, so it tells
					// linear from not whatever the machine does: 4x the input,
					// at most 5x the allocations.
					allocs := make([]float64, len(sizes))
					for i := range sizes {
						in := inputs[i][d]
						allocs[i] = testing.AllocsPerRun(2, func() { p.run(in.s, in.doc, in.value) })
						if i > 0 && allocs[i-1] > 0 {
							assert.LessOrEqual(t, allocs[i], 5*allocs[i-1], "%s: %d -> %d grows the allocations %.1fx", key, sizes[i-1], sizes[i], allocs[i]/allocs[i-1])
						}
					}
					t.Logf("%-22s %6d: %10v  %6d: %10v  %6d: %10v  (decoding: %v, %v, %v; allocations: %.0f, %.0f, %.0f)", key, sizes[0], best[0], sizes[1], best[1], sizes[2], best[2], ref[0], ref[1], ref[2], allocs[0], allocs[1], allocs[2])
					for i := 1; i < len(best); i++ {
						if best[i] < time.Millisecond {
							continue
						}
						growth := float64(best[i]) / float64(best[i-1])
						msg := fmt.Sprintf("%s: %d -> %d grows the time %.1fx (%v -> %v); decoding grew %.1fx, the allocations %.1fx", key, sizes[i-1], sizes[i],
							growth, best[i-1], best[i], float64(ref[i])/float64(ref[i-1]), allocs[i]/max(allocs[i-1], 1))
						if growth > allowed(i) && growth <= 1.5*allowed(i) && allocs[i] <= 4.5*max(allocs[i-1], 1) {
							// Counted work grew linearly: a step this near the
							// bound is the machine's (a larger input's memory,
							// other work), not the code's.
							t.Log("near the bound, with linear allocations: " + msg)
							continue
						}
						assert.LessOrEqual(t, growth, allowed(i), msg)
					}
				}
			}
		})
	}
}
