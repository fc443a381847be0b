package extract_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
)

// TestRepairRereadAllowanceOfPlainReplies: a list of a few dozen
// sentences, each missing its closing quote, a reply of a few kilobytes a
// model can send, is repaired with a validator, as it was before the
// allowance of bytes read again: the allowance is for replies built to
// defeat repair, which must be far larger.
func TestRepairRereadAllowanceOfPlainReplies(t *testing.T) {
	for _, tc := range []struct {
		item  string
		count int
	}{
		{`"tag%d, `, 150},
		{`"Paris is the capital of France and item %d, `, 80},
		{`"The quick brown fox jumps over the lazy dog in sentence %d of the list, `, 40},
		{`"The quick brown fox jumps over the lazy dog in sentence %d of the list, `, 100},
	} {
		var b strings.Builder
		b.WriteString("[")
		for i := range tc.count {
			fmt.Fprintf(&b, tc.item, i)
		}
		b.WriteString("]")
		text := b.String()
		t.Run(fmt.Sprintf("%d_bytes", len(text)), func(t *testing.T) {
			c, err := extract.JSON(text, extract.WithRepair(), extract.WithAccept(severalStrings))
			require.NoError(t, err)
			var got []string
			require.NoError(t, json.Unmarshal(c.JSON, &got))
			assert.Len(t, got, tc.count)
		})
	}
}

// TestRepairRereadAllowanceDoesNotDecideGuesses: a guessed repair is
// returned only when the validator tells its two readings apart. When the
// allowance of bytes read again runs out in one reading, that reading
// fails; the other must not then be returned as if the validator had
// refused the first. A reply whose value is a guess the validator cannot
// settle (it accepts anything) gives the same answer, the value after
// the fence, at every size.
func TestRepairRereadAllowanceDoesNotDecideGuesses(t *testing.T) {
	anything := func(json.RawMessage) bool { return true }
	for _, n := range []int{10, 100, 1000, 4000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			text := "Result:\n```json\n[" + strings.Repeat(`{"k": "v\"}, `, n) + "]\n```\nThanks, and {\"x\": 1"
			c, err := extract.JSON(text, extract.WithRepair(), extract.WithAccept(anything))
			require.NoError(t, err)
			assert.Equal(t, `{"x":1}`, string(c.JSON))
			for _, c := range extract.Candidates(text, extract.WithRepair(), extract.WithAccept(anything)) {
				assert.NotEqual(t, strings.Index(text, "["), c.Start, "the guessed value is not a candidate: %.60s", c.JSON)
			}
		})
	}
}
