package openai_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openai"
)

// The wait a 429 asks for reaches provider.Error.RetryAfter, for
// provider.WithRetry to honour, from an OpenAI error body and from a
// compatible server's own.
func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply wireReply
		want  time.Duration
	}{
		{"seconds", wireReply{Status: 429, Header: map[string]string{"Retry-After": "3"}, Body: apiError("Rate limit reached", "requests", "", "rate_limit_exceeded")}, 3 * time.Second},
		{"milliseconds", wireReply{Status: 429, Header: map[string]string{"retry-after-ms": "1500"}, Body: apiError("Rate limit reached", "requests", "", "rate_limit_exceeded")}, 1500 * time.Millisecond},
		{"a compatible server's plain text", wireReply{Status: 503, Header: map[string]string{"Retry-After": "2", "Content-Type": "text/plain"}, Body: "overloaded, try later"}, 2 * time.Second},
		{"none asked", wireReply{Status: 429, Body: apiError("Rate limit reached", "requests", "", "rate_limit_exceeded")}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newWireServer(t, tc.reply)
			_, err := newOfficial(t, s, openai.APIChatCompletions).Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.want, pe.RetryAfter)
		})
	}
}
