package openaicompat_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openaicompat"
	"github.com/agentio/agentio/provider/wiretest"
	"github.com/agentio/agentio/schema"
)

// TestRetryAfterThenAnswer: the quickstart's provider behind
// provider.WithRetry survives a 429 with Retry-After: 1 and answers,
// having asked to wait the second the server asked for (the Sleep hook
// stands in for the wait), through Generate, Stream and enforce.Run.
func TestRetryAfterThenAnswer(t *testing.T) {
	limited := wiretest.Reply{Status: http.StatusTooManyRequests, Body: `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`,
		Header: map[string]string{"Retry-After": "1"}}
	const valid = `{"title": "Leak", "severity": "high"}`
	answer := wiretest.Reply{Body: textCompletion(valid, "stop")}
	streamed := wiretest.Reply{Header: map[string]string{"Content-Type": "text/event-stream"}, Parts: []string{
		`data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"role":"assistant","content":"` +
			`{\"title\": \"Leak\", \"severity\": \"high\"}"},"finish_reason":null}]}` + "\n\n",
		`data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n",
		"data: [DONE]\n\n",
	}}
	sc, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)

	tests := []struct {
		name   string
		second wiretest.Reply
		call   func(ctx context.Context, p provider.Provider) (string, error)
	}{
		{"generate", answer, func(ctx context.Context, p provider.Provider) (string, error) {
			resp, err := p.Generate(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("Review it.")}})
			if err != nil {
				return "", err
			}
			return resp.Text, nil
		}},
		{"stream", streamed, func(ctx context.Context, p provider.Provider) (string, error) {
			resp, err := provider.Collect(p.(provider.Streamer).Stream(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("Review it.")}}))
			if err != nil {
				return "", err
			}
			return resp.Text, nil
		}},
		{"enforce", answer, func(ctx context.Context, p provider.Provider) (string, error) {
			res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review it."}, sc)
			if err != nil {
				return "", err
			}
			return string(res.JSON), nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, limited, tt.second)
			var waits []time.Duration
			var seen []error
			p, err := provider.WithRetry(newProvider(t, s, openaicompat.Options{}), &provider.RetryOptions{
				OnRetry: func(_ context.Context, _ int, err error, _ time.Duration) { seen = append(seen, err) },
				Sleep: func(_ context.Context, d time.Duration) error {
					waits = append(waits, d)
					return nil
				},
			})
			require.NoError(t, err)
			got, err := tt.call(context.Background(), p)
			require.NoError(t, err)
			assert.JSONEq(t, valid, got)
			assert.Len(t, s.Requests(), 2, "the 429, then the answer")
			require.Len(t, waits, 1)
			assert.Equal(t, time.Second, waits[0], "the wait the server asked for: a first backoff is below 500ms")
			require.Len(t, seen, 1)
			var pe *provider.Error
			require.ErrorAs(t, seen[0], &pe)
			assert.Equal(t, provider.ErrRateLimited, pe.Kind)
			assert.Equal(t, time.Second, pe.RetryAfter)
		})
	}
}
