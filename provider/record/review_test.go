package record_test

// Reproductions of defects found reviewing issue #37's change (review-37).
// Each test fails on the code as it is.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/record"
)

// failedPoll is a Batcher whose batches fail, with an error naming the
// API key, as a provider's "invalid API key sk-..." would.
type failedPoll struct {
	*providertest.Batcher
	secret string
}

func (f failedPoll) Batch(ctx context.Context, id string) (*provider.Batch, error) {
	return &provider.Batch{ID: id, Status: provider.BatchFailed,
		Err: &provider.Error{Kind: provider.ErrorInvalidRequest, Provider: "p", Message: "invalid API key " + f.secret}}, nil
}

// TestReviewPollErrorNotRedacted: the package doc says secrets are
// replaced "in the request, the reply and the error", and SubmitBatch's
// and BatchResults' errors are; a poll's Batch.Err is not redacted, so the
// recording of a failed batch is refused (ErrSecret) and the poll returns
// that error: a job recorded through the recorder stops on the poll
// instead of settling its items with the provider's (redacted) error.
func TestReviewPollErrorNotRedacted(t *testing.T) {
	const key = "sk-poll-0123456789"
	ctx := context.Background()
	dir := t.TempDir()
	b := failedPoll{Batcher: providertest.NewBatcher(labeller(), nil), secret: key}
	rec := newRecorder(t, b, dir, record.ModeRecord, &record.Options{Secrets: []string{key}}).(provider.Batcher)
	sub, err := rec.SubmitBatch(ctx, "k", []provider.BatchRequest{{ID: "m0-1", Request: ask("Label message 0.")}})
	require.NoError(t, err)
	got, err := rec.Batch(ctx, sub.ID)
	t.Logf("poll of a failed batch: batch %v, err %v", got != nil, err)
	assert.NoError(t, err, "the poll's error is redacted and recorded")
	var names []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(path)
			assert.NotContains(t, string(data), key, path)
			if strings.Contains(string(data), record.Redacted) {
				names = append(names, filepath.Base(path))
			}
		}
		return nil
	})
	assert.NotEmpty(t, names, "the failed state is recorded, its secret redacted")
}
