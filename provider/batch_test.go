package provider_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
)

func TestBatchStatusDone(t *testing.T) {
	for s, done := range map[provider.BatchStatus]bool{
		"":                       false,
		provider.BatchInProgress: false,
		provider.BatchEnded:      true,
		provider.BatchExpired:    true,
		provider.BatchCanceled:   true,
		provider.BatchFailed:     true,
	} {
		assert.Equal(t, done, s.Done(), "status %q", s)
	}
}

func TestBatchErrorKinds(t *testing.T) {
	err := fmt.Errorf("item 3: %w", &provider.Error{Kind: provider.ErrExpired, Provider: "openai", Code: "batch_expired"})
	assert.ErrorIs(t, err, provider.ErrExpired)
	assert.NotErrorIs(t, err, provider.ErrCanceled)
	assert.Equal(t, provider.ErrExpired, provider.KindOf(err))
	assert.False(t, errors.Is(provider.ErrExpired, provider.ErrBatchNotDone))
}

func TestCheckBatch(t *testing.T) {
	req := &provider.Request{Messages: []provider.Message{provider.UserMessage("hi")}}
	limits := provider.BatchLimits{MaxRequests: 2}
	for _, tc := range []struct {
		name string
		reqs []provider.BatchRequest
		want string // "" for none
	}{
		{"fine", []provider.BatchRequest{{ID: "a", Request: req}, {ID: "b", Request: req}}, ""},
		{"empty", nil, "at least one request"},
		{"too many", []provider.BatchRequest{{ID: "a"}, {ID: "b"}, {ID: "c"}}, "at most 2"},
		{"no ID", []provider.BatchRequest{{ID: "a"}, {ID: ""}}, "no ID"},
		{"repeated", []provider.BatchRequest{{ID: "a"}, {ID: "a"}}, `"a" is repeated`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := provider.CheckBatch(tc.reqs, limits)
			if tc.want == "" {
				assert.Nil(t, err)
				return
			}
			require.NotNil(t, err)
			assert.ErrorIs(t, err, provider.ErrInvalidRequest)
			assert.Contains(t, err.Message, tc.want)
		})
	}
	assert.Nil(t, provider.CheckBatch([]provider.BatchRequest{{ID: "a"}, {ID: "b"}, {ID: "c"}}, provider.BatchLimits{}), "no limit")
}
