package batch_test

// Reproductions of defects found reviewing issue #37's change (review-37).
// Each test fails on the code as it is.

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// TestReviewToolModeStorage: TestStorageLinearInAttempts holds a run's
// writes within 1.2 times its content (the first request, the replies and
// the messages each re-ask adds) in prompt mode only. In tool mode each
// attempt's log entry holds the model's submit_result arguments three
// times: in the reply's tool call, as "json" and as "text" (besides the
// copy the re-ask's assistant message adds, which is content), so a job
// of long outputs writes about twice its content. Still linear in k.
func TestReviewToolModeStorage(t *testing.T) {
	const k = 8
	summary := strings.Repeat("The customer asks where the order is and wants a refund. ", 5)
	sc, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	e, err := enforce.New(sc, enforce.WithMaxRetries(k), enforce.WithMode(enforce.ModeTool))
	require.NoError(t, err)
	st := &countingStore{Store: batch.NewMemory(nil)}
	b := providertest.NewBatcher(func(_ string, n int) providertest.Reply {
		label := "ham"
		if n < k {
			label = fmt.Sprintf("eggs-%d", n)
		}
		return providertest.CallTool("submit_result", fmt.Sprintf(`{"label": %q, "score": 3, "summary": %q}`, label, summary))
	}, &providertest.BatcherOptions{Capabilities: toolCaps})
	got, err := collect(t, newRunner(t, b, st, batch.WithEnforcer(e)), []batch.Item{{ID: "m0", Request: enforce.Request{Prompt: "Label this document and summarise it."}}})
	require.NoError(t, err)
	s := got["m0"]
	require.NoError(t, s.Err)
	require.Len(t, s.Result.Attempts, k+1)
	first := s.Result.Attempts[0].Request
	content := jsonLen(t, first)
	for i, a := range s.Result.Attempts {
		content += jsonLen(t, a.Response)
		if i > 0 {
			for _, m := range a.Request.Messages[len(first.Messages):] {
				content += jsonLen(t, m)
			}
		}
	}
	t.Logf("tool mode, %d re-asks: written %d bytes, content %d, ratio %.2f", k, st.items, content, float64(st.items)/float64(content))
	assert.LessOrEqual(t, float64(st.items), 1.2*float64(content), "bytes within 1.2x of the run's content, as in prompt mode")
}

func (b bufferedResults) BatchResults(ctx context.Context, id string) iter.Seq2[provider.BatchResult, error] {
	return func(yield func(provider.BatchResult, error) bool) {
		var all []provider.BatchResult
		for r, err := range b.Batcher.BatchResults(ctx, id) {
			if err != nil {
				yield(r, err)
				return
			}
			all = append(all, r)
		}
		for _, r := range all {
			if !yield(r, nil) {
				return
			}
		}
	}
}
