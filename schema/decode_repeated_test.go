package schema_test

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/shared"
	"github.com/agentio/agentio/schema"
)

// TestDecodeRepeatedKeyDiscardedPart: in an object with a repeated name,
// the values the last one replaced are dropped while the document is still
// being decoded, so the collector may free them and give their memory to a
// later array of the same length. Decode must not answer for that later
// array with the verdict of the dropped one: Decode must list what
// Validate lists on the same value.
func TestDecodeRepeatedKeyDiscardedPart(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"array","items":{"type":"object","required":["z"],
		"properties":{"a":{"type":"array","items":{"type":"integer"}}}}}`))
	require.NoError(t, err)
	// Each object: a valid [1] under "a", replaced by an invalid ["x"].
	var b strings.Builder
	b.WriteString("[")
	const n = 4000
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"a":[1],"a":["x"]}`)
	}
	b.WriteString("]")
	doc := []byte(b.String())
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	for round := range 10 {
		v, vs, err := s.Decode(doc)
		require.NoError(t, err)
		var want any
		require.NoError(t, json.Unmarshal(doc, &want))
		require.Equal(t, want, v)
		wantVs := s.Validate(v)
		require.Len(t, wantVs, 2*n)
		if !assert.Equal(t, len(wantVs), len(vs), "round %d: Decode lists fewer violations than Validate", round) {
			missing := 0
			for _, w := range wantVs {
				if w.Keyword == "type" {
					missing++
				}
			}
			for _, g := range vs {
				if g.Keyword == "type" {
					missing--
				}
			}
			t.Logf("%d type violations missing", missing)
			return
		}
	}
}

// TestDecodeRepeatedKeyDiscardedMemo: the same as
// TestDecodeRepeatedKeyDiscardedPart for the verdicts a memo node keeps
// while the document is decoded (decodeRun.fastRun.memo): a dropped
// value's verdict must not be taken for a later array at its address.
func TestDecodeRepeatedKeyDiscardedMemo(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"array","items":{"type":"object",
		"properties":{"a":{"anyOf":[{"type":"array","items":{"type":"integer"}},{"type":"string"}]}}}}`))
	require.NoError(t, err)
	var b strings.Builder
	b.WriteString("[")
	const n = 4000
	for range n {
		b.WriteString(`{"a":[1],"a":[2]},`)
	}
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"a":[3]}`)
	}
	b.WriteString(`,{"a":["x"]}]`)
	doc := []byte(b.String())
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	for round := range 30 {
		v, vs, err := s.Decode(doc)
		require.NoError(t, err)
		want := s.Validate(v)
		require.NotEmpty(t, want)
		if !assert.Equal(t, want, vs, "round %d", round) {
			return
		}
	}
}

// TestScalingDecodeRepeatedNames: Decode judged an object that repeats a
// name again as a whole (fastRun.node) once its members were judged as
// read, so a part below k such objects was judged k+1 times: 120 of them,
// each writing "b" twice, above one array of 100,001 integers, made
// Decode about 25x slower than the same document without the repeated
// name (quadratic in depth under a raised MaxDepth). Decode must cost
// about the same for both (here: at most 4x). It times runs, so it runs
// in the measuring pass (its name matches make measure's -run Scaling),
// without -race.
func TestScalingDecodeRepeatedNames(t *testing.T) {
	shared.Measuring(t)
	s, err := schema.Parse([]byte(`{"$defs":{"n":{"type":"object","properties":{"a":{"$ref":"#/$defs/n"},"b":{"type":"integer"},
		"big":{"type":"array","items":{"type":"integer"}}}}},"$ref":"#/$defs/n"}`))
	require.NoError(t, err)
	big := `{"big":[` + strings.Repeat("1,", 100000) + `1]}`
	plain := []byte(strings.Repeat(`{"b":1,"a":`, 120) + big + strings.Repeat("}", 120))
	repeated := []byte(strings.Repeat(`{"b":1,"b":2,"a":`, 120) + big + strings.Repeat("}", 120))
	for _, doc := range [][]byte{plain, repeated} {
		_, vs, err := s.Decode(doc)
		require.NoError(t, err)
		require.Empty(t, vs)
	}
	var best [2]time.Duration
	for range 5 {
		for i, doc := range [][]byte{plain, repeated} {
			got := timeOf(func() { _, _, _ = s.Decode(doc) })
			if best[i] == 0 || got < best[i] {
				best[i] = got
			}
		}
	}
	assert.Less(t, float64(best[1])/float64(best[0]), 4.0, "Decode: %v without a repeated name, %v with one at each level", best[0], best[1])
}
