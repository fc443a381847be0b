package blueprint_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

const groundedAgent = `{
  "name": "contract-reader",
  "parameters_schema": {
    "type": "object",
    "properties": {"contract": {"type": "string"}, "tickets": {"type": "array"}}
  },
  "output_schema": {
    "type": "object",
    "required": ["evidence", "ticket", "owner"],
    "properties": {
      "evidence": {"type": "string"},
      "ticket": {"type": "string"},
      "owner": {"type": "string", "description": "who owns the follow-up"},
      "status": {"enum": ["open", "TBD"]}
    }
  },
  "invariants": [
    {"kind": "quote_in_input", "values": "$.evidence", "parameter": "contract"},
    {"kind": "value_in_input", "refs": "$.ticket", "targets": "$.tickets[*]"},
    {"kind": "not_placeholder", "values": "$", "placeholders": ["John Doe"]}
  ]
}`

func TestBlueprintGroundingReasked(t *testing.T) {
	bp, err := blueprint.Parse([]byte(groundedAgent))
	require.NoError(t, err)
	params := map[string]any{"prompt": "Find the payment term.", "contract": "Payment is due within “thirty days” of invoice.", "tickets": []any{"OPS-12"}}
	p := providertest.New(
		providertest.Text(`{"evidence": "payment is due within 14 days", "ticket": "OPS-99", "owner": "John Doe", "status": "TBD"}`),
		providertest.Text(`{"evidence": "Payment is due within \"thirty days\"", "ticket": "OPS-12", "owner": "Finance", "status": "TBD"}`),
	)
	r, err := blueprint.Run(context.Background(), bp, p, params, blueprint.RunSpec{})
	require.NoError(t, err)
	attempts := r.Enforcement().Attempts
	require.Len(t, attempts, 2)
	var paths []string
	for _, v := range attempts[0].Violations {
		paths = append(paths, v.Path)
	}
	assert.Equal(t, []string{"$.evidence", "$.ticket", "$.owner"}, paths)
	reask := p.Requests()[1].Messages
	last := reask[len(reask)-1].Content
	assert.Contains(t, last, "quote the inputs exactly, or leave the quote out")
	assert.Contains(t, last, "use only values given in the inputs")
	assert.Contains(t, last, "is a placeholder")
	assert.Empty(t, attempts[1].Violations)
}

// A step-wise caller gives the inputs with WithInputs; without them the
// quotes are looked up in the attempt's prompt.
func TestResolutionWithInputs(t *testing.T) {
	bp, err := blueprint.Parse([]byte(groundedAgent))
	require.NoError(t, err)
	res, err := blueprint.ResolveOutputSchema(context.Background(), bp, blueprint.RunSpec{}, nil)
	require.NoError(t, err)
	assert.Nil(t, res.Inputs)
	params := map[string]any{"contract": "Either party may terminate.", "tickets": []any{"OPS-1"}}
	grounded := res.WithInputs("Read the contract.", params)
	assert.Nil(t, res.Inputs, "WithInputs copies")
	require.NotNil(t, grounded.Inputs)

	e, err := grounded.Enforcer()
	require.NoError(t, err)
	_, st, err := e.Start(enforce.Request{Prompt: "Read the contract."}, provider.Capabilities{})
	require.NoError(t, err)
	ctx := context.Background()
	v := e.CheckText(ctx, st, `{"evidence": "either party may terminate", "ticket": "OPS-1", "owner": "Legal"}`)
	assert.True(t, v.OK, v.Violations)
	v = e.CheckText(ctx, st, `{"evidence": "neither party may terminate", "ticket": "OPS-1", "owner": "Legal"}`)
	require.Len(t, v.Violations, 1)
	assert.Equal(t, "$.evidence", v.Violations[0].Path)
}

// Without Inputs, enforce.Run's first user message is the text quotes are
// looked up in; a named parameter cannot be, and is not checked.
func TestResolutionWithoutInputs(t *testing.T) {
	bp, err := blueprint.Parse([]byte(`{"name": "q",
	  "output_schema": {"type": "object", "properties": {"evidence": {"type": "string"}, "other": {"type": "string"}}},
	  "invariants": [{"kind": "quote_in_input", "values": "$.evidence"}, {"kind": "quote_in_input", "values": "$.other", "parameter": "p"}]}`))
	require.NoError(t, err)
	res, err := blueprint.ResolveOutputSchema(context.Background(), bp, blueprint.RunSpec{}, nil)
	require.NoError(t, err)
	e, err := res.Enforcer()
	require.NoError(t, err)
	p := providertest.New(
		providertest.Text(`{"evidence": "the fee is waived", "other": "anything"}`),
		providertest.Text(`{"evidence": "The contract says the fee is due", "other": "anything"}`),
	)
	out, err := e.Run(context.Background(), p, enforce.Request{Prompt: "The contract says the fee is due."})
	require.NoError(t, err)
	require.Len(t, out.Attempts, 2)
	require.Len(t, out.Attempts[0].Violations, 1)
	assert.Equal(t, "$.evidence", out.Attempts[0].Violations[0].Path)
}

// TestBlueprintGroundingStreamStopsAtQuote: streamed, a fabricated quote
// stops the reply as soon as the string closes, before the rest is paid
// for, and the re-ask says why.
func TestBlueprintGroundingStreamStopsAtQuote(t *testing.T) {
	bp, err := blueprint.Parse([]byte(groundedAgent))
	require.NoError(t, err)
	params := map[string]any{"prompt": "Find the payment term.", "contract": "Payment is due within “thirty days” of invoice.", "tickets": []any{"OPS-12"}}
	bad := `{"evidence": "payment is due within 14 days", "ticket": "OPS-12", "owner": "Finance and a long explanation the model would be paid to write"}`
	p := providertest.New(
		providertest.Chunked(6, bad),
		providertest.Chunked(6, `{"evidence": "Payment is due within \"thirty days\"", "ticket": "OPS-12", "owner": "Finance"}`),
	)
	r, err := blueprint.Run(context.Background(), bp, p, params, blueprint.RunSpec{},
		blueprint.WithEnforceOptions(enforce.WithPartials(func(enforce.Partial) {})))
	require.NoError(t, err)
	attempts := r.Enforcement().Attempts
	require.Len(t, attempts, 2)
	assert.True(t, attempts[0].StoppedEarly, "stopped at the quote")
	require.NotEmpty(t, attempts[0].Violations)
	assert.Equal(t, "$.evidence", attempts[0].Violations[0].Path)
	assert.Less(t, p.Streamed()[0], (len(bad)+5)/6, "the rest of the reply was not read")
	reask := p.Requests()[1].Messages
	assert.Contains(t, reask[len(reask)-1].Content, "quote the inputs exactly, or leave the quote out")
}
