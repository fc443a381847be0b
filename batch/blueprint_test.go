package batch_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// TestBlueprintItems runs agent blueprints as batch items: each item is a
// run prepared by blueprint.Prepare (its own Enforcer, with the agent's
// schema and invariants, and its Request), and each outcome becomes the
// run's blueprint.Result as blueprint.Run would have returned it.
func TestBlueprintItems(t *testing.T) {
	ctx := context.Background()
	bp, err := blueprint.Load("../blueprint/testdata/agents/security-scanner")
	require.NoError(t, err)
	scan := func(id string) batch.Item {
		e, req, err := blueprint.Prepare(ctx, bp, map[string]any{"prompt": "Scan service " + id + "."}, blueprint.RunSpec{})
		require.NoError(t, err)
		return batch.Item{ID: id, Request: req, Enforcer: e}
	}
	valid := `{"issues":[{"severity":"high","description":"SQL injection in the login handler"}],"summary":"One serious issue."}`
	replies := map[string][]providertest.Reply{
		"auth":    {providertest.Text(valid)},
		"billing": {providertest.Text(`{"issues":[]}`), providertest.Text(`{"issues":[],"summary":"Clean."}`)}, // summary missing, re-asked
	}
	b := providertest.NewBatcher(providertest.Replies(replies), &providertest.BatcherOptions{KeepRequests: true})
	r, err := batch.New(b, batch.NewMemory(nil), batch.WithPollInterval(0))
	require.NoError(t, err)

	got := map[string]string{}
	for s, err := range r.Run(ctx, []batch.Item{scan("auth"), scan("billing")}) {
		require.NoError(t, err)
		require.NoError(t, s.Err)
		res, err := blueprint.NewEnforcedResult(s.Result)
		require.NoError(t, err)
		got[s.ID] = string(res.Data())
	}
	assert.JSONEq(t, valid, got["auth"])
	assert.JSONEq(t, `{"issues":[],"summary":"Clean."}`, got["billing"])
	assert.Len(t, b.Submissions(), 2, "the re-ask goes in a second batch of its own")

	// The same run through blueprint.Run sends what the batch sent.
	p := providertest.New(providertest.Text(`{"issues":[]}`), providertest.Text(`{"issues":[],"summary":"Clean."}`))
	_, err = blueprint.Run(ctx, bp, p, map[string]any{"prompt": "Scan service billing."}, blueprint.RunSpec{})
	require.NoError(t, err)
	var sent []*provider.Request
	for _, sub := range b.Submissions() {
		for i, id := range sub.IDs {
			if id == "billing-1" || id == "billing-2" {
				sent = append(sent, sub.Requests[i])
			}
		}
	}
	assert.Equal(t, p.Requests(), sent)
}
