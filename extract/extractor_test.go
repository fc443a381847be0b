package extract_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand"
	"runtime"
	"sort"
	"strings"
	"testing"
	"unsafe"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/internal/shared"
)

// optionSets are the options TestExtractorAgreesWithPackageFunctions
// varies between calls. Each is a func so that the validators it makes
// log to the call's own record.
var optionSets = []struct {
	name string
	opts func(log *strings.Builder) []extract.Option
}{
	{name: "none", opts: func(*strings.Builder) []extract.Option { return nil }},
	{name: "repair", opts: func(*strings.Builder) []extract.Option { return []extract.Option{extract.WithRepair()} }},
	{name: "repair, last", opts: func(*strings.Builder) []extract.Option {
		return []extract.Option{extract.WithRepair(), extract.WithPreferLast()}
	}},
	{name: "repair, objects", opts: func(*strings.Builder) []extract.Option {
		return []extract.Option{extract.WithRepair(), extract.WithObjectsOnly()}
	}},
	{name: "repair, strict", opts: func(*strings.Builder) []extract.Option {
		return []extract.Option{extract.WithRepair(), extract.WithStrictJSONOnly()}
	}},
	{name: "strict", opts: func(*strings.Builder) []extract.Option { return []extract.Option{extract.WithStrictJSONOnly()} }},
	{name: "repair, without two rules", opts: func(*strings.Builder) []extract.Option {
		return []extract.Option{extract.WithRepair(), extract.WithoutRepairRule(extract.FixSingleQuote), extract.WithoutRepairRule(extract.FixMissingComma)}
	}},
	{name: "repair, accept objects", opts: func(log *strings.Builder) []extract.Option {
		return []extract.Option{extract.WithRepair(), extract.WithAccept(func(m json.RawMessage) bool {
			fmt.Fprintf(log, "shown %q\n", m)
			return len(m) > 0 && m[0] == '{'
		})}
	}},
	{name: "repair, accept by hash, strict", opts: func(log *strings.Builder) []extract.Option {
		return []extract.Option{extract.WithRepair(), extract.WithStrictJSONOnly(), extract.WithAccept(func(m json.RawMessage) bool {
			fmt.Fprintf(log, "shown %q\n", m)
			h := fnv.New32a()
			h.Write(m)
			return h.Sum32()%3 == 0
		})}
	}},
	{name: "repair, small limit", opts: func(*strings.Builder) []extract.Option {
		return []extract.Option{extract.WithRepair(), extract.WithMaxSize(2000)}
	}},
	{name: "nil option", opts: func(*strings.Builder) []extract.Option { return []extract.Option{extract.WithRepair(), nil} }},
}

// sameLengthPairs returns pairs of different replies of one length, one
// after the other: what one search of a text remembers of it (where its
// quotes close, which it tells by the text's length) must not serve the
// next.
func sameLengthPairs() []string {
	return []string{
		`{"a": "x, "b": "y"}`, `{"a": "x", "b: "y"}`,
		`['a", 'b', "c']`, `["a', 'b', 'c"]`,
		`{"k": "v "w" x", "n": 1}`, `{"k": "v", "w": "x", "n": 1}`,
		`{"a": "one, "b": "two, "c": 3}`, `{"a": "one", "b": "two", "c: 3}`,
		"{“a”: ‘b’, 'c': \"d}", "{'a': “b”, \"c\": ‘d}",
	}
}

// searchText renders what one search returned, for comparison.
func searchText(c extract.Candidate, err error, cs []extract.Candidate, log string) string {
	return fmt.Sprintf("json:\n%serr: %v\ncandidates:\n%sshown:\n%s", heldText([]extract.Candidate{c}), err, heldText(cs), log)
}

// TestExtractorAgreesWithPackageFunctions: one Extractor, reused for
// every call, returns what the package functions return (candidates,
// errors, and the values shown to validators, in order) over the rule
// cases, generated and mutated replies, large ones and replies of equal
// length, ordered by length, then shuffled twice, with options varying
// between calls;
// and what it returned stays as it was after all the later calls.
func TestExtractorAgreesWithPackageFunctions(t *testing.T) {
	n, sizes, large := 1000, []int{3000, 70000}, 4
	if testing.Short() || shared.Race {
		n, sizes, large = 200, []int{3000}, 1
	}
	ins := generatedReplies(n)
	ins = append(ins, heldInputs(t, n, sizes)...)
	ins = append(ins, generatedReplies(-large)...)
	ins = append(ins, sameLengthPairs()...)

	var x extract.Extractor
	type held struct {
		c    extract.Candidate
		cs   []extract.Candidate
		text string
	}
	var kept []held
	rng := rand.New(rand.NewSource(41))
	for round := range 3 {
		order := rng.Perm(len(ins))
		if round == 0 {
			// Once by length, so that replies of equal length follow each
			// other.
			sort.SliceStable(order, func(a, b int) bool { return len(ins[order[a]]) < len(ins[order[b]]) })
		}
		for _, i := range order {
			text := ins[i]
			set := optionSets[rng.Intn(len(optionSets))]
			var wantLog, gotLog strings.Builder
			wantC, wantErr := extract.JSON(text, set.opts(&wantLog)...)
			wantCs := extract.Candidates(text, set.opts(&wantLog)...)
			gotC, gotErr := x.JSON(text, set.opts(&gotLog)...)
			gotCs := x.Candidates(text, set.opts(&gotLog)...)
			want := searchText(wantC, wantErr, wantCs, wantLog.String())
			got := searchText(gotC, gotErr, gotCs, gotLog.String())
			require.Equal(t, want, got, "input %d with %s: %q", i, set.name, text)
			require.Equal(t, wantCs == nil, gotCs == nil, "input %d with %s: a nil list", i, set.name)
			if i%7 == 0 {
				kept = append(kept, held{gotC, gotCs, got})
			}
		}
	}
	for k, h := range kept {
		require.Contains(t, h.text, heldText([]extract.Candidate{h.c}), "result %d changed", k)
		require.Contains(t, h.text, heldText(h.cs), "result %d changed", k)
	}
}

// TestExtractorAllocations holds the claim of [extract.Extractor.JSON]:
// an Extractor repairing a reply that needs no more room than one it
// repaired before allocates only what the candidate holds.
func TestExtractorAllocations(t *testing.T) {
	tests := []struct {
		name string
		warm string // a reply repaired first
		text string
		// The allocations of the candidate: its JSON, its fixes, one
		// string of their texts, one detail per kind written from texts.
		want float64
	}{
		{
			name: "one-byte fixes: the value and the list",
			text: `Here: {'a': 1, 'b': [1, 2,],}`,
			want: 2,
		},
		{
			name: "python literals: and the texts, and a detail per literal",
			text: `{"a": True, "b": None, "c": [True, True],}`,
			want: 5,
		},
		{
			name: "a larger reply seen before",
			warm: brokenText(`{id 'x', name “item”}`, 64<<10),
			text: brokenText(`{id 'x', name “item”}`, 16<<10),
			want: 3,
		},
		{
			name: "a value that parses: its copy",
			text: `Sure: {"a": [1, 2]} and that's it.`,
			want: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var x extract.Extractor
			for _, text := range []string{tt.warm, tt.text} {
				_, err := x.JSON(text, extract.WithRepair())
				if text != "" {
					require.NoError(t, err)
				}
			}
			got := testing.AllocsPerRun(20, func() {
				c, err := x.JSON(tt.text, extract.WithRepair())
				if err != nil || len(c.JSON) == 0 {
					t.Fatal(err)
				}
			})
			assert.Equal(t, tt.want, got)
		})
	}
}

// heapHeld returns the bytes of live heap after a collection.
func heapHeld() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestExtractorKeepsAtMost8MiB holds the bound of [extract.Extractor]:
// after a reply whose repair needs tens of megabytes, the Extractor holds
// at most 8 MiB, and after a reply of a megabyte it keeps what the repair
// needed.
func TestExtractorKeepsAtMost8MiB(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a hundred megabytes")
	}
	tests := []struct {
		name     string
		text     string
		min, max int
	}{
		// Its repair needs 27 MB, the fix log 17 MB of them.
		{name: "a reply of 4 MiB, buffers dropped", text: brokenText(`{id 'x', name “item”}`, 4<<20), min: 1 << 20, max: 8 << 20},
		// Its repair needs 6 MB.
		{name: "a reply of 1 MiB, buffers kept", text: brokenText(`{id 'x', name “item”}`, 1<<20), min: 5 << 20, max: 8 << 20},
		{name: "a small reply", text: `{'a': 1,}`, max: 64 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := new(extract.Extractor)
			_, err := x.JSON(tt.text, extract.WithRepair())
			require.NoError(t, err)
			with := heapHeld()
			runtime.KeepAlive(x)
			x = nil
			held := int64(with) - int64(heapHeld())
			t.Logf("%d bytes held", held)
			assert.LessOrEqual(t, held, int64(tt.max))
			assert.GreaterOrEqual(t, held, int64(tt.min))
		})
	}
}

// TestExtractorForgetsTheCall: between calls an Extractor holds nothing
// of the last one (the reply, its results, the validator), so that the
// collector frees what the caller drops.
func TestExtractorForgetsTheCall(t *testing.T) {
	for _, candidates := range []bool{false, true} {
		t.Run(fmt.Sprintf("candidates %v", candidates), func(t *testing.T) {
			x := new(extract.Extractor)
			text := "Result: " + brokenText(`{'id': 1, "ok": True}`, 64<<10)
			seen := bytes.Repeat([]byte("x"), 4096) // the validator's own memory
			own := seen
			accept := func(m json.RawMessage) bool { return len(m) > len(own)-4096 }
			var cs []extract.Candidate
			if candidates {
				cs = x.Candidates(text, extract.WithRepair(), extract.WithAccept(accept))
			} else {
				c, err := x.JSON(text, extract.WithRepair(), extract.WithAccept(accept))
				require.NoError(t, err)
				cs = []extract.Candidate{c}
			}
			require.NotEmpty(t, cs)
			require.NotEmpty(t, cs[0].Fixes)
			weaks := []weak.Pointer[byte]{weak.Make(unsafe.StringData(text)), weak.Make(&seen[0])}
			for _, c := range cs {
				weaks = append(weaks, weak.Make(&c.JSON[0]))
			}
			fixes := weak.Make(&cs[0].Fixes[0])
			list := weak.Make(&cs[0])
			text, seen, accept, cs = "", nil, nil, nil
			runtime.GC()
			for i, w := range weaks {
				assert.Nil(t, w.Value(), "object %d is still reachable", i)
			}
			assert.Nil(t, fixes.Value(), "the fixes are still reachable")
			assert.Nil(t, list.Value(), "the list is still reachable")
			runtime.KeepAlive(x)
		})
	}
}

// TestExtractorCalledFromItsOwnAccept holds the doc: a method called
// from a WithAccept func of one of the Extractor's own calls works as the
// package function does, and the outer call's result is unchanged by it.
func TestExtractorCalledFromItsOwnAccept(t *testing.T) {
	reply := "first {'a': 1,} then ```json\n{\"c\": 3}\n``` and {\"b\": 2}"
	inner := "text {'x': [1, 2,]} more"
	accept := func(call func(string) (extract.Candidate, error), seen *[]extract.Candidate) func(json.RawMessage) bool {
		return func(raw json.RawMessage) bool {
			c, err := call(inner)
			require.NoError(t, err)
			*seen = append(*seen, c)
			return strings.Contains(string(raw), `"b"`) // the second in order
		}
	}
	var x extract.Extractor
	var gotSeen, wantSeen []extract.Candidate
	got, err := x.JSON(reply, extract.WithRepair(), extract.WithAccept(accept(func(s string) (extract.Candidate, error) {
		return x.JSON(s, extract.WithRepair())
	}, &gotSeen)))
	require.NoError(t, err)
	want, err := extract.JSON(reply, extract.WithRepair(), extract.WithAccept(accept(func(s string) (extract.Candidate, error) {
		return extract.JSON(s, extract.WithRepair())
	}, &wantSeen)))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.JSONEq(t, `{"b": 2}`, string(got.JSON))
	require.GreaterOrEqual(t, len(gotSeen), 2, "accept is asked of more than the first")
	assert.Equal(t, wantSeen, gotSeen)
	var inCands []extract.Candidate
	got, err = x.JSON(reply, extract.WithAccept(func(raw json.RawMessage) bool {
		inCands = x.Candidates(inner, extract.WithRepair())
		return strings.Contains(string(raw), `"b"`)
	}))
	require.NoError(t, err)
	assert.JSONEq(t, `{"b": 2}`, string(got.JSON))
	require.NotEmpty(t, inCands)
	assert.Equal(t, extract.Candidates(inner, extract.WithRepair()), inCands)
	// And the Extractor serves the next call as before.
	again, err := x.JSON(reply, extract.WithRepair())
	require.NoError(t, err)
	fresh, _ := extract.JSON(reply, extract.WithRepair())
	assert.Equal(t, fresh, again)
}
