package batch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// countingStore counts the bytes each Save is given to write: those of
// the items (records, log entries, delivery marks) and those of the
// batches, which a batch's items share.
type countingStore struct {
	batch.Store
	mu           sync.Mutex
	items, other int
}

func (s *countingStore) Save(ctx context.Context, c batch.Update) error {
	n, m := 0, 0
	for _, r := range c.Items {
		n += len(r.ID) + len(r.Status) + len(r.Data)
	}
	for _, e := range c.Logs {
		n += len(e.ID) + len(e.Data)
	}
	for _, id := range c.Delivered {
		n += len(id)
	}
	for _, b := range c.Batches {
		m += len(b.Key) + len(b.ID)
		for _, id := range b.Requests {
			m += len(id)
		}
	}
	for _, k := range c.Closed {
		m += len(k)
	}
	s.mu.Lock()
	s.items += n
	s.other += m
	s.mu.Unlock()
	return s.Store.Save(ctx, c)
}

// jsonLen returns the length of v's JSON encoding.
func jsonLen(t testing.TB, v any) int {
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return len(data)
}

// reviewSchema is the schema of TestStorageLinearInAttempts: a label, a
// score and a summary of the document, as a model's review of a 4 KB text
// would give.
const reviewSchema = `{
	"type": "object",
	"required": ["label", "score", "summary"],
	"properties": {
		"label": {"enum": ["spam", "ham"]},
		"score": {"type": "integer", "minimum": 0, "maximum": 10},
		"summary": {"type": "string", "maxLength": 600}
	}
}`

// TestStorageLinearInAttempts runs one item with a 4 KB prompt that
// needs k re-asks, k = 0...8, in prompt mode and in tool mode, and counts
// every byte the runner hands the store for the item over the run (its
// records, log entries and delivery mark; the batch records, which a
// batch's items share, are counted apart). What it writes per attempt is
// what the attempt adds, so the bytes grow linearly in k and stay within
// 1.2 times the run's own content: the first request, the messages each
// re-ask adds, and the replies, each as JSON. In tool mode the output is
// written once per reply, in its tool call, not again as the attempt's
// JSON or the text its check read.
func TestStorageLinearInAttempts(t *testing.T) {
	for _, mode := range []enforce.Mode{enforce.ModePrompt, enforce.ModeTool} {
		t.Run(string(mode), func(t *testing.T) {
			ratio := storageRatio(t, mode, 4096)
			assert.LessOrEqual(t, ratio, 1.2, "bytes(8) within 1.2x of the run's content")
		})
	}
}

// TestToolModeStorage: with a short prompt, so that the outputs are most
// of the content, a job in tool mode writes no more for its content than
// the same job in prompt mode: each output once per reply.
func TestToolModeStorage(t *testing.T) {
	prompt := storageRatio(t, enforce.ModePrompt, 0)
	tool := storageRatio(t, enforce.ModeTool, 0)
	assert.LessOrEqual(t, tool, prompt, "written/content, tool mode against prompt mode")
}

// storageRatio runs the job of TestStorageLinearInAttempts in mode with a
// prompt of about promptLen bytes, checks that the bytes grow linearly in
// k and returns the ratio of bytes written to content for k = 8.
func storageRatio(t *testing.T, mode enforce.Mode, promptLen int) float64 {
	const maxK = 8
	var prompt strings.Builder
	prompt.WriteString("Label this document and summarise it.\n\n")
	for i := 0; prompt.Len() < promptLen; i++ {
		fmt.Fprintf(&prompt, "Paragraph %d: the customer writes about order %d, shipped on day %d, and asks for item %d. ", i, 7919*i%10007, i%28+1, 31*i%97)
	}
	summary := strings.Repeat("The customer asks where the order is and wants a refund. ", 5)
	sc, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	e, err := enforce.New(sc, enforce.WithMaxRetries(maxK), enforce.WithMode(mode))
	require.NoError(t, err)
	written := make([]int, maxK+1)
	shared := make([]int, maxK+1)
	content := make([]int, maxK+1)
	for k := 0; k <= maxK; k++ {
		st := &countingStore{Store: batch.NewMemory(nil)}
		// Each invalid reply differs, as a model's would.
		b := providertest.NewBatcher(func(_ string, n int) providertest.Reply {
			label := "ham"
			if n < k {
				label = fmt.Sprintf("eggs-%d", n)
			}
			out := fmt.Sprintf(`{"label": %q, "score": 3, "summary": %q}`, label, summary)
			r := providertest.Reply{Text: out}
			if mode == enforce.ModeTool {
				r = providertest.CallTool(enforce.ToolName, out)
			}
			r.Usage = provider.Usage{InputTokens: 1100 + 200*n, OutputTokens: 90, TotalTokens: 1190 + 200*n}
			return r
		}, &providertest.BatcherOptions{Capabilities: toolCaps})
		r := newRunner(t, b, st, batch.WithEnforcer(e))
		got, err := collect(t, r, []batch.Item{{ID: "m0", Request: enforce.Request{Prompt: prompt.String()}}})
		require.NoError(t, err)
		s := got["m0"]
		require.NoError(t, s.Err)
		require.Len(t, s.Result.Attempts, k+1)
		// What is written once is read back whole.
		read := 0
		for back, err := range r.Results(ctx) {
			require.NoError(t, err)
			read++
			assert.Equal(t, s.Result.Text, back.Result.Text)
			assert.Equal(t, string(s.Result.JSON), string(back.Result.JSON))
			require.Len(t, back.Result.Attempts, k+1)
			for i, a := range back.Result.Attempts {
				assert.Equal(t, string(s.Result.Attempts[i].JSON), string(a.JSON), "attempt %d", i+1)
				assert.Equal(t, jsonLen(t, s.Result.Attempts[i].Request), jsonLen(t, a.Request), "attempt %d", i+1)
				assert.Equal(t, s.Result.Attempts[i].Response, a.Response, "attempt %d", i+1)
			}
		}
		require.Equal(t, 1, read)
		first := s.Result.Attempts[0].Request
		content[k] = jsonLen(t, first)
		for i, a := range s.Result.Attempts {
			content[k] += jsonLen(t, a.Response)
			if i > 0 {
				for _, m := range a.Request.Messages[len(first.Messages):] {
					content[k] += jsonLen(t, m)
				}
			}
		}
		written[k], shared[k] = st.items, st.other
	}
	var table strings.Builder
	fmt.Fprintf(&table, "\n%3s %10s %10s %7s %10s %10s\n", "k", "written", "content", "ratio", "step", "batches")
	for k := range written {
		step := 0
		if k > 0 {
			step = written[k] - written[k-1]
		}
		fmt.Fprintf(&table, "%3d %10d %10d %7.3f %10d %10d\n", k, written[k], content[k], float64(written[k])/float64(content[k]), step, shared[k])
	}
	t.Logf("%s mode, prompt of %d bytes:%s", mode, promptLen, table.String())
	// Linear: every re-ask adds about the same bytes.
	lo, hi := written[1]-written[0], written[1]-written[0]
	for k := 1; k <= maxK; k++ {
		step := written[k] - written[k-1]
		lo, hi = min(lo, step), max(hi, step)
	}
	assert.LessOrEqual(t, float64(hi), 1.1*float64(lo), "the bytes a re-ask adds do not grow with k (steps %d to %d)", lo, hi)
	return float64(written[maxK]) / float64(content[maxK])
}
