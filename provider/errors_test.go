package provider_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/provider"
)

func TestErrorIsKind(t *testing.T) {
	err := fmt.Errorf("call: %w", &provider.Error{Kind: provider.ErrorRateLimited, Provider: "openai", StatusCode: 429, Message: "slow down"})
	assert.ErrorIs(t, err, provider.ErrRateLimited)
	assert.NotErrorIs(t, err, provider.ErrAuth)
	assert.Equal(t, provider.ErrorRateLimited, provider.KindOf(err))
	assert.Equal(t, provider.ErrorOther, provider.KindOf(errors.New("plain")))
	assert.Equal(t, "openai: rate_limited (HTTP 429): slow down", errors.Unwrap(err).Error())
}

// TestSentinelsAreKinds: each sentinel is its kind, a constant, matched by
// kind alone whatever else the error says; and an ErrorKind is an error.
func TestSentinelsAreKinds(t *testing.T) {
	for _, k := range []provider.ErrorKind{provider.ErrSchemaRejected, provider.ErrRateLimited, provider.ErrAuth, provider.ErrOverloaded, provider.ErrInvalidRequest} {
		err := fmt.Errorf("wrapped: %w", &provider.Error{Kind: k, Provider: "x", StatusCode: 400, Message: "m", Err: errors.New("sdk")})
		assert.ErrorIs(t, err, k)
		for _, other := range []provider.ErrorKind{provider.ErrSchemaRejected, provider.ErrRateLimited, provider.ErrAuth, provider.ErrOverloaded, provider.ErrInvalidRequest} {
			if other != k {
				assert.NotErrorIs(t, err, other)
			}
		}
		assert.Equal(t, "provider: "+string(k), k.Error())
	}
	assert.NotErrorIs(t, errors.New("rate_limited"), provider.ErrRateLimited, "never by text")
}

func TestKindForStatus(t *testing.T) {
	tests := []struct {
		status int
		want   provider.ErrorKind
	}{
		{400, provider.ErrorInvalidRequest},
		{401, provider.ErrorAuth},
		{403, provider.ErrorAuth},
		{429, provider.ErrorRateLimited},
		{500, provider.ErrorOverloaded},
		{529, provider.ErrorOverloaded},
		{302, provider.ErrorOther},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			assert.Equal(t, tt.want, provider.KindForStatus(tt.status))
		})
	}
}

func TestUsageAdd(t *testing.T) {
	u := provider.Usage{InputTokens: 1, OutputTokens: 2, TotalTokens: 3, CachedInputTokens: 4, ReasoningTokens: 5}
	assert.Equal(t, provider.Usage{InputTokens: 2, OutputTokens: 4, TotalTokens: 6, CachedInputTokens: 8, ReasoningTokens: 10}, u.Add(u))
}
