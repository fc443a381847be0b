package extract_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/extract"
)

// TestPackageFunctionsAllocateAsBefore holds extract.JSON and
// extract.Candidates, which run an Extractor of one call, to the
// allocations they made before the Extractor existed, on replies holding
// fenced blocks (the usual shape of a model's reply): a cold review found
// them higher, the search's short lists having moved from the stack to
// the Extractor's memory. The limits are the counts measured before.
func TestPackageFunctionsAllocateAsBefore(t *testing.T) {
	tests := []struct {
		name             string
		text             string
		opts             []extract.Option
		json, candidates float64 // allocations at 2896312
	}{
		{name: "a json fence", text: "Here:\n```json\n{\"a\": 1}\n```\nDone.", json: 7, candidates: 7},
		{name: "a json fence and a plain one", text: "Here:\n```json\n{\"a\": 1}\n```\nand ```\n[2]\n```", json: 10, candidates: 12},
		{name: "a json fence, repair on", text: "```json\n{\"a\": 1}\n```", opts: []extract.Option{extract.WithRepair()}, json: 8, candidates: 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			json := testing.AllocsPerRun(50, func() {
				if _, err := extract.JSON(tt.text, tt.opts...); err != nil {
					t.Fatal(err)
				}
			})
			candidates := testing.AllocsPerRun(50, func() { extract.Candidates(tt.text, tt.opts...) })
			assert.LessOrEqual(t, json, tt.json, "JSON")
			assert.LessOrEqual(t, candidates, tt.candidates, "Candidates")
		})
	}
}

// TestExtractorAllocatesOnlyTheCandidate holds the claims of
// [extract.Extractor.JSON] ("repairing the reply without WithAccept, the
// Extractor allocates only what the candidate holds", and what each of
// several broken values holds when there are several; "a value found
// without repair costs its copy alone") on replies holding more than one
// value of the winning strategy. The review found the search copying
// every fenced value, of the winning rank and the next, where one was
// returned, and sort.Slice allocating for two repaired fences; the doc
// now says what several broken values cost (#41 review).
func TestExtractorAllocatesOnlyTheCandidate(t *testing.T) {
	tests := []struct {
		name string
		text string
		opts []extract.Option
		want float64 // what the candidate holds
	}{
		// The value and its list of one-byte fixes.
		{name: "one broken value in prose", text: "first {'a': 1,} then", opts: []extract.Option{extract.WithRepair()}, want: 2},
		// Each broken value and its list: which one is returned is known
		// only once both are repaired, as the doc says.
		{name: "two broken values in prose", text: "first {'a': 1,} then {'b': 2,}", opts: []extract.Option{extract.WithRepair()}, want: 4},
		{name: "two broken json fences", text: "```json\n{'a': 1,}\n```\n```json\n{'b': 2,}\n```", opts: []extract.Option{extract.WithRepair()}, want: 4},
		// The value's copy.
		{name: "a json fence and a plain one", text: "```json\n{\"a\": 1}\n```\n```\n{\"b\": 2}\n```", want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var x extract.Extractor
			c, err := x.JSON(tt.text, tt.opts...)
			if err != nil || len(c.JSON) == 0 {
				t.Fatal(err)
			}
			got := testing.AllocsPerRun(20, func() {
				if _, err := x.JSON(tt.text, tt.opts...); err != nil {
					t.Fatal(err)
				}
			})
			assert.Equal(t, tt.want, got)
		})
	}
}
