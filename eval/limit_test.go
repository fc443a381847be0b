package eval_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// TestRunLatencyUnderRateLimit: ten runs start at once against a model
// that answers at once, under a limit of 50 calls a second. Each run's
// latency is its call's, far below the 20 ms between calls; the time spent
// waiting for a slot (0, 20, ..., 180 ms) is reported apart.
func TestRunLatencyUnderRateLimit(t *testing.T) {
	var cases []eval.Case
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
		cases = append(cases, inline(id, ""))
	}
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: `{"n": 1}`, StopReason: provider.StopEnd}, nil
	})
	rep, err := eval.Run(context.Background(), cases, []eval.Target{{Name: "m", Provider: p}},
		eval.WithRateLimit(50), eval.WithConcurrency(len(cases)))
	require.NoError(t, err)
	tr := rep.Target("m")
	require.NotNil(t, tr)
	assert.Equal(t, len(cases), tr.Valid)
	assert.Less(t, tr.LatencyP95, 20*time.Millisecond, "latency is the model's, not the limiter's")
	assert.GreaterOrEqual(t, tr.RateLimitWait, 450*time.Millisecond, "the runs waited 900 ms in all for their slots")
	var sum time.Duration
	for _, r := range rep.Results {
		sum += r.RateLimitWait
		assert.Less(t, r.Latency, 20*time.Millisecond, "%s", r.Case)
	}
	assert.Equal(t, tr.RateLimitWait, sum)
}

// TestRunStreamsUnderRateLimit: a streaming provider under a rate limit
// is still streamed from, so that partials and early stops work.
func TestRunStreamsUnderRateLimit(t *testing.T) {
	cases := []eval.Case{inline("a", ""), inline("b", "")}
	p := providertest.New(providertest.Text(`{"n": 1}`), providertest.Text(`{"n": 2}`))
	rep, err := eval.Run(context.Background(), cases, []eval.Target{{Name: "m", Provider: p}},
		eval.WithRateLimit(1000), eval.WithConcurrency(1),
		eval.WithEnforceOptions(enforce.WithPartials(func(enforce.Partial) {})))
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Target("m").Valid)
	assert.Len(t, p.Streamed(), 2, "both calls streamed")
}

// TestRunStreamLatencyUnderRateLimit: a streaming target under a rate
// limit is streamed from, and each run's latency leaves out the wait for
// its slot, which is reported apart.
func TestRunStreamLatencyUnderRateLimit(t *testing.T) {
	var cases []eval.Case
	var replies []providertest.Reply
	for i := range 10 {
		cases = append(cases, inline(fmt.Sprint("c", i), ""))
		replies = append(replies, providertest.Text(`{"n": 1}`))
	}
	p := providertest.New(replies...)
	rep, err := eval.Run(context.Background(), cases, []eval.Target{{Name: "m", Provider: p}},
		eval.WithRateLimit(50), eval.WithConcurrency(10),
		eval.WithEnforceOptions(enforce.WithPartials(func(enforce.Partial) {})))
	require.NoError(t, err)
	var wait, worst time.Duration
	for _, r := range rep.Results {
		wait += r.RateLimitWait
		worst = max(worst, r.Latency)
	}
	assert.Len(t, p.Streamed(), 10)
	assert.Less(t, worst, 20*time.Millisecond, "no run's latency holds its wait")
	assert.GreaterOrEqual(t, wait, 450*time.Millisecond, "ten calls 20 ms apart wait 0+20+...+180 ms in all")
}
