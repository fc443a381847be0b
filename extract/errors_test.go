package extract_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/internal/golden"
)

// TestErrorsGolden renders the error of each reply that yields no value,
// the text the enforcement loop shows to the model, into
// testdata/errors.golden.
func TestErrorsGolden(t *testing.T) {
	replies := []struct {
		name string
		text string
		opts []extract.Option
	}{
		{name: "refusal", text: "I apologize, but I can't produce that output because the request is unclear."},
		{name: "empty", text: ""},
		{name: "reasoning only", text: "<think>The user wants {\"a\": 1}.</think>"},
		{name: "cut off while reasoning", text: "<think>First I will consider {\"a\""},
		{name: "placeholders only", text: "Return {name} and {date} please."},
		{name: "truncated object", text: "Here you go:\n{\"items\": [1, 2, 3"},
		{name: "trailing comma in a json fence", text: "```json\n{\"a\": 1,\n}\n```"},
		{name: "single quotes in prose", text: "Result: {'a': 1}"},
		{name: "objects only, array given", text: "[1, 2, 3]", opts: []extract.Option{extract.WithObjectsOnly()}},
		{name: "repair cannot help", text: "Keep { to open.", opts: []extract.Option{extract.WithRepair()}},
		{name: "strict, prose before", text: "Sure, here it is: {\"a\": 1}", opts: []extract.Option{extract.WithStrictJSONOnly()}},
		{name: "strict, prose after", text: "{\"a\": 1}\n\nLet me know if you need anything else!", opts: []extract.Option{extract.WithStrictJSONOnly()}},
		{name: "strict, python fence", text: "```python\n{\"a\": 1}\n```", opts: []extract.Option{extract.WithStrictJSONOnly()}},
		{name: "multi-byte text cut", text: strings.Repeat("é", 30) + " {\"a\"", opts: nil},
	}
	var b strings.Builder
	for _, r := range replies {
		_, err := extract.JSON(r.text, r.opts...)
		require.Error(t, err, r.name)
		fmt.Fprintf(&b, "%s\n\t%q\n\t%s\n", r.name, r.text, err)
	}
	golden.Check(t, "errors", b.String())
}
