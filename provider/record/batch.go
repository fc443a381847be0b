package record

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentio/agentio/provider"
)

// batchDir is the store's folder of batch recordings.
const batchDir = "batches"

// limitsFile is the file, in batchDir, that keeps the batch limits of the
// provider recorded.
const limitsFile = "limits"

// A batchRecorder is the provider New returns for a [provider.Batcher] (or
// for none, replaying): a recorder that also records and replays batch
// submissions, polls, results and cancellations.
type batchRecorder struct {
	*recorder
	b      provider.Batcher      // nil when replaying without a provider
	limits *provider.BatchLimits // recorded, when replaying without one

	mu    sync.Mutex
	polls map[string]int // replayed polls by batch ID
	// subs counts, by recording key, the submissions this recorder
	// answered from the store (replaying) or recorded (Record).
	subs map[string]int
}

// streamingBatchRecorder is a batchRecorder that streams too.
type streamingBatchRecorder struct {
	*batchRecorder
	streamingRecorder
}

var (
	_ provider.BatchFinder = (*batchRecorder)(nil)
	_ provider.BatchFinder = streamingBatchRecorder{}
	_ provider.Streamer    = streamingBatchRecorder{}
)

// Generate answers as the recorder does.
func (s streamingBatchRecorder) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	return s.batchRecorder.Generate(ctx, req)
}

// Capabilities reports what the recorder reports.
func (s streamingBatchRecorder) Capabilities() provider.Capabilities {
	return s.batchRecorder.Capabilities()
}

// newBatchRecorder returns r as a batch recorder over b (nil replaying
// without a provider), reading the recorded limits then.
func newBatchRecorder(r *recorder, b provider.Batcher) (*batchRecorder, error) {
	br := &batchRecorder{recorder: r, b: b, polls: map[string]int{}, subs: map[string]int{}}
	if b == nil {
		l, err := readLimits(r.dir)
		if err != nil {
			return nil, err
		}
		br.limits = &l
	}
	return br, nil
}

// A batchFile is the recording of one submitted batch: its submission
// (the requests, as their keys are computed, and how SubmitBatch
// answered), then every change of state its polls saw, its results once
// downloaded, and whether it was cancelled.
type batchFile struct {
	Version int `json:"version"`
	// Key is the hash of Model and Requests: the file's name.
	Key string `json:"key"`
	// Submission is which submission of these requests the file records,
	// from 2, when it is not the first (a job submits the same requests
	// again after a refusal, or a batch that expired or was cancelled
	// before it ran); the file's name then ends in "-<Submission>".
	Submission int    `json:"submission,omitempty"`
	Model      string `json:"model,omitempty"`
	// Label is the key SubmitBatch was given.
	Label    string         `json:"label,omitempty"`
	Requests []batchRequest `json:"requests"`
	// Batch is what SubmitBatch returned; Error how it failed.
	Batch *wireBatch `json:"batch,omitempty"`
	Error *wireError `json:"error,omitempty"`
	// Polls are the states Batch returned, each one recorded when it
	// differs from the one before.
	Polls []wireBatch `json:"polls,omitempty"`
	// Results are the results BatchResults yielded, in order, once a
	// download went to its end.
	Results    []wireResult `json:"results,omitempty"`
	Downloaded bool         `json:"downloaded,omitempty"`
	// Canceled records a successful CancelBatch.
	Canceled bool `json:"canceled,omitempty"`
}

type batchRequest struct {
	ID      string `json:"id"`
	Request any    `json:"request"`
}

// wireBatch is a provider.Batch with its error, which the Batch's own
// encoding leaves out.
type wireBatch struct {
	provider.Batch
	Err *wireError `json:"err,omitempty"`
}

type wireResult struct {
	ID       string        `json:"id"`
	Response *wireResponse `json:"response,omitempty"`
	Error    *wireError    `json:"error,omitempty"`
}

// wireBatch returns b as it is recorded, its error's secrets redacted.
func (r *recorder) wireBatch(b *provider.Batch) *wireBatch {
	w := &wireBatch{Batch: *b}
	w.Batch.Err = nil
	if b.Err != nil {
		w.Err = toWireError(b.Err)
		r.redact.error(w.Err)
	}
	return w
}

// submitName is the name (without ".json") of the file of the n-th
// submission (from 1) of the requests of recording key k.
func submitName(k string, n int) string {
	if n <= 1 {
		return "submit-" + k
	}
	return fmt.Sprintf("submit-%s-%d", k, n)
}

// name is the file's name, without ".json".
func (f *batchFile) name() string { return submitName(f.Key, f.Submission) }

// over reports whether the recording shows the batch over: cancelled,
// or done in its last recorded state.
func (f *batchFile) over() bool {
	return f.Canceled || f.last() != nil && f.last().Status.Done()
}

// last is the batch's last recorded state; nil for a refused submission.
func (f *batchFile) last() *wireBatch {
	if n := len(f.Polls); n > 0 {
		return &f.Polls[n-1]
	}
	return f.Batch
}

// failed reports whether the recorded submission got no batch that ran:
// the provider refused it, or the batch was cancelled, or ended expired,
// cancelled or failed. The same requests are then submitted again.
func (f *batchFile) failed() bool {
	if f.Error != nil || f.Canceled {
		return true
	}
	switch f.last().Status {
	case provider.BatchExpired, provider.BatchCanceled, provider.BatchFailed:
		return true
	}
	return false
}

func (w *wireBatch) batch() *provider.Batch {
	b := w.Batch
	if w.Err != nil {
		b.Err = w.Err.err()
	}
	return &b
}

// batchKey returns the key of a submission of reqs for model: the hex
// SHA-256 of their IDs and redacted request trees. The label SubmitBatch
// is given does not enter it: it is new in every run.
func (r *recorder) batchKey(reqs []provider.BatchRequest) (string, []batchRequest, error) {
	out := make([]batchRequest, len(reqs))
	for i, q := range reqs {
		if q.Request == nil {
			return "", nil, fmt.Errorf("record: batch request %q has no request", q.ID)
		}
		tree, err := requestTree(q.Request)
		if err != nil {
			return "", nil, fmt.Errorf("record: encode batch request %q: %w", q.ID, err)
		}
		out[i] = batchRequest{ID: r.redact.scrub(q.ID), Request: r.redact.request(tree)}
	}
	b, err := canonical(map[string]any{"model": r.model, "batch": out})
	if err != nil {
		return "", nil, fmt.Errorf("record: encode batch: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), out, nil
}

// idFile is the name of the file that links a provider's batch ID to its
// submission's recording.
func idFile(id string) string {
	sum := sha256.Sum256([]byte(id))
	return "id-" + hex.EncodeToString(sum[:16])
}

// readBatchFile reads a batch recording by file name (without ".json");
// fs.ErrNotExist (wrapped) when there is none, a *FileError when it does
// not parse.
func (r *recorder) readBatchFile(name string) (*batchFile, error) {
	path := filepath.Join(r.dir, batchDir, name+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f batchFile
	if err := decodeOne(path, data, &f, true, "recording"); err != nil {
		return nil, err
	}
	if f.Version != fileVersion {
		return nil, &FileError{Path: path, Err: fmt.Errorf("version %d, want %d", f.Version, fileVersion)}
	}
	if (f.Batch == nil) == (f.Error == nil) {
		return nil, &FileError{Path: path, Err: errors.New("a submission needs a batch or an error, not both")}
	}
	b, err := canonical(map[string]any{"model": f.Model, "batch": f.Requests})
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	sum := sha256.Sum256(b)
	if key := hex.EncodeToString(sum[:]); f.Key != key || f.Submission < 0 || f.Submission == 1 || name != f.name() {
		return nil, &FileError{Path: path, Err: fmt.Errorf("key %.12s does not match the requests (hash %.12s) or the file's name: were they edited?", f.Key, key)}
	}
	return &f, nil
}

// chain reads the recordings of the submissions of the requests of key k,
// in order: none when the store has none.
func (r *recorder) chain(k string) ([]*batchFile, error) {
	var out []*batchFile
	for n := 1; ; n++ {
		f, err := r.readBatchFile(submitName(k, n))
		if errors.Is(err, fs.ErrNotExist) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
}

// byID reads the recording of the batch the provider calls id.
func (r *recorder) byID(id string) (*batchFile, error) {
	path := filepath.Join(r.dir, batchDir, idFile(id)+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(string(data))
	key, n, _ := strings.Cut(name, "-")
	if len(key) != 64 || strings.Trim(key, "0123456789abcdef") != "" || (n != "" && (strings.Trim(n, "0123456789") != "" || strings.HasPrefix(n, "0"))) {
		return nil, &FileError{Path: path, Err: errors.New("not the name of a batch recording")}
	}
	return r.readBatchFile("submit-" + name)
}

// writeBatchFile writes f, and the file linking its batch's ID to it,
// refusing when a secret is still found in the bytes.
func (r *recorder) writeBatchFile(f *batchFile) error {
	if err := r.writeCapabilities(); err != nil {
		return err
	}
	dir := filepath.Join(r.dir, batchDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	data, err := encodeIndented(f)
	if err != nil {
		return fmt.Errorf("record: encode batch %.12s: %w", f.Key, err)
	}
	for _, s := range r.redact.list {
		if strings.Contains(string(data), s) {
			return fmt.Errorf("%w: batch recording %.12s not written", ErrSecret, f.Key)
		}
	}
	if err := writeFile(dir, f.name(), data); err != nil {
		return err
	}
	if f.Batch != nil {
		return writeFile(dir, idFile(f.Batch.ID), []byte(strings.TrimPrefix(f.name(), "submit-")+"\n"))
	}
	return nil
}

// readLimits reads the recorded batch limits: none when the store has no
// such file, a *FileError when it does not parse.
func readLimits(dir string) (provider.BatchLimits, error) {
	return readSmallFile[provider.BatchLimits](filepath.Join(dir, batchDir, limitsFile+".json"), "limits")
}

// batchMiss is the miss of a batch call with no recording to answer.
func (r *recorder) batchMiss(key, reason string) *MissError {
	return &MissError{Key: key, Dir: filepath.Join(r.dir, batchDir), Reason: reason}
}

// BatchLimits reports the wrapped Batcher's limits, or, replaying without
// one, those recorded with the first submission (none when the store has
// no batch recording).
func (br *batchRecorder) BatchLimits() provider.BatchLimits {
	if br.b == nil {
		return *br.limits
	}
	return br.b.BatchLimits()
}

// BatchRequestSize reports the wrapped Batcher's size of q, or, replaying
// without one, the length of its request's JSON encoding: a replay of a
// job whose provider limited batches by bytes may split its rounds
// otherwise, and then misses.
func (br *batchRecorder) BatchRequestSize(q provider.BatchRequest) (int, error) {
	if br.b != nil {
		return br.b.BatchRequestSize(q)
	}
	if q.Request == nil {
		return 0, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: "record", Message: "a batch request without a request"}
	}
	tree, err := requestTree(q.Request)
	if err != nil {
		return 0, err
	}
	data, err := canonical(map[string]any{"id": q.ID, "request": tree})
	if err != nil {
		return 0, err
	}
	return len(data), nil
}

// SubmitBatch answers from the store or from the wrapped Batcher, as the
// policy says, and records the submission: its requests (redacted, the key
// computed from them and the model label, not from key, which is new in
// every run) and the batch or error the Batcher returned. The same
// requests submitted again (after a refusal, or a batch that expired or
// was cancelled before it ran) are recorded as the next submission of
// them, beside the earlier ones.
//
// [Replay] answers the n-th submission of the same requests by this
// recorder with the n-th recorded (the last one from then on), whose
// polls and results the store then answers; a miss is a [*MissError].
// [RecordMissing] answers with the last recorded submission unless it
// failed (refused, or a batch cancelled, expired or failed): then the
// provider is asked, as it is for requests not recorded. A failure with
// the context's error is not recorded; a recording that cannot be written
// is an error beside the batch.
func (br *batchRecorder) SubmitBatch(ctx context.Context, key string, reqs []provider.BatchRequest) (*provider.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	k, trees, err := br.batchKey(reqs)
	if err != nil {
		return nil, err
	}
	if br.mode != Record {
		br.mu.Lock()
		chain, err := br.chain(k)
		var f *batchFile
		switch {
		case err != nil:
		case br.mode == Replay && len(chain) > 0:
			f = chain[min(br.subs[k], len(chain)-1)]
			br.subs[k]++
		case len(chain) > 0 && !chain[len(chain)-1].failed():
			f = chain[len(chain)-1]
		}
		br.mu.Unlock()
		switch {
		case err != nil:
			return nil, err
		case f != nil && f.Error != nil:
			return nil, f.Error.err()
		case f != nil:
			return f.Batch.batch(), nil
		case br.mode == Replay:
			return nil, br.batchMiss(k, fmt.Sprintf("no recording of a batch of these %d requests", len(reqs)))
		}
	}
	b, err := br.b.SubmitBatch(ctx, key, reqs)
	if isContextError(ctx, err) {
		return b, err
	}
	f := &batchFile{Version: fileVersion, Key: k, Model: br.model, Label: br.redact.scrub(key), Requests: trees}
	if err != nil {
		f.Error = toWireError(err)
		br.redact.error(f.Error)
	} else {
		f.Batch = br.wireBatch(b)
	}
	werr := br.writeLimits()
	if werr == nil {
		werr = br.writeSubmission(f)
	}
	return b, errors.Join(err, werr)
}

// writeSubmission writes f as the next submission of its requests: in
// [RecordMissing] after those recorded; in [Record] after those
// this recorder recorded, replacing any later ones of an earlier session.
func (br *batchRecorder) writeSubmission(f *batchFile) error {
	br.mu.Lock()
	defer br.mu.Unlock()
	chain, err := br.chain(f.Key)
	if err != nil && br.mode == RecordMissing {
		return err
	}
	n := len(chain) + 1
	if br.mode == Record {
		n = br.subs[f.Key] + 1
	}
	if n > 1 {
		f.Submission = n
	}
	if err := br.writeBatchFile(f); err != nil {
		return err
	}
	if br.mode == Record {
		br.subs[f.Key] = n
		for m := n + 1; m <= len(chain); m++ {
			if err := os.Remove(filepath.Join(br.dir, batchDir, submitName(f.Key, m)+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("record: %w", err)
			}
		}
	}
	return nil
}

// writeLimits writes the wrapped Batcher's limits to the store.
func (br *batchRecorder) writeLimits() error {
	data, err := json.MarshalIndent(br.b.BatchLimits(), "", "  ")
	if err != nil {
		return fmt.Errorf("record: encode batch limits: %w", err)
	}
	dir := filepath.Join(br.dir, batchDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return writeFile(dir, limitsFile, append(data, '\n'))
}

// Batch answers from the store or from the wrapped Batcher, as the policy
// says. Recording, it keeps each state that differs from the one before.
// Replaying, the n-th poll of a batch returns its n-th recorded state, and
// the last one from then on once it is done; a poll past a recording that
// stops while the batch was in progress misses in [Replay] and asks
// the provider in [RecordMissing]. An unknown batch is a miss.
func (br *batchRecorder) Batch(ctx context.Context, id string) (*provider.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	br.mu.Lock()
	f, err := br.byID(id)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		br.mu.Unlock()
		return nil, err
	}
	if br.mode != Record && f != nil {
		n := br.polls[id]
		switch {
		case n < len(f.Polls):
			br.polls[id] = n + 1
			br.mu.Unlock()
			return f.Polls[n].batch(), nil
		case len(f.Polls) > 0 && f.Polls[len(f.Polls)-1].Status.Done():
			br.mu.Unlock()
			return f.Polls[len(f.Polls)-1].batch(), nil
		case br.mode == Replay:
			br.mu.Unlock()
			return nil, br.batchMiss(f.Key, fmt.Sprintf("the recording of batch %s stops after %d polls, before it was done", id, len(f.Polls)))
		}
	}
	br.mu.Unlock()
	if f == nil && br.mode == Replay {
		return nil, br.batchMiss(idFile(id), fmt.Sprintf("no recording of batch %s", id))
	}
	// The provider is called without the lock: a call it does not answer
	// holds up no other batch's.
	b, err := br.b.Batch(ctx, id)
	if err != nil || f == nil {
		return b, err // an unrecorded batch's polls are not recorded
	}
	br.mu.Lock()
	defer br.mu.Unlock()
	if f, err = br.byID(id); err != nil { // as other calls left it
		return b, err
	}
	w := br.wireBatch(b)
	if n := len(f.Polls); n == 0 || !sameBatch(&f.Polls[n-1], w) {
		f.Polls = append(f.Polls, *w)
		if werr := br.writeBatchFile(f); werr != nil {
			return b, werr
		}
	}
	br.polls[id] = len(f.Polls)
	return b, nil
}

// sameBatch reports whether two recorded states are the same.
func sameBatch(a, b *wireBatch) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

// BatchResults answers from the store or from the wrapped Batcher, as the
// policy says. Recording, it passes each result on as it comes and records
// them all when the download reaches its end (a download that fails or
// that its caller stops is not recorded). Replaying, it yields the
// recorded results; a batch whose results were not recorded misses.
func (br *batchRecorder) BatchResults(ctx context.Context, id string) iter.Seq2[provider.BatchResult, error] {
	return func(yield func(provider.BatchResult, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(provider.BatchResult{}, err)
			return
		}
		br.mu.Lock()
		f, err := br.byID(id)
		br.mu.Unlock()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			yield(provider.BatchResult{}, err)
			return
		}
		if br.mode != Record && f != nil && f.Downloaded {
			for _, w := range f.Results {
				res := provider.BatchResult{ID: w.ID, Response: w.Response.response()}
				if w.Error != nil {
					res.Err = w.Error.err()
				}
				if !yield(res, nil) {
					return
				}
			}
			return
		}
		if br.mode == Replay {
			key := idFile(id)
			if f != nil {
				key = f.Key
			}
			yield(provider.BatchResult{}, br.batchMiss(key, fmt.Sprintf("no recording of the results of batch %s", id)))
			return
		}
		var results []wireResult
		for res, err := range br.b.BatchResults(ctx, id) {
			if err != nil {
				yield(res, err)
				return
			}
			w := wireResult{ID: res.ID, Response: cloneWireResponse(toWireResponse(res.Response))}
			br.redact.response(w.Response)
			if res.Err != nil {
				w.Error = toWireError(res.Err)
				br.redact.error(w.Error)
			}
			results = append(results, w)
			if !yield(res, nil) {
				return
			}
		}
		if f == nil {
			return
		}
		br.mu.Lock()
		defer br.mu.Unlock()
		if f, err = br.byID(id); err != nil {
			yield(provider.BatchResult{}, err)
			return
		}
		f.Results, f.Downloaded = results, true
		if werr := br.writeBatchFile(f); werr != nil {
			yield(provider.BatchResult{}, werr)
		}
	}
}

// CancelBatch asks the wrapped Batcher to cancel the batch and records
// that it did. In [Replay] a recorded batch is cancelled without a
// call, and an unknown one misses. In [RecordMissing] a batch whose
// recording ends done or cancelled is cancelled without a call (it is
// replayed, there is nothing left to cancel); any other is live, and the
// provider is asked.
func (br *batchRecorder) CancelBatch(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	br.mu.Lock()
	f, err := br.byID(id)
	br.mu.Unlock()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if f != nil && (br.mode == Replay || br.mode == RecordMissing && f.over()) {
		return nil
	}
	if br.mode == Replay {
		return br.batchMiss(idFile(id), fmt.Sprintf("no recording of batch %s", id))
	}
	// The provider is called without the lock, as in Batch.
	if err := br.b.CancelBatch(ctx, id); err != nil || f == nil {
		return err
	}
	br.mu.Lock()
	defer br.mu.Unlock()
	if f, err = br.byID(id); err != nil {
		return err
	}
	f.Canceled = true
	return br.writeBatchFile(f)
}

// FindBatch asks the wrapped Batcher when it is a [provider.BatchFinder],
// and reports no batch when it is not (the caller then submits again, as
// it would without FindBatch). Replaying, it reports no batch: keys are
// new in every run, and a submission is found by its requests instead.
func (br *batchRecorder) FindBatch(ctx context.Context, key string) (*provider.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if br.mode == Replay {
		return nil, nil
	}
	finder, ok := br.b.(provider.BatchFinder)
	if !ok {
		return nil, nil
	}
	return finder.FindBatch(ctx, key)
}
