package record_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/record"
	"github.com/agentio/agentio/schema"
)

// runJob runs a batch job of n items over b with a fresh store and
// returns the outcomes by ID.
func runJob(t *testing.T, b provider.Batcher, n int) (map[string]batch.Settled, error) {
	t.Helper()
	r, err := batch.New(b, batch.NewMemory(nil), batch.WithEnforcer(labelEnforcer(t)), batch.WithPollInterval(0))
	require.NoError(t, err)
	var its []batch.Item
	for i := range n {
		its = append(its, batch.Item{ID: fmt.Sprintf("m%d", i), Request: enforce.Request{Prompt: fmt.Sprintf("Label message %d.", i)}})
	}
	out := map[string]batch.Settled{}
	for st, err := range r.Run(context.Background(), its) {
		if err != nil {
			return out, err
		}
		out[st.ID] = st
	}
	return out, nil
}

// labeller answers item m<i> invalidly i%3 times, then validly; m4 is
// rate limited once.
func labeller() providertest.Script {
	return func(item string, n int) providertest.Reply {
		var i int
		fmt.Sscanf(item, "m%d", &i)
		switch {
		case i == 4 && n == 0:
			return providertest.Failed(&provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429, Message: "slow down"})
		case n < i%3:
			return providertest.Text(`{"label": "eggs"}`)
		}
		return providertest.Text(`{"label": "ham"}`)
	}
}

// TestBatchReplay records a batch job (submissions in several batches,
// polls, results with re-asks and a rate-limited request) and replays it
// offline, without a provider: the same outcomes, attempt for attempt.
func TestBatchReplay(t *testing.T) {
	const n = 8
	dir := t.TempDir()
	sb := providertest.NewBatcher(labeller(), &providertest.BatcherOptions{Polls: 2, Limits: provider.BatchLimits{MaxRequests: 3}})
	rec := newRecorder(t, sb, dir, record.Record, &record.Options{Model: "m"})
	require.Implements(t, (*provider.BatchFinder)(nil), rec)
	want, err := runJob(t, rec.(provider.Batcher), n)
	require.NoError(t, err)
	require.Len(t, want, n)

	rep := newRecorder(t, nil, dir, record.Replay, &record.Options{Model: "m"})
	require.Implements(t, (*provider.BatchFinder)(nil), rep)
	assert.Equal(t, provider.BatchLimits{MaxRequests: 3}, rep.(provider.Batcher).BatchLimits(), "the limits recorded, so the rounds split alike")
	got, err := runJob(t, rep.(provider.Batcher), n)
	require.NoError(t, err)
	require.Len(t, got, n)
	for id, w := range want {
		g := got[id]
		require.NoError(t, w.Err, id)
		require.NoError(t, g.Err, id)
		assert.Equal(t, string(w.Result.JSON), string(g.Result.JSON), id)
		require.Len(t, g.Result.Attempts, len(w.Result.Attempts), id)
		for i := range w.Result.Attempts {
			assert.Equal(t, w.Result.Attempts[i].Request, g.Result.Attempts[i].Request, "%s attempt %d", id, i+1)
			assert.Equal(t, w.Result.Attempts[i].Response, g.Result.Attempts[i].Response, "%s attempt %d", id, i+1)
		}
	}

	// RecordMissing answers the same job from the store: the provider
	// is not called.
	fresh := providertest.NewBatcher(labeller(), &providertest.BatcherOptions{Limits: provider.BatchLimits{MaxRequests: 3}})
	again, err := runJob(t, newRecorder(t, fresh, dir, record.RecordMissing, &record.Options{Model: "m"}).(provider.Batcher), n)
	require.NoError(t, err)
	assert.Len(t, again, n)
	assert.Empty(t, fresh.Submissions(), "nothing submitted: every batch was recorded")

	// Another model label, or another job, misses.
	_, err = runJob(t, newRecorder(t, nil, dir, record.Replay, &record.Options{Model: "other"}).(provider.Batcher), n)
	assert.ErrorIs(t, err, record.ErrMiss)
	_, err = runJob(t, rep.(provider.Batcher), n+1)
	assert.ErrorIs(t, err, record.ErrMiss)
}

// TestBatchReplayStops: a batch recorded while in progress (the recording
// stopped before it was done) misses when a replay polls past it, rather
// than polling for ever; its cancellation replays.
func TestBatchReplayStops(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	sb := providertest.NewBatcher(labeller(), &providertest.BatcherOptions{Polls: 5})
	rec := newRecorder(t, sb, dir, record.Record, nil).(provider.Batcher)
	reqs := []provider.BatchRequest{{ID: "m0-1", Request: ask("Label message 0.")}}
	b, err := rec.SubmitBatch(ctx, "k1", reqs)
	require.NoError(t, err)
	_, err = rec.Batch(ctx, b.ID)
	require.NoError(t, err)
	require.NoError(t, rec.CancelBatch(ctx, b.ID))

	rep := newRecorder(t, nil, dir, record.Replay, nil).(provider.Batcher)
	rb, err := rep.SubmitBatch(ctx, "another key", reqs)
	require.NoError(t, err)
	assert.Equal(t, b.ID, rb.ID)
	got, err := rep.Batch(ctx, b.ID)
	require.NoError(t, err)
	assert.Equal(t, provider.BatchInProgress, got.Status)
	_, err = rep.Batch(ctx, b.ID)
	assert.ErrorIs(t, err, record.ErrMiss, "the recording stops before the batch was done")
	for _, err := range rep.BatchResults(ctx, b.ID) {
		assert.ErrorIs(t, err, record.ErrMiss)
	}
	assert.NoError(t, rep.CancelBatch(ctx, b.ID))
	assert.ErrorIs(t, rep.CancelBatch(ctx, "unknown"), record.ErrMiss)
	_, err = rep.Batch(ctx, "unknown")
	assert.ErrorIs(t, err, record.ErrMiss)
	found, err := rep.(provider.BatchFinder).FindBatch(ctx, "k1")
	assert.NoError(t, err)
	assert.Nil(t, found)
}

// TestBatchSecrets: a secret in a batch's requests and replies is not
// written, and the replay matches.
func TestBatchSecrets(t *testing.T) {
	const key = "sk-batch-0123456789"
	ctx := context.Background()
	dir := t.TempDir()
	sb := providertest.NewBatcher(func(string, int) providertest.Reply {
		return providertest.Text(`{"echo": "` + key + `"}`)
	}, nil)
	opts := &record.Options{Secrets: []string{key}}
	rec := newRecorder(t, sb, dir, record.Record, opts).(provider.Batcher)
	reqs := []provider.BatchRequest{{ID: "a-1", Request: ask("Repeat " + key)}}
	b, err := rec.SubmitBatch(ctx, "k", reqs)
	require.NoError(t, err)
	_, err = rec.Batch(ctx, b.ID)
	require.NoError(t, err)
	for res, err := range rec.BatchResults(ctx, b.ID) {
		require.NoError(t, err)
		assert.Contains(t, res.Response.Text, key, "the caller gets the reply as it came")
	}
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.NotContains(t, string(data), key, path)
		return nil
	})
	require.NoError(t, err)
	rep := newRecorder(t, nil, dir, record.Replay, opts).(provider.Batcher)
	rb, err := rep.SubmitBatch(ctx, "k2", reqs)
	require.NoError(t, err)
	_, err = rep.Batch(ctx, rb.ID)
	require.NoError(t, err)
	for res, err := range rep.BatchResults(ctx, rb.ID) {
		require.NoError(t, err)
		assert.Equal(t, `{"echo": "`+record.Redacted+`"}`, res.Response.Text)
	}
}

// TestBatchFileErrors: a malformed batch recording or limits file is a
// *FileError.
func TestBatchFileErrors(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "batches"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "batches", "limits.json"), []byte(`{"max_requests": "x"}`), 0o644))
	_, err := record.New(nil, dir, record.Replay, nil)
	var fe *record.FileError
	require.ErrorAs(t, err, &fe)

	dir = t.TempDir()
	ctx := context.Background()
	sb := providertest.NewBatcher(labeller(), nil)
	rec := newRecorder(t, sb, dir, record.Record, nil).(provider.Batcher)
	reqs := []provider.BatchRequest{{ID: "m0-1", Request: ask("x")}}
	_, err = rec.SubmitBatch(ctx, "k", reqs)
	require.NoError(t, err)
	files, err := filepath.Glob(filepath.Join(dir, "batches", "submit-*.json"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	for _, content := range []string{
		`{"version": 1, "key": "k", "requests": []}`,
		`{"version": 2}`,
		`{"version": 1, "key": "k", "requests": [], "batch": {"id": "b"}} {}`,
	} {
		require.NoError(t, os.WriteFile(files[0], []byte(content), 0o644))
		_, err = newRecorder(t, nil, dir, record.Replay, nil).(provider.Batcher).SubmitBatch(ctx, "k", reqs)
		require.ErrorAs(t, err, &fe, content)
	}
	// A request edited by hand no longer matches its key.
	_, err = newRecorder(t, sb, dir, record.Record, nil).(provider.Batcher).SubmitBatch(ctx, "k", reqs)
	require.NoError(t, err)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(files[0], bytes.Replace(data, []byte(`"content": "x"`), []byte(`"content": "y"`), 1), 0o644))
	_, err = newRecorder(t, nil, dir, record.Replay, nil).(provider.Batcher).SubmitBatch(ctx, "k", reqs)
	require.ErrorAs(t, err, &fe)
	assert.Contains(t, fe.Error(), "does not match")
}

// TestRecordMissingCancelsLiveBatch: in RecordMissing, CancelBatch
// of a live batch (its recording not done) asks the provider and records
// the cancellation; once recorded as cancelled, or done, a cancel is
// answered from the recording.
func TestRecordMissingCancelsLiveBatch(t *testing.T) {
	sb := providertest.NewBatcher(labeller(), &providertest.BatcherOptions{Polls: 100})
	dir := t.TempDir()
	rec := newRecorder(t, sb, dir, record.RecordMissing, nil).(provider.Batcher)
	ctx := context.Background()
	b, err := rec.SubmitBatch(ctx, "k1", []provider.BatchRequest{{ID: "m0-1", Request: ask("Label message 0.")}})
	require.NoError(t, err)
	got, err := rec.Batch(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, provider.BatchInProgress, got.Status)

	require.NoError(t, rec.CancelBatch(ctx, b.ID))
	assert.Equal(t, []string{b.ID}, sb.Canceled(), "the live batch is cancelled at the provider")

	again := newRecorder(t, sb, dir, record.RecordMissing, nil).(provider.Batcher)
	require.NoError(t, again.CancelBatch(ctx, b.ID))
	assert.Len(t, sb.Canceled(), 1, "a batch recorded cancelled is not cancelled again")
}

// TestRecordMissingCancelBatchesThroughRunner: the same through
// batch.Runner.CancelBatches after a shutdown while the batch runs.
func TestRecordMissingCancelBatchesThroughRunner(t *testing.T) {
	cctx, shutdown := context.WithCancel(context.Background())
	defer shutdown()
	polls := 0
	sb := providertest.NewBatcher(labeller(), &providertest.BatcherOptions{Polls: 100, Hook: func(e providertest.BatchEvent) error {
		if e.Op == providertest.OpPoll {
			if polls++; polls == 2 {
				shutdown() // SIGTERM while the batch runs
			}
		}
		return nil
	}})
	rec := newRecorder(t, sb, t.TempDir(), record.RecordMissing, nil).(provider.Batcher)
	st := batch.NewMemory(nil)
	r, err := batch.New(rec, st, batch.WithEnforcer(labelEnforcer(t)), batch.WithPollInterval(0))
	require.NoError(t, err)
	for _, err := range r.Run(cctx, []batch.Item{{ID: "m0", Request: enforce.Request{Prompt: "Label message 0."}}}) {
		require.ErrorIs(t, err, context.Canceled)
	}
	require.Len(t, sb.Submissions(), 1)
	require.NoError(t, r.CancelBatches(context.Background()))
	assert.Len(t, sb.Canceled(), 1, "the batch in flight is cancelled at the provider")
}

// labelEnforcer returns the Enforcer of the jobs: a label, two re-asks.
func labelEnforcer(t *testing.T) *enforce.Enforcer {
	s, err := schema.Parse([]byte(`{"type": "object", "required": ["label"], "properties": {"label": {"enum": ["spam", "ham"]}}}`))
	require.NoError(t, err)
	e, err := enforce.New(s, enforce.WithMaxRetries(2))
	require.NoError(t, err)
	return e
}

// slowCancel is a Batcher whose CancelBatch does not answer until the
// test lets it (or its ctx ends), as a provider that is slow to.
type slowCancel struct {
	*providertest.Batcher
	entered, release chan struct{}
}

func (s slowCancel) CancelBatch(ctx context.Context, id string) error {
	close(s.entered)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-s.release:
	}
	return s.Batcher.CancelBatch(ctx, id)
}

// TestSlowCancelHoldsUpNoPoll: the recorder does not hold its lock while
// the provider answers, so a cancel the provider is slow to answer holds
// up no poll, of another batch or of the same one, and the recording
// keeps both what the polls saw and the cancellation.
func TestSlowCancelHoldsUpNoPoll(t *testing.T) {
	ctx := context.Background()
	sc := slowCancel{providertest.NewBatcher(labeller(), &providertest.BatcherOptions{Polls: 100}), make(chan struct{}), make(chan struct{})}
	dir := t.TempDir()
	rec := newRecorder(t, sc, dir, record.Record, nil).(provider.Batcher)
	b1, err := rec.SubmitBatch(ctx, "k1", []provider.BatchRequest{{ID: "m0-1", Request: ask("Label message 0.")}})
	require.NoError(t, err)
	b2, err := rec.SubmitBatch(ctx, "k2", []provider.BatchRequest{{ID: "m1-1", Request: ask("Label message 1.")}})
	require.NoError(t, err)

	cctx, cancel := context.WithTimeout(ctx, 10*time.Second) // a bound, should the poll be held up
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- rec.CancelBatch(cctx, b1.ID) }()
	<-sc.entered // the cancel is in the provider's hands

	for _, id := range []string{b2.ID, b1.ID} {
		pctx, pcancel := context.WithTimeout(ctx, 5*time.Second)
		got, err := rec.Batch(pctx, id)
		pcancel()
		require.NoError(t, err, "a poll of %s while a cancel waits", id)
		assert.Equal(t, provider.BatchInProgress, got.Status)
	}
	close(sc.release)
	require.NoError(t, <-done)

	// A replay answers the poll and the cancel from the recording.
	rep := newRecorder(t, nil, dir, record.Replay, nil).(provider.Batcher)
	got, err := rep.Batch(ctx, b1.ID)
	require.NoError(t, err)
	assert.Equal(t, provider.BatchInProgress, got.Status)
	require.NoError(t, rep.CancelBatch(ctx, b1.ID))
	files, err := filepath.Glob(filepath.Join(dir, "batches", "submit-*.json"))
	require.NoError(t, err)
	canceled := map[string]bool{}
	for _, name := range files {
		var f struct {
			Label    string `json:"label"`
			Canceled bool   `json:"canceled"`
		}
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &f))
		canceled[f.Label] = f.Canceled
	}
	assert.Equal(t, map[string]bool{"k1": true, "k2": false}, canceled)
}

// TestResubmissionAfterExpiredBatch: a batch that expired before it ran
// is submitted again by the job with the same requests; through a
// RecordMissing recorder the resubmission reaches the provider (the
// recording of the expired batch does not answer it), the job ends as it
// does against the provider, and a replay of the recording, which holds
// both submissions, runs the job alike without a provider.
func TestResubmissionAfterExpiredBatch(t *testing.T) {
	const n = 3
	faults := &providertest.BatcherOptions{Faults: map[int]providertest.BatchFault{1: {Status: provider.BatchExpired}}}

	direct, err := runJob(t, providertest.NewBatcher(labeller(), faults), n)
	require.NoError(t, err)
	for id, s := range direct {
		require.NoError(t, s.Err, "%s without the recorder", id)
	}

	sb := providertest.NewBatcher(labeller(), faults)
	dir := t.TempDir()
	rec := newRecorder(t, sb, dir, record.RecordMissing, nil)
	got, err := runJob(t, rec.(provider.Batcher), n)
	require.NoError(t, err)
	for id, s := range got {
		assert.NoError(t, s.Err, "%s through the recorder", id)
	}

	replay, err := runJob(t, newRecorder(t, nil, dir, record.Replay, nil).(provider.Batcher), n)
	require.NoError(t, err)
	for id, s := range replay {
		require.NoError(t, s.Err, "%s replayed", id)
		assert.Equal(t, string(got[id].Result.JSON), string(s.Result.JSON), id)
	}
}

// TestResubmissionAfterRefusal: a submission the provider refused for a
// moment (429) stops the run; through a RecordMissing recorder the
// next run's submission of the same requests reaches the provider (the
// recorded refusal does not answer it), in the same process or a new one,
// as it does against the provider directly.
func TestResubmissionAfterRefusal(t *testing.T) {
	const n = 2
	opts := func() *providertest.BatcherOptions {
		return &providertest.BatcherOptions{Faults: map[int]providertest.BatchFault{1: {
			Reject: &provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429, Message: "slow down"}}}}
	}
	jobOnStore := func(t *testing.T, b provider.Batcher, st batch.Store) error {
		r, err := batch.New(b, st, batch.WithEnforcer(labelEnforcer(t)), batch.WithPollInterval(0))
		require.NoError(t, err)
		for _, err := range r.Run(context.Background(), []batch.Item{
			{ID: "m0", Request: enforce.Request{Prompt: "Label message 0."}},
			{ID: "m1", Request: enforce.Request{Prompt: "Label message 1."}},
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

	for _, process := range []string{"same", "new"} {
		t.Run(process+" process", func(t *testing.T) {
			sb := providertest.NewBatcher(labeller(), opts())
			dir := t.TempDir()
			rec := newRecorder(t, sb, dir, record.RecordMissing, nil).(provider.Batcher)
			st := batch.NewMemory(nil)
			err := jobOnStore(t, rec, st)
			var pe *provider.Error
			require.ErrorAs(t, err, &pe, "the first run stops on the 429")
			require.Equal(t, provider.ErrRateLimited, pe.Kind)
			if process == "new" {
				rec = newRecorder(t, sb, dir, record.RecordMissing, nil).(provider.Batcher)
			}
			assert.NoError(t, jobOnStore(t, rec, st), "the next run through the recorder goes on")
		})
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
		Err: &provider.Error{Kind: provider.ErrInvalidRequest, Provider: "p", Message: "invalid API key " + f.secret}}, nil
}

// TestPollErrorRedacted: the error of a failed batch a poll returns is
// recorded with its secrets redacted, as SubmitBatch's and BatchResults'
// are: the caller gets the provider's error, the recording and its replay
// the redacted one.
func TestPollErrorRedacted(t *testing.T) {
	const key = "sk-poll-0123456789"
	ctx := context.Background()
	dir := t.TempDir()
	b := failedPoll{Batcher: providertest.NewBatcher(labeller(), nil), secret: key}
	rec := newRecorder(t, b, dir, record.Record, &record.Options{Secrets: []string{key}}).(provider.Batcher)
	sub, err := rec.SubmitBatch(ctx, "k", []provider.BatchRequest{{ID: "m0-1", Request: ask("Label message 0.")}})
	require.NoError(t, err)
	got, err := rec.Batch(ctx, sub.ID)
	require.NoError(t, err)
	require.Equal(t, provider.BatchFailed, got.Status)
	assert.Contains(t, got.Err.Error(), key, "the caller gets the provider's error")

	files, err := filepath.Glob(filepath.Join(dir, "batches", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		assert.NotContains(t, string(data), key, name)
	}
	rep := newRecorder(t, nil, dir, record.Replay, nil).(provider.Batcher)
	_, err = rep.SubmitBatch(ctx, "k", []provider.BatchRequest{{ID: "m0-1", Request: ask("Label message 0.")}})
	require.NoError(t, err)
	got, err = rep.Batch(ctx, sub.ID)
	require.NoError(t, err)
	require.Equal(t, provider.BatchFailed, got.Status)
	assert.Contains(t, got.Err.Error(), record.Redacted, "the replay's error is the redacted one")
	assert.NotContains(t, got.Err.Error(), key)
}

// TestSubmissionsInOrder: the same requests submitted again are recorded
// one file each, in order; a replay answers the n-th submission with the
// n-th recorded and the last from then on; a new Record session
// records over the earlier one's, leaving none of its later files.
func TestSubmissionsInOrder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	reqs := []provider.BatchRequest{{ID: "m0-1", Request: ask("Label message 0.")}}
	files := func() []string {
		names, err := filepath.Glob(filepath.Join(dir, "batches", "submit-*.json"))
		require.NoError(t, err)
		for i, n := range names {
			names[i] = strings.TrimSuffix(filepath.Base(n), ".json")
		}
		return names
	}
	refuse := &providertest.BatcherOptions{Faults: map[int]providertest.BatchFault{1: {
		Reject: &provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429, Message: "slow down"}}}}
	rec := newRecorder(t, providertest.NewBatcher(labeller(), refuse), dir, record.Record, nil).(provider.Batcher)
	_, err := rec.SubmitBatch(ctx, "a", reqs)
	require.Error(t, err)
	b2, err := rec.SubmitBatch(ctx, "b", reqs)
	require.NoError(t, err)
	b3, err := rec.SubmitBatch(ctx, "c", reqs)
	require.NoError(t, err)
	names := files()
	require.Len(t, names, 3)
	first := slices.MinFunc(names, func(a, b string) int { return len(a) - len(b) })
	assert.ElementsMatch(t, []string{first, first + "-2", first + "-3"}, names)

	rep := newRecorder(t, nil, dir, record.Replay, nil).(provider.Batcher)
	_, err = rep.SubmitBatch(ctx, "x", reqs)
	var pe *provider.Error
	require.ErrorAs(t, err, &pe, "the first submission was refused")
	for _, want := range []string{b2.ID, b3.ID, b3.ID} {
		got, err := rep.SubmitBatch(ctx, "x", reqs)
		require.NoError(t, err)
		assert.Equal(t, want, got.ID)
	}

	again := newRecorder(t, providertest.NewBatcher(labeller(), nil), dir, record.Record, nil).(provider.Batcher)
	b, err := again.SubmitBatch(ctx, "d", reqs)
	require.NoError(t, err)
	assert.Len(t, files(), 1, "a new session's first submission replaces the earlier session's")
	missing := providertest.NewBatcher(labeller(), nil)
	got, err := newRecorder(t, missing, dir, record.RecordMissing, nil).(provider.Batcher).SubmitBatch(ctx, "y", reqs)
	require.NoError(t, err)
	assert.Equal(t, b.ID, got.ID)
	assert.Empty(t, missing.Submissions(), "answered from the recording")
}
