package provider_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
)

func TestErrorIsKind(t *testing.T) {
	err := fmt.Errorf("call: %w", &provider.Error{Kind: provider.ErrRateLimited, Provider: "openai", StatusCode: 429, Message: "slow down"})
	assert.ErrorIs(t, err, provider.ErrRateLimited)
	assert.NotErrorIs(t, err, provider.ErrAuth)
	assert.Equal(t, provider.ErrRateLimited, provider.KindOf(err))
	assert.Equal(t, provider.ErrOther, provider.KindOf(errors.New("plain")))
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
		{400, provider.ErrInvalidRequest},
		{401, provider.ErrAuth},
		{403, provider.ErrAuth},
		{429, provider.ErrRateLimited},
		{500, provider.ErrOverloaded},
		{529, provider.ErrOverloaded},
		{302, provider.ErrOther},
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

func TestErrorJSON(t *testing.T) {
	for _, e := range []*provider.Error{
		{Kind: provider.ErrRateLimited, Provider: "openai", StatusCode: 429, Code: "rate_limit_exceeded", Message: "slow down", RequestID: "req_1", Err: errors.New("sdk: 429")},
		{Kind: provider.ErrExpired},
	} {
		data, err := json.Marshal(e)
		require.NoError(t, err)
		var back provider.Error
		require.NoError(t, json.Unmarshal(data, &back))
		assert.Equal(t, e.Error(), back.Error())
		assert.ErrorIs(t, &back, e.Kind)
		if e.Err != nil {
			require.Error(t, back.Err)
			assert.Equal(t, e.Err.Error(), back.Err.Error())
		} else {
			assert.NoError(t, back.Err)
		}
		b2, err := json.Marshal(&back)
		require.NoError(t, err)
		assert.JSONEq(t, string(data), string(b2))
	}
	data, err := json.Marshal(&provider.Error{Kind: provider.ErrAuth, StatusCode: 401, Err: errors.New("bad key")})
	require.NoError(t, err)
	assert.JSONEq(t, `{"kind":"auth","status_code":401,"cause":"bad key"}`, string(data))
	var bad provider.Error
	assert.Error(t, json.Unmarshal([]byte(`{"kind":1}`), &bad))
}
