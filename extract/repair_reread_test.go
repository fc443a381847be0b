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
	several := func(v json.RawMessage) bool {
		var a []string
		return json.Unmarshal(v, &a) == nil && len(a) > 1
	}
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
			c, err := extract.JSON(text, extract.WithRepair(), extract.WithAccept(several))
			require.NoError(t, err)
			var got []string
			require.NoError(t, json.Unmarshal(c.JSON, &got))
			assert.Len(t, got, tc.count)
		})
	}
}
