package anthropic_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
)

// The wait a 429 or 529 asks for reaches provider.Error.RetryAfter, for
// provider.WithRetry to honour.
func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply wireReply
		want  time.Duration
	}{
		{"seconds", wireReply{Status: 429, Header: map[string]string{"retry-after": "4"}, Body: apiError("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit")}, 4 * time.Second},
		{"overloaded", wireReply{Status: 529, Header: map[string]string{"retry-after": "1"}, Body: apiError("overloaded_error", "Overloaded")}, time.Second},
		{"none asked", wireReply{Status: 429, Body: apiError("rate_limit_error", "slow down")}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newWireServer(t, tc.reply)
			_, err := newProvider(t, s).Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.want, pe.RetryAfter)
		})
	}
}
