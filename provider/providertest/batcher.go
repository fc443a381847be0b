package providertest

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentio/agentio/provider"
)

// A Script answers the requests of a [Batcher]'s batches: it returns the
// reply to the n-th request (n counting from 0) of item that runs. item is
// the request's ID up to its last '-' ("doc7" for "doc7-2", the ID package
// batch gives attempt 2 of item "doc7"), or the whole ID when it has no
// '-'; n counts the requests of that item that ran before, so a request
// that never ran (its batch expired, was cancelled or failed first) does
// not use a reply. A reply with Err becomes that request's error.
//
// Script is called with the Batcher's lock held: it must not call the
// Batcher.
type Script func(item string, n int) Reply

// Replies returns a Script that serves replies[item] in order. An item with
// no reply left, or none at all, gets a failed reply whose error is an
// [*ExhaustedError]. The map is not copied: do not change it while the
// Batcher runs.
func Replies(replies map[string][]Reply) Script {
	return func(item string, n int) Reply {
		rs := replies[item]
		if n >= len(rs) {
			return Failed(&ExhaustedError{Call: n + 1, Scripted: len(rs)})
		}
		return rs[n]
	}
}

// A BatchFault scripts how one submitted batch goes wrong (see
// BatcherOptions.Faults). The zero BatchFault is a batch that ends
// normally after BatcherOptions.Polls polls.
type BatchFault struct {
	// Reject, when not nil, makes SubmitBatch fail with it: no batch is
	// created and no reply used.
	Reject error
	// Polls, when not 0, is how many polls the batch stays in progress,
	// instead of BatcherOptions.Polls.
	Polls int
	// Status is how the batch ends: provider.BatchExpired,
	// provider.BatchCanceled or provider.BatchFailed; empty means
	// provider.BatchEnded.
	Status provider.BatchStatus
	// Ran is how many of an expired or cancelled batch's requests ran
	// before it ended: the first Ran, in the order submitted. The others
	// are left out of its results, or with Report returned with an error
	// matching provider.ErrExpired or provider.ErrCanceled.
	Ran int
	// Report returns the requests that did not run with an error, instead
	// of leaving them out.
	Report bool
	// Err is the Batch.Err of a failed batch; nil means a generic
	// *provider.Error of kind provider.ErrInvalidRequest.
	Err error
}

// A BatchOp names a step of a [Batcher] that BatcherOptions.Hook can fail.
type BatchOp string

// The steps a hook sees.
const (
	// OpSubmit: SubmitBatch was called; failing it creates no batch.
	OpSubmit BatchOp = "submit"
	// OpSubmitted: SubmitBatch created the batch; failing it returns the
	// error although the batch exists, as a connection lost before the
	// answer would.
	OpSubmitted BatchOp = "submitted"
	// OpPoll: Batch was called.
	OpPoll BatchOp = "poll"
	// OpResult: BatchResults is about to yield result N (from 0); failing
	// it ends the download there.
	OpResult BatchOp = "result"
	// OpCancel: CancelBatch was called.
	OpCancel BatchOp = "cancel"
	// OpFind: FindBatch was called.
	OpFind BatchOp = "find"
)

// A BatchEvent is one step of a [Batcher], as BatcherOptions.Hook sees it.
type BatchEvent struct {
	// Op is the step.
	Op BatchOp
	// Key is the batch's key (empty when unknown, as in OpPoll of an
	// unknown batch).
	Key string
	// Batch is the batch's ID; empty in OpSubmit and OpFind.
	Batch string
	// N is the index of the result in OpResult; 0 otherwise.
	N int
}

// BatcherOptions configure [NewBatcher]. The zero value is a text-only
// provider without batch limits whose batches end at their first poll.
type BatcherOptions struct {
	// Capabilities are what the Batcher reports.
	Capabilities provider.Capabilities
	// Limits are the BatchLimits it reports and enforces.
	Limits provider.BatchLimits
	// Polls is how many polls every batch stays in progress before it
	// ends; 0 ends it at its first poll.
	Polls int
	// Faults script the batches by their submission number, counting
	// the calls of SubmitBatch from 1 (rejected ones included).
	Faults map[int]BatchFault
	// Hook, when not nil, is called at each step (see [BatchOp]); an
	// error it returns makes that step fail with it. It is called
	// without the Batcher's lock, and may be called concurrently.
	Hook func(BatchEvent) error
	// KeepRequests records a deep copy of every request submitted, for
	// [Batcher.Submissions]. Without it only the IDs are kept, which is
	// what a test of 100,000 items can afford.
	KeepRequests bool
}

// A Submission records one call of [Batcher.SubmitBatch].
type Submission struct {
	// Key is the key it was submitted with.
	Key string
	// Batch is the ID of the batch created; empty when it was rejected.
	Batch string
	// IDs are the requests' IDs, in the order submitted.
	IDs []string
	// Requests are deep copies of the requests, in the same order, when
	// BatcherOptions.KeepRequests is set; nil otherwise.
	Requests []*provider.Request
	// Err is why SubmitBatch failed; nil when it did not.
	Err error
}

// A Batcher is a scripted [provider.BatchFinder]: its batches end after a
// scripted number of polls, each request answered by a [Script], and it
// goes wrong as [BatchFault]s and a hook say. It records every
// submission. Generate answers a request as item "" of the same Script.
// Tool calls without an ID are given one ("call_1", "call_2", ...
// numbered across the Batcher's results), as a [Provider]'s are.
//
// To test code with a Batcher that cannot find batches by key, hide the
// method: struct{ provider.Batcher }{b}.
//
// A Batcher is safe for concurrent use. It keeps a batch's request IDs
// and, once it has ended, its results (not its requests), so that it can
// run 100,000 items.
type Batcher struct {
	script Script
	opts   BatcherOptions

	mu          sync.Mutex
	batches     map[string]*scriptedBatch
	order       []string // batch IDs in submission order
	submissions []Submission
	ran         map[string]int // item -> requests that ran
	generated   int
	callIDs     int
}

// scriptedBatch is one submitted batch.
type scriptedBatch struct {
	batch   provider.Batch
	key     string
	ids     []string
	fault   BatchFault
	polls   int
	cancel  bool
	results []provider.BatchResult
}

var _ provider.BatchFinder = (*Batcher)(nil)

// NewBatcher returns a Batcher that answers with script. opts may be nil;
// it is copied (the Faults map too). A nil script answers every request
// with a failed reply whose error is an [*ExhaustedError].
func NewBatcher(script Script, opts *BatcherOptions) *Batcher {
	var o BatcherOptions
	if opts != nil {
		o = *opts
		o.Faults = make(map[int]BatchFault, len(opts.Faults))
		for k, v := range opts.Faults {
			o.Faults[k] = v
		}
	}
	if script == nil {
		script = Replies(nil)
	}
	return &Batcher{script: script, opts: o, batches: map[string]*scriptedBatch{}, ran: map[string]int{}}
}

// Item returns the item a request ID stands for in a [Script]: id up to
// its last '-', or id when it has none.
func Item(id string) string {
	if i := strings.LastIndexByte(id, '-'); i >= 0 {
		return id[:i]
	}
	return id
}

// Generate answers req with the Script's next reply for item "".
func (b *Batcher) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b.mu.Lock()
	r := b.script("", b.generated)
	b.generated++
	b.mu.Unlock()
	if r.Err != nil {
		return nil, r.Err
	}
	return response(r), nil
}

// Capabilities returns BatcherOptions.Capabilities.
func (b *Batcher) Capabilities() provider.Capabilities { return b.opts.Capabilities }

// BatchLimits returns BatcherOptions.Limits.
func (b *Batcher) BatchLimits() provider.BatchLimits { return b.opts.Limits }

// BatchRequestSize returns the size r counts for against
// BatchLimits.MaxBytes: 64 bytes of framing plus the lengths of its ID,
// system prompt, messages (content, tool calls), output schema and tools.
// A request without an ID or Request fails with an error matching
// provider.ErrInvalidRequest.
func (b *Batcher) BatchRequestSize(r provider.BatchRequest) (int, error) {
	if r.ID == "" || r.Request == nil {
		return 0, invalid("a batch request needs an ID and a request")
	}
	q := r.Request
	n := 64 + len(r.ID) + len(q.System)
	for _, m := range q.Messages {
		n += 16 + len(m.Content) + len(m.ToolCallID)
		for _, tc := range m.ToolCalls {
			n += len(tc.ID) + len(tc.Name) + len(tc.Arguments)
		}
	}
	if q.Output != nil {
		n += len(q.Output.Name) + len(q.Output.Schema)
	}
	for _, t := range q.Tools {
		n += len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	return n, nil
}

// invalid returns a *provider.Error of kind ErrInvalidRequest.
func invalid(msg string) error {
	return &provider.Error{Kind: provider.ErrInvalidRequest, Provider: "providertest", Message: msg}
}

// hook calls the hook, if any.
func (b *Batcher) hook(e BatchEvent) error {
	if b.opts.Hook == nil {
		return nil
	}
	return b.opts.Hook(e)
}

// SubmitBatch checks reqs as a provider would (not empty, IDs present and
// unique, within the limits), records the submission and creates the
// batch, in progress. It fails with the fault's Reject or the hook's
// error, or with an error matching provider.ErrInvalidRequest.
func (b *Batcher) SubmitBatch(ctx context.Context, key string, reqs []provider.BatchRequest) (*provider.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sub := Submission{Key: key, IDs: make([]string, len(reqs))}
	for i, r := range reqs {
		sub.IDs[i] = r.ID
	}
	if b.opts.KeepRequests {
		sub.Requests = make([]*provider.Request, len(reqs))
		for i, r := range reqs {
			if r.Request != nil {
				sub.Requests[i] = r.Request.Clone()
			}
		}
	}
	err := b.hook(BatchEvent{Op: OpSubmit, Key: key})
	if err == nil {
		err = b.check(reqs)
	}
	b.mu.Lock()
	n := len(b.submissions) + 1
	fault := b.opts.Faults[n]
	if err == nil {
		err = fault.Reject
	}
	if err != nil {
		sub.Err = err
		b.submissions = append(b.submissions, sub)
		b.mu.Unlock()
		return nil, err
	}
	id := "batch_" + strconv.Itoa(n)
	sb := &scriptedBatch{key: key, ids: sub.IDs, fault: fault, batch: provider.Batch{
		ID: id, Status: provider.BatchInProgress, RawStatus: "in_progress",
		Counts:    provider.BatchCounts{Total: len(reqs), Processing: len(reqs)},
		CreatedAt: time.Unix(int64(n), 0).UTC(),
	}}
	b.batches[id] = sb
	b.order = append(b.order, id)
	sub.Batch = id
	b.submissions = append(b.submissions, sub)
	out := sb.batch
	b.mu.Unlock()
	if err := b.hook(BatchEvent{Op: OpSubmitted, Key: key, Batch: id}); err != nil {
		return nil, err
	}
	return &out, nil
}

// check validates a submission.
func (b *Batcher) check(reqs []provider.BatchRequest) error {
	if err := provider.CheckBatch(reqs, b.opts.Limits); err != nil {
		err.Provider = "providertest"
		return err
	}
	size := 0
	for _, r := range reqs {
		n, err := b.BatchRequestSize(r)
		if err != nil {
			return err
		}
		size += n
	}
	if max := b.opts.Limits.MaxBytes; max > 0 && size > max {
		return invalid(fmt.Sprintf("%d bytes in a batch of at most %d", size, max))
	}
	return nil
}

// Batch polls the batch: it stays in progress for its scripted polls, then
// ends as its fault says, its requests answered by the Script.
func (b *Batcher) Batch(ctx context.Context, id string) (*provider.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sb, key, ok := b.lookup(id)
	if err := b.hook(BatchEvent{Op: OpPoll, Key: key, Batch: id}); err != nil {
		return nil, err
	}
	if !ok {
		return nil, invalid(fmt.Sprintf("no batch %q", id))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !sb.batch.Status.Done() {
		sb.polls++
		polls := b.opts.Polls
		if sb.fault.Polls != 0 {
			polls = sb.fault.Polls
		}
		if sb.cancel || sb.polls > polls {
			b.finish(sb)
		}
	}
	out := sb.batch
	return &out, nil
}

// finish ends sb: it runs the requests its fault lets run and sets its
// status, counts and results. It is called with the lock held.
func (b *Batcher) finish(sb *scriptedBatch) {
	status := sb.fault.Status
	if status == "" {
		status = provider.BatchEnded
	}
	ran := len(sb.ids)
	switch {
	case sb.cancel:
		// Cancelled before it ended: what ran is what the fault lets run
		// (none by default).
		status = provider.BatchCanceled
		ran = 0
		if sb.fault.Status == provider.BatchExpired || sb.fault.Status == provider.BatchCanceled {
			ran = sb.fault.Ran
		}
	case status == provider.BatchFailed:
		ran = 0
		sb.batch.Err = sb.fault.Err
		if sb.batch.Err == nil {
			sb.batch.Err = invalid("the batch failed validation")
		}
	case status == provider.BatchExpired || status == provider.BatchCanceled:
		ran = sb.fault.Ran
	}
	ran = min(max(ran, 0), len(sb.ids))
	c := provider.BatchCounts{Total: len(sb.ids)}
	if status != provider.BatchFailed {
		sb.results = make([]provider.BatchResult, 0, len(sb.ids))
	}
	for i, id := range sb.ids {
		if i >= ran {
			if status == provider.BatchFailed {
				continue
			}
			c.Failed++
			if sb.fault.Report {
				kind := provider.ErrExpired
				if status == provider.BatchCanceled {
					kind = provider.ErrCanceled
				}
				sb.results = append(sb.results, provider.BatchResult{ID: id, Err: &provider.Error{Kind: kind, Provider: "providertest", Message: "the request did not run"}})
			}
			continue
		}
		item := Item(id)
		r := b.script(item, b.ran[item])
		b.ran[item]++
		if r.Err != nil {
			c.Failed++
			sb.results = append(sb.results, provider.BatchResult{ID: id, Err: r.Err})
			continue
		}
		c.Succeeded++
		resp := response(r)
		for j := range resp.ToolCalls {
			if resp.ToolCalls[j].ID == "" {
				b.callIDs++
				resp.ToolCalls[j].ID = "call_" + strconv.Itoa(b.callIDs)
			}
		}
		sb.results = append(sb.results, provider.BatchResult{ID: id, Response: resp})
	}
	sb.batch.Status, sb.batch.RawStatus, sb.batch.Counts = status, string(status), c
}

// BatchResults yields the results of a batch that is done, in the order
// submitted; each Response is a fresh copy. It fails with an error
// matching provider.ErrBatchNotDone for a batch in progress, or
// provider.ErrInvalidRequest for an unknown one, and ends with the hook's
// error when the hook fails an OpResult.
func (b *Batcher) BatchResults(ctx context.Context, id string) iter.Seq2[provider.BatchResult, error] {
	return func(yield func(provider.BatchResult, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(provider.BatchResult{}, err)
			return
		}
		b.mu.Lock()
		sb, ok := b.batches[id]
		var results []provider.BatchResult
		done := ok && sb.batch.Status.Done()
		if done {
			results = sb.results
		}
		b.mu.Unlock()
		switch {
		case !ok:
			yield(provider.BatchResult{}, invalid(fmt.Sprintf("no batch %q", id)))
			return
		case !done:
			yield(provider.BatchResult{}, fmt.Errorf("%w: %s", provider.ErrBatchNotDone, id))
			return
		}
		for i, r := range results {
			if err := ctx.Err(); err != nil {
				yield(provider.BatchResult{}, err)
				return
			}
			if err := b.hook(BatchEvent{Op: OpResult, Key: sb.key, Batch: id, N: i}); err != nil {
				yield(provider.BatchResult{}, err)
				return
			}
			if r.Response != nil {
				r.Response = r.Response.Clone()
			}
			if !yield(r, nil) {
				return
			}
		}
	}
}

// lookup returns the batch id names and its key.
func (b *Batcher) lookup(id string) (sb *scriptedBatch, key string, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	sb, ok = b.batches[id]
	if ok {
		key = sb.key
	}
	return sb, key, ok
}

// CancelBatch marks the batch to end as cancelled at its next poll. A
// batch that is done is left as it is.
func (b *Batcher) CancelBatch(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	sb, key, ok := b.lookup(id)
	if err := b.hook(BatchEvent{Op: OpCancel, Key: key, Batch: id}); err != nil {
		return err
	}
	if !ok {
		return invalid(fmt.Sprintf("no batch %q", id))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !sb.batch.Status.Done() {
		sb.cancel = true
	}
	return nil
}

// FindBatch returns the batch last submitted with key, or nil.
func (b *Batcher) FindBatch(ctx context.Context, key string) (*provider.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := b.hook(BatchEvent{Op: OpFind, Key: key}); err != nil {
		return nil, err
	}
	if key == "" {
		return nil, invalid("an empty key")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.order) - 1; i >= 0; i-- {
		if sb := b.batches[b.order[i]]; sb.key == key {
			out := sb.batch
			return &out, nil
		}
	}
	return nil, nil
}

// Submissions returns every call of SubmitBatch so far, oldest first,
// rejected ones included. The caller owns the copy; requests are shared
// with the Batcher, treat them as read-only.
func (b *Batcher) Submissions() []Submission {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.submissions)
}

// Submitted returns how many requests with each ID were accepted in a
// batch, over every submission: a test that nothing was submitted twice
// checks that no count is above 1.
func (b *Batcher) Submitted() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]int{}
	for _, s := range b.submissions {
		if s.Err != nil {
			continue
		}
		for _, id := range s.IDs {
			out[id]++
		}
	}
	return out
}

// Canceled returns the IDs of the batches CancelBatch cancelled before
// they ended, in submission order.
func (b *Batcher) Canceled() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, id := range b.order {
		if b.batches[id].cancel {
			out = append(out, id)
		}
	}
	return out
}
