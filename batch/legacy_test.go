package batch_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
)

// TestLegacyRecords resumes a job whose store the runner wrote before
// items had a log (testdata/legacy_store.json: six items after round 1,
// two settled and not handed out, four waiting for a re-ask): the settled
// ones are handed out as they were, the pending ones go on from their
// stored attempts and are written again in the current form, and the
// store reads back whole afterwards.
func TestLegacyRecords(t *testing.T) {
	data, err := os.ReadFile("testdata/legacy_store.json")
	require.NoError(t, err)
	var recs []struct {
		ID      string          `json:"id"`
		Status  batch.Status    `json:"status"`
		Attempt int             `json:"attempt"`
		Data    json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(data, &recs))
	st := batch.NewMemory(nil)
	var c batch.Update
	for _, r := range recs {
		var buf bytes.Buffer
		require.NoError(t, json.Compact(&buf, r.Data))
		c.Items = append(c.Items, batch.Record{ID: r.ID, Status: r.Status, Attempt: r.Attempt, Data: buf.Bytes()})
	}
	require.NoError(t, st.Save(ctx, c))

	b := providertest.NewBatcher(func(string, int) providertest.Reply { return providertest.Text(valid) }, nil)
	e := newEnforcer(t, enforce.WithMaxRetries(2))
	got, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(e)), items(6))
	require.NoError(t, err)
	require.Len(t, got, 6)
	for id, s := range got {
		require.NoError(t, s.Err, id)
		assert.JSONEq(t, valid, string(s.Result.JSON), id)
	}
	for _, id := range []string{"m0", "m3"} {
		assert.Len(t, got[id].Result.Attempts, 1, "%s was settled in round 1", id)
	}
	for _, id := range []string{"m1", "m2", "m4", "m5"} {
		a := got[id].Result.Attempts
		require.Len(t, a, 2, id)
		assert.JSONEq(t, invalid, a[0].Response.Text, "%s: its first attempt, from the legacy record", id)
		assert.Len(t, a[1].Request.Messages, len(a[0].Request.Messages)+2, "%s: the re-ask the legacy record held", id)
	}
	require.Len(t, b.Submissions(), 1, "one round: the re-asks")

	n := 0
	for s, err := range newRunner(t, b, st, batch.WithEnforcer(e)).Results(ctx) {
		require.NoError(t, err)
		assert.Equal(t, len(got[s.ID].Result.Attempts), len(s.Result.Attempts), s.ID)
		assert.Equal(t, got[s.ID].Result.Attempts[0].Request, s.Result.Attempts[0].Request, s.ID)
		n++
	}
	assert.Equal(t, 6, n)
}
