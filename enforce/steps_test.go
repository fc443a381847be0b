package enforce_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// TestStepsAgreeWithRun drives the step-wise API with NextRequest and
// WithinBudget and checks that it sends what Run sends, with and without
// the full history and the token budget.
func TestStepsAgreeWithRun(t *testing.T) {
	tests := []struct {
		name string
		opts []enforce.Option
	}{
		{"last output only", nil},
		{"full history", []enforce.Option{enforce.WithFullHistory()}},
		{"token budget", []enforce.Option{enforce.WithTokenBudget(100000)}},
		{"full history and budget", []enforce.Option{enforce.WithFullHistory(), enforce.WithTokenBudget(100000)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parse(t, reviewSchema)
			replies := []providertest.Reply{providertest.Text("no json"), providertest.Text(invalidReview), providertest.Text(validReview)}
			p := providertest.New(replies...)
			_, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, tt.opts...)
			require.NoError(t, err)
			want := p.Requests()

			e, err := enforce.New(s, tt.opts...)
			require.NoError(t, err)
			first, st, err := e.Start(enforce.Request{Prompt: "Review."}, provider.Capabilities{})
			require.NoError(t, err)
			sent, err := e.WithinBudget(st, enforce.Verdict{}, first)
			require.NoError(t, err)
			var got []*provider.Request
			for _, r := range replies {
				got = append(got, sent.Clone())
				v := e.Check(ctx, st, &provider.Response{Text: r.Text, StopReason: provider.StopEnd})
				st = v.State
				if v.OK {
					break
				}
				require.True(t, v.Retry)
				sent, err = e.WithinBudget(st, v, e.NextRequest(v, first, sent))
				require.NoError(t, err)
			}
			assert.Equal(t, want, got)
		})
	}
}

// TestWithinBudgetErrors: a request that does not fit ends the run as Run
// ends it: a bare ErrTokenBudget before any attempt, a ValidationError
// carrying the last failure after one.
func TestWithinBudgetErrors(t *testing.T) {
	e, err := enforce.New(parse(t, reviewSchema), enforce.WithTokenBudget(10))
	require.NoError(t, err)
	first, st, err := e.Start(enforce.Request{Prompt: "Review this rather long diff, please."}, provider.Capabilities{})
	require.NoError(t, err)
	_, err = e.WithinBudget(st, enforce.Verdict{}, first)
	require.ErrorIs(t, err, enforce.ErrTokenBudget)
	var ve *enforce.ValidationError
	assert.False(t, errors.As(err, &ve))

	last := enforce.Verdict{Outcome: enforce.OutcomeNoJSON, Text: "no json", Violations: []schema.Violation{{Path: "$", Message: "none"}}}
	st.Reasks = 1
	_, err = e.WithinBudget(st, last, first)
	require.ErrorAs(t, err, &ve)
	assert.ErrorIs(t, err, enforce.ErrTokenBudget)
	assert.ErrorIs(t, err, enforce.ErrNoJSON)
	assert.Equal(t, "no json", ve.Output)
	assert.Equal(t, 0, ve.Retries)
	assert.Nil(t, ve.Attempts)
}
