package extract_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
)

// manySingleQuoted returns an object of n members whose keys and values
// are in single quotes, each one a fix, after pad bytes of blanks.
func manySingleQuoted(pad, n int) string {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", pad))
	b.WriteString("Here:\n{")
	for i := range n {
		fmt.Fprintf(&b, "'key_%d': 'value_%d', ", i, i)
	}
	b.WriteString("'last': 1}")
	return b.String()
}

// checkSingleQuoteFixes checks that each fix replaced the input's text at
// its offset, a single quote, and wrote a double one.
func checkSingleQuoteFixes(t *testing.T, text string, c extract.Candidate, n int) {
	t.Helper()
	require.True(t, json.Valid(c.JSON))
	require.Equal(t, 2*n+1, len(c.Fixes)) // one a string
	for i, f := range c.Fixes {
		require.Equalf(t, extract.FixSingleQuote, f.Kind, "fix %d", i)
		require.LessOrEqualf(t, f.Offset+len(f.Before), len(text), "fix %d", i)
		require.Equalf(t, f.Before, text[f.Offset:f.Offset+len(f.Before)], "fix %d", i)
		require.Equalf(t, "'", f.Before, "fix %d at %d", i, f.Offset)
		require.Equalf(t, `"`, f.After, "fix %d at %d", i, f.Offset)
	}
}

// TestRepairFixTextsOfManyFixes checks the Before and After of each of
// hundreds of fixes: the texts the fixes wrote add up to kilobytes.
func TestRepairFixTextsOfManyFixes(t *testing.T) {
	const n = 300
	text := manySingleQuoted(0, n)
	c, err := extract.JSON(text, extract.WithRepair())
	require.NoError(t, err)
	checkSingleQuoteFixes(t, text, c, n)
}

// TestRepairFixOffsetsPast8MiB checks the fixes of a value that starts
// past 8 MiB of a reply within the default maximum size.
func TestRepairFixOffsetsPast8MiB(t *testing.T) {
	const n = 20
	text := manySingleQuoted(9<<20, n)
	require.Less(t, len(text), extract.DefaultMaxSize)
	c, err := extract.JSON(text, extract.WithRepair())
	require.NoError(t, err)
	checkSingleQuoteFixes(t, text, c, n)
}
