package provider_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

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
	err := fmt.Errorf("item 3: %w", &provider.Error{Kind: provider.ErrorExpired, Provider: "openai", Code: "batch_expired"})
	assert.ErrorIs(t, err, provider.ErrExpired)
	assert.NotErrorIs(t, err, provider.ErrCanceled)
	assert.Equal(t, provider.ErrorExpired, provider.KindOf(err))
	assert.False(t, errors.Is(provider.ErrBatchNotDone, provider.ErrExpired))
}
