package gemini_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
)

// The wait a 429's google.rpc.RetryInfo asks for reaches
// provider.Error.RetryAfter, for provider.WithRetry to honour.
func TestRetryAfter(t *testing.T) {
	quota := func(details ...map[string]any) wireReply {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": 429, "status": "RESOURCE_EXHAUSTED",
			"message": "You exceeded your current quota.", "details": details}})
		return wireReply{Status: 429, Body: string(b)}
	}
	retryInfo := func(delay string) map[string]any {
		return map[string]any{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}
	}
	other := map[string]any{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": []any{}}
	for _, tc := range []struct {
		name  string
		reply wireReply
		want  time.Duration
	}{
		{"seconds", quota(other, retryInfo("20s")), 20 * time.Second},
		{"fractional", quota(retryInfo("1.5s")), 1500 * time.Millisecond},
		{"nanoseconds round up", quota(retryInfo("0.000000001s")), time.Nanosecond},
		{"no RetryInfo", quota(other), 0},
		{"not a duration", quota(retryInfo("soon")), 0},
		{"negative", quota(retryInfo("-3s")), 0},
		{"no details", apiError(429, "RESOURCE_EXHAUSTED", "Quota exceeded."), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newWireServer(t, tc.reply)
			_, err := newProvider(t, s).Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.ErrorIs(t, err, provider.ErrRateLimited)
			assert.Equal(t, tc.want, pe.RetryAfter)
		})
	}
}
