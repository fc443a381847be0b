package record_test

// Reproductions of defects found reviewing issue #37's change (review-37).
// Each test fails on the code as it is.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/record"
)

// TestReviewRecordMissingReplaysExpiredBatch: in ModeRecordMissing (the
// mode the package doc shows), a batch that expired before it ran is
// recorded; the runner then submits the same requests again (same IDs,
// same attempt, so the same recording key), and the recorder answers that
// resubmission with the recorded, expired batch instead of asking the
// provider. Every resubmission does the same, and every item ends with
// ErrResubmits, while the same job against the provider directly
// succeeds.
func TestReviewRecordMissingReplaysExpiredBatch(t *testing.T) {
	const n = 3
	faults := &providertest.BatcherOptions{Faults: map[int]providertest.BatchFault{1: {Status: provider.BatchExpired}}}

	direct, err := runJob(t, providertest.NewBatcher(labeller(), faults), n)
	require.NoError(t, err)
	for id, s := range direct {
		require.NoError(t, s.Err, "%s without the recorder", id)
	}

	sb := providertest.NewBatcher(labeller(), faults)
	rec := newRecorder(t, sb, t.TempDir(), record.ModeRecordMissing, &record.Options{Model: "m"})
	got, err := runJob(t, rec.(provider.Batcher), n)
	require.NoError(t, err)
	t.Logf("batches submitted to the provider through the recorder: %d", len(sb.Submissions()))
	for id, s := range got {
		if s.Err != nil {
			t.Logf("%s: %v (ErrResubmits: %v)", id, s.Err, errors.Is(s.Err, batch.ErrResubmits))
		}
		assert.NoError(t, s.Err, "%s through the recorder", id)
	}
}

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

// TestReviewRecordMissingReplaysRejectedSubmission: the same in
// ModeRecordMissing for a submission the provider refused for a moment
// (429): the refusal is recorded, and every later run of the job gets the
// recorded refusal instead of asking the provider again, so the job never
// gets past it, while against the provider the second run succeeds.
func TestReviewRecordMissingReplaysRejectedSubmission(t *testing.T) {
	const n = 2
	opts := func() *providertest.BatcherOptions {
		return &providertest.BatcherOptions{Faults: map[int]providertest.BatchFault{1: {
			Reject: &provider.Error{Kind: provider.ErrorRateLimited, StatusCode: 429, Message: "slow down"}}}}
	}
	jobOnStore := func(t *testing.T, b provider.Batcher, st batch.Store) error {
		r, err := batch.New(b, st, batch.WithEnforcer(labelEnforcer(t)), batch.WithPollInterval(0))
		require.NoError(t, err)
		for _, err := range r.Run(context.Background(), []batch.Item{
			{ID: "m0", Request: enforceRequest("Label message 0.")},
			{ID: "m1", Request: enforceRequest("Label message 1.")},
		}[:n]) {
			if err != nil {
				return err
			}
		}
		return nil
	}

	direct := providertest.NewBatcher(labeller(), opts())
	st := batch.NewMemory(nil)
	require.Error(t, jobOnStore(t, direct, st), "the first run stops on the 429")
	require.NoError(t, jobOnStore(t, direct, st), "the next run, against the provider, goes on")

	sb := providertest.NewBatcher(labeller(), opts())
	rec := newRecorder(t, sb, t.TempDir(), record.ModeRecordMissing, nil).(provider.Batcher)
	st = batch.NewMemory(nil)
	require.Error(t, jobOnStore(t, rec, st), "the first run stops on the 429")
	err := jobOnStore(t, rec, st)
	t.Logf("second run through the recorder: %v; submissions the provider saw: %d", err, len(sb.Submissions()))
	assert.NoError(t, err, "the next run through the recorder goes on")
}

func enforceRequest(prompt string) enforce.Request { return enforce.Request{Prompt: prompt} }
