package enforce_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// TestEnforcerResumesAcrossProcesses runs the loop as separate jobs: each
// job builds its own Enforcer and gets the run's State as JSON.
func TestEnforcerResumesAcrossProcesses(t *testing.T) {
	s := parse(t, reviewSchema)
	opts := []enforce.Option{enforce.WithMaxRetries(2)}
	replies := []provider.Response{
		{Text: "thinking...", Usage: provider.Usage{InputTokens: 10, OutputTokens: 1, TotalTokens: 11}},
		{Text: invalidReview, Usage: provider.Usage{InputTokens: 20, OutputTokens: 2, TotalTokens: 22}},
		{Text: validReview, Usage: provider.Usage{InputTokens: 30, OutputTokens: 3, TotalTokens: 33}},
	}
	var saved []byte // what the orchestrator stores between jobs
	var verdicts []enforce.Verdict
	for i, reply := range replies {
		e, err := enforce.New(s, opts...) // a new process
		require.NoError(t, err)
		var st enforce.State
		if saved != nil {
			require.NoError(t, json.Unmarshal(saved, &st))
		}
		v := e.Check(ctx, st, &reply)
		verdicts = append(verdicts, v)
		assert.Equal(t, i+1, v.Attempt.Number)
		saved, err = json.Marshal(v.State)
		require.NoError(t, err)
	}
	assert.True(t, verdicts[0].Retry)
	assert.Equal(t, enforce.OutcomeNoJSON, verdicts[0].Outcome)
	assert.True(t, verdicts[1].Retry)
	assert.Equal(t, enforce.OutcomeInvalid, verdicts[1].Outcome)
	assert.Contains(t, verdicts[1].Reask, "- $.summary: 'summary' is a required property")
	require.Len(t, verdicts[1].Messages, 2)
	assert.Equal(t, provider.Message{Role: provider.RoleAssistant, Content: invalidReview}, verdicts[1].Messages[0])
	assert.Equal(t, provider.UserMessage(verdicts[1].Reask), verdicts[1].Messages[1])

	last := verdicts[2]
	require.True(t, last.OK)
	assert.Equal(t, validReview, string(last.JSON))
	assert.Equal(t, enforce.State{Attempts: 3, Reasks: 2, Usage: provider.Usage{InputTokens: 60, OutputTokens: 6, TotalTokens: 66}, Mode: enforce.ModePrompt}, last.State)
	assert.JSONEq(t, `{"attempts":3,"reasks":2,"usage":{"input_tokens":60,"output_tokens":6,"total_tokens":66},"mode":"prompt"}`, string(saved))
}

func TestEnforcerExhausted(t *testing.T) {
	e, err := enforce.New(parse(t, reviewSchema), enforce.WithMaxRetries(1))
	require.NoError(t, err)
	v := e.CheckText(ctx, enforce.State{}, invalidReview)
	require.True(t, v.Retry)
	v = e.CheckText(ctx, v.State, invalidReview)
	assert.False(t, v.OK)
	assert.False(t, v.Retry)
	assert.Empty(t, v.Reask)
	assert.Empty(t, v.Messages)
	var ve *enforce.ValidationError
	require.ErrorAs(t, v.Err, &ve)
	assert.Equal(t, 1, ve.Retries)
	assert.Nil(t, ve.Attempts, "a step-wise caller keeps its own records")
	assert.Equal(t, invalidReview, ve.Output)
}

func TestEnforcerRefusal(t *testing.T) {
	e, err := enforce.New(parse(t, reviewSchema))
	require.NoError(t, err)
	v := e.Check(ctx, enforce.State{}, &provider.Response{Refusal: "no"})
	assert.False(t, v.Retry)
	require.ErrorIs(t, v.Err, enforce.ErrRefused)
	assert.Equal(t, enforce.OutcomeRefused, v.Outcome)
}

func TestEnforcerNilResponse(t *testing.T) {
	e, err := enforce.New(parse(t, reviewSchema))
	require.NoError(t, err)
	v := e.Check(ctx, enforce.State{}, nil)
	assert.Equal(t, enforce.OutcomeNoJSON, v.Outcome)
	assert.True(t, v.Retry)
}

// TestEnforcerDrivesAProvider is the loop of Run, written out with the
// step-wise API.
func TestEnforcerDrivesAProvider(t *testing.T) {
	e, err := enforce.New(parse(t, reviewSchema))
	require.NoError(t, err)
	p := providertest.New(providertest.CallTool(enforce.ToolName, invalidReview), providertest.CallTool(enforce.ToolName, validReview))
	req, st, err := e.Start(enforce.Request{Prompt: "Review."}, toolCaps)
	require.NoError(t, err)
	assert.Equal(t, enforce.ModeTool, st.Mode)
	first := req
	for {
		resp, err := p.Generate(ctx, req)
		require.NoError(t, err)
		v := e.Check(ctx, st, resp)
		if v.OK {
			assert.Equal(t, validReview, string(v.JSON))
			break
		}
		require.True(t, v.Retry, v.Err)
		st = v.State
		req = v.Next(first)
	}
	assert.Len(t, p.Requests(), 2)
	assert.Equal(t, provider.RoleTool, lastMessage(p.Requests()[1]).Role)
}

func lastMessage(r *provider.Request) provider.Message { return r.Messages[len(r.Messages)-1] }

func TestEnforcerSchema(t *testing.T) {
	s := parse(t, reviewSchema)
	e, err := enforce.New(s)
	require.NoError(t, err)
	assert.Same(t, s, e.Schema())
}
