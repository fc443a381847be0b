package extract_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
)

// brokenReply returns a reply holding n broken values, each large enough
// (over a few kilobytes) that repair sizes its output buffer from the text
// and a candidate may take that buffer.
func brokenReply(n, size int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Value %d:\n{'id': %d, 'items': [", i, i)
		for j := 0; b.Len() < (i+1)*size; j++ {
			fmt.Fprintf(&b, "{'k%d': True, \"n\": +%d, 'v': None, s: 'x_%d'}, ", j, j, j)
		}
		b.WriteString("], 'end': 1,}\n\n")
	}
	return b.String()
}

// snapshot is a deep copy of candidates.
func snapshot(cs []extract.Candidate) []extract.Candidate {
	if cs == nil {
		return nil
	}
	out := make([]extract.Candidate, len(cs))
	for i, c := range cs {
		c.JSON = bytes.Clone(c.JSON)
		c.Fixes = append([]extract.Fix(nil), c.Fixes...)
		for j := range c.Fixes {
			c.Fixes[j].Before = strings.Clone(c.Fixes[j].Before)
			c.Fixes[j].After = strings.Clone(c.Fixes[j].After)
			c.Fixes[j].Detail = strings.Clone(c.Fixes[j].Detail)
		}
		out[i] = c
	}
	return out
}

// checkCandidates checks every candidate is valid JSON and every fix's
// Before is the input's text at its Offset.
func checkCandidates(t *testing.T, text string, cs []extract.Candidate) {
	t.Helper()
	for i, c := range cs {
		require.Truef(t, json.Valid(c.JSON), "candidate %d is not valid JSON: %.200q", i, c.JSON)
		for j, f := range c.Fixes {
			require.GreaterOrEqual(t, f.Offset, 0)
			require.LessOrEqualf(t, f.Offset+len(f.Before), len(text), "candidate %d fix %d", i, j)
			require.Equalf(t, f.Before, text[f.Offset:f.Offset+len(f.Before)], "candidate %d fix %d (%s)", i, j, f.Kind)
		}
	}
}

func TestCandidatesRepairedOwnTheirBytes(t *testing.T) {
	for _, size := range []int{200, 6000, 40000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			text := brokenReply(4, size)
			cs := extract.Candidates(text, extract.WithRepair())
			repaired := 0
			for _, c := range cs {
				if c.Source == extract.SourceRepaired {
					repaired++
				}
			}
			require.GreaterOrEqual(t, repaired, 4)
			checkCandidates(t, text, cs)
			want := snapshot(cs)

			// Another call, with its own repairs, leaves the first call's
			// results alone.
			other := extract.Candidates(brokenReply(5, size+100), extract.WithRepair())
			require.NotEmpty(t, other)
			for k := range other {
				other[k].JSON = append(other[k].JSON, " trailing"...)
				for j := range other[k].JSON {
					other[k].JSON[j] = 'X'
				}
			}
			assert.Equal(t, want, cs)

			// Writing to one candidate's bytes, or appending to them,
			// changes no other.
			for k := range cs {
				cs[k].JSON = append(cs[k].JSON, "!!!!!!!!"...)
				for j := range cs[k].JSON[:len(cs[k].JSON)-8] {
					cs[k].JSON[j] = '#'
				}
				for m := k + 1; m < len(cs); m++ {
					require.Equalf(t, want[m].JSON, cs[m].JSON, "candidate %d changed by writing to %d", m, k)
				}
			}
		})
	}
}

func TestAcceptRetainedJSONDoesNotChange(t *testing.T) {
	for _, size := range []int{200, 6000, 40000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			// Each value holds a guess ("a, b] may be one string or two)
			// so that the validator judges both readings.
			var b strings.Builder
			for i := range 4 {
				fmt.Fprintf(&b, "Value %d:\n{\"id\": %d, \"rows\": [", i, i)
				for j := 0; b.Len() < (i+1)*size; j++ {
					fmt.Fprintf(&b, "{'n': %d, 'ok': True}, ", j)
				}
				if i < 3 {
					b.WriteString("]}\n\n")
				}
			}
			b.WriteString(`"tail, end]}`) // one string or two: a guess
			text := b.String()
			type seen struct{ held, copy []byte }
			var kept []seen
			accept := func(js json.RawMessage) bool {
				kept = append(kept, seen{js, bytes.Clone(js)})
				return !bytes.Contains(js, []byte(`"tail, end"`))
			}
			cs := extract.Candidates(text, extract.WithRepair(), extract.WithAccept(accept))
			checkCandidates(t, text, cs)
			_, err := extract.JSON(text, extract.WithRepair(), extract.WithAccept(accept))
			require.NoError(t, err)
			require.NotEmpty(t, kept)
			guessed := false
			for _, k := range kept {
				guessed = guessed || bytes.HasSuffix(k.copy, []byte(`"tail","end"]}`))
			}
			require.True(t, guessed, "the validator judged both readings of the guess")
			for i, k := range kept {
				require.Equalf(t, k.copy, k.held, "the bytes the validator was given (call %d) changed", i)
			}
		})
	}
}

// TestConcurrentRepairsAgree: repairs of the same replies on several
// goroutines at once, with and without a validator, give the results one
// goroutine gives (run it with -race).
func TestConcurrentRepairsAgree(t *testing.T) {
	texts := []string{brokenReply(3, 300), brokenReply(2, 6000), "[" + strings.Repeat(`"a, `, 50) + "]", `{"a": "first, "b": 2, 'c': None, d: [1, 2,`}
	anything := func(json.RawMessage) bool { return true }
	optsets := [][]extract.Option{{extract.WithRepair()}, {extract.WithRepair(), extract.WithAccept(anything)}}
	type result struct {
		cs []extract.Candidate
		c  extract.Candidate
	}
	run := func(text string, opts []extract.Option) result {
		c, _ := extract.JSON(text, opts...)
		return result{extract.Candidates(text, opts...), c}
	}
	var want []result
	for _, text := range texts {
		for _, opts := range optsets {
			want = append(want, run(text, opts))
		}
	}
	const workers = 4
	got := make([][]result, workers)
	done := make(chan int)
	for w := range workers {
		go func() {
			for range 3 {
				got[w] = got[w][:0]
				for _, text := range texts {
					for _, opts := range optsets {
						got[w] = append(got[w], run(text, opts))
					}
				}
			}
			done <- w
		}()
	}
	for range workers {
		<-done
	}
	for w := range workers {
		require.Equal(t, want, got[w], "worker %d", w)
	}
}
