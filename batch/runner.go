package batch

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"regexp"
	"sync"
	"time"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
)

// An Item is one run of the job: its ID, what to ask and the Enforcer that
// holds the reply to its schema.
type Item struct {
	// ID identifies the item in the job and its store: 1 to 56 characters
	// of [A-Za-z0-9_-], unique among the items.
	ID string
	// Request is what to ask, as enforce.Run takes it.
	Request enforce.Request
	// Enforcer is the schema and options for this item; nil means the
	// Runner's (see [WithEnforcer]).
	Enforcer *enforce.Enforcer
}

// Settled is the outcome of one item, as [enforce.Run] would have
// returned it: on success Result holds the JSON and every attempt; else Err
// is a [*enforce.ValidationError], an error matching enforce.ErrRefused,
// enforce.ErrTokenBudget, a provider's per-request error (errors.As
// *provider.Error), [ErrBatchFailed] or [ErrResubmits], with Result beside
// it once an attempt was made (nil before, as Run's).
//
// Read back from a store after a restart, Result.JSON, each attempt's JSON
// and the tool call arguments in requests and replies keep the model's
// bytes, but the other JSON values inside requests (schemas) come back
// compacted; Err has the same text and
// matches the same sentinels and typed errors, but no longer wraps the
// original values (an SDK's error inside a *provider.Error is gone).
type Settled struct {
	// ID is the item's ID.
	ID string
	// Result is the run's result; nil when no attempt was made.
	Result *enforce.Result
	// Err is why the item has no valid output; nil when it has.
	Err error
}

// DefaultPollInterval is the time between polls of the batches in flight
// when [WithPollInterval] is not given.
const DefaultPollInterval = 30 * time.Second

// DefaultMaxResubmits is how many times an attempt is submitted again
// without a reply when [WithMaxResubmits] is not given.
const DefaultMaxResubmits = 3

// DefaultStopTimeout is how long a run whose ctx ended may take to record
// in the store what it had handed out, when [WithStopTimeout] is not given.
const DefaultStopTimeout = 5 * time.Second

// saveChunk is how many item records one Save writes at most: a resumed
// run repeats no more than this many checks, and a SQL store's
// transactions stay short.
const saveChunk = 512

// maxIDLen is the longest item ID: a request ID adds '-' and the attempt
// number and must stay within the 64 characters providers accept.
const maxIDLen = 56

var validID = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// An Option configures a [Runner]. A bad value makes [New] fail with an
// error matching [ErrInvalidOption].
type Option func(*Runner) error

// WithEnforcer sets the Enforcer of the items that have none.
func WithEnforcer(e *enforce.Enforcer) Option {
	return func(r *Runner) error {
		if e == nil {
			return fmt.Errorf("%w: nil Enforcer", ErrInvalidOption)
		}
		r.enforcer = e
		return nil
	}
}

// WithPollInterval sets the time between polls of the batches in flight
// (default [DefaultPollInterval]); 0 polls again at once, which suits a
// scripted Batcher. A negative d is an error.
func WithPollInterval(d time.Duration) Option {
	return func(r *Runner) error {
		if d < 0 {
			return fmt.Errorf("%w: negative poll interval %v", ErrInvalidOption, d)
		}
		r.poll = d
		return nil
	}
}

// WithMaxResubmits sets how many times an attempt may be submitted again
// without being answered (default [DefaultMaxResubmits]): after its batch
// expired or was cancelled before it ran, failed as a whole, or left it
// out, or after a retryable per-request error (rate limited, overloaded).
// Resubmissions are not re-asks: they do not count against
// enforce.WithMaxRetries. A negative n is an error.
func WithMaxResubmits(n int) Option {
	return func(r *Runner) error {
		if n < 0 {
			return fmt.Errorf("%w: negative max resubmits %d", ErrInvalidOption, n)
		}
		r.maxResubmits = n
		return nil
	}
}

// WithStopTimeout sets how long [Runner.Run] may take, once its ctx has
// ended, to record in the store which outcomes it had handed out, so that
// a resumed run does not hand them out again, the results it had checked
// since its last write, so that it does not check them again, and the ID
// of a batch the provider created as ctx ended, so that the next run
// takes it up rather than submitting its requests again (default
// [DefaultStopTimeout]). 0 records nothing then: the next run hands those
// outcomes out and checks those results again, and finds that batch only
// through a [provider.BatchFinder]. A negative d is an error.
func WithStopTimeout(d time.Duration) Option {
	return func(r *Runner) error {
		if d < 0 {
			return fmt.Errorf("%w: negative stop timeout %v", ErrInvalidOption, d)
		}
		r.stopTimeout = d
		return nil
	}
}

// WithLogger sets the logger of the errors a run cannot hand to its
// caller: those that come after the caller stopped the loop (a store that
// fails to record what was handed out). A nil l is an error; without
// this option such errors are dropped, and the next run hands the
// outcomes out again.
func WithLogger(l *slog.Logger) Option {
	return func(r *Runner) error {
		if l == nil {
			return fmt.Errorf("%w: nil Logger", ErrInvalidOption)
		}
		r.logger = l
		return nil
	}
}

// A Runner enforces contracts over a provider's batch API: it submits the
// first attempt of every item as one batch (several under the provider's
// limits), polls them, checks every reply with the item's Enforcer, and
// submits the next round holding only the re-asks, until every item is
// valid or has spent its budget. Every step is recorded in its [Store]
// first, so a process killed at any point resumes with a new Runner over
// the same store without submitting an item twice or losing a result.
//
// A Runner is immutable after [New] and safe for concurrent use, but two
// runs over one store at the same time would submit the same items: run
// one job at a time per store.
type Runner struct {
	b            provider.Batcher
	store        Store
	enforcer     *enforce.Enforcer
	poll         time.Duration
	maxResubmits int
	stopTimeout  time.Duration
	logger       *slog.Logger
	// crash, set by tests only, is called at every step boundary; an
	// error ends the run there, as a killed process would end.
	crash func(point string) error
}

// New returns a Runner over b that keeps its state in store. It fails with
// an error matching [ErrInvalidOption] for a nil b or store or a bad
// option.
func New(b provider.Batcher, store Store, opts ...Option) (*Runner, error) {
	if b == nil {
		return nil, fmt.Errorf("%w: nil Batcher", ErrInvalidOption)
	}
	if store == nil {
		return nil, fmt.Errorf("%w: nil Store", ErrInvalidOption)
	}
	r := &Runner{b: b, store: store, poll: DefaultPollInterval, maxResubmits: DefaultMaxResubmits, stopTimeout: DefaultStopTimeout}
	for _, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: nil Option", ErrInvalidOption)
		}
		if err := o(r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Run runs items to the end and yields each item's outcome once it is
// settled in the store; a pair with a non-nil error and a zero Settled
// ends the sequence: the run stopped (ctx ended, the store or the
// provider failed) and can be resumed by calling Run again.
//
// Run resumes what the store holds: items settled but not yet handed out
// are yielded first, batches in flight are polled again, a batch recorded
// as intended but without the provider's ID is looked up by its key when
// the Batcher is a [provider.BatchFinder] (and submitted otherwise: a
// Batcher that cannot find batches may then run those requests twice,
// though each result is settled once). A batch SubmitBatch returns beside
// an error was created: its ID is written before the run stops with the
// error. Items already handed out are not
// handed out again; [Runner.Results] lists every outcome the store keeps.
// items must hold every item the store has pending (else
// [ErrUnknownItem]); items the store does not know yet are started.
//
// Delivery is at least once: an outcome is marked handed out after the
// loop body returns, in the next write to the store (or, when the run
// stops, in a last one), so an outcome whose mark a crash or a failing
// store lost is yielded again by the next run.
//
// Stopping the loop (break) or ending ctx stops this process only: the
// batches in flight keep running at the provider and the next run takes
// them up, so a shutdown loses no paid work. Ending ctx yields ctx's
// error once the marks of what was handed out are recorded (within
// [WithStopTimeout]). After the loop body returned false nothing more is
// yielded: an error then goes to the logger of [WithLogger]. To cancel
// the batches in flight, call [Runner.CancelBatches].
//
// Run calls the Enforcers' validators and hooks on the caller's goroutine
// and starts no goroutine.
func (r *Runner) Run(ctx context.Context, items []Item) iter.Seq2[Settled, error] {
	return func(yield func(Settled, error) bool) {
		ru := &run{r: r, yield: yield}
		err := ru.run(ctx, items)
		if err == errStopped {
			err = nil
		}
		if (err != nil || ru.stopped || ctx.Err() != nil) && !ru.crashed {
			// What was handed out is marked now, or handed out again by
			// the next run: a store that failed once may take the marks.
			err = errors.Join(err, ru.markDelivered(ctx))
		}
		switch {
		case err == nil:
		case ru.stopped:
			if r.logger != nil {
				r.logger.ErrorContext(context.WithoutCancel(ctx), "batch: run failed after its caller stopped", "err", err)
			}
		default:
			yield(Settled{}, err)
		}
	}
}

// cancelParallel is how many batches CancelBatches cancels at once.
const cancelParallel = 8

// CancelBatches asks the provider to cancel every batch the store has in
// flight, several at once, each with ctx (give it a deadline: a provider
// that does not answer for a batch is waited for until ctx ends, and the
// other batches are cancelled meanwhile). It is for abandoning a job's
// remote work; a shutdown does not need it. The items of the cancelled
// batches are submitted again by the next [Runner.Run], those that ran
// keep their replies. A batch recorded as intended but without the
// provider's ID is found by its key when the Batcher is a
// [provider.BatchFinder], and left alone otherwise. It returns the
// errors of the calls that failed, joined in the store's order; the
// others took effect. It must not run beside a Run over the same store.
// Its goroutines end before it returns.
func (r *Runner) CancelBatches(ctx context.Context) error {
	var recs []BatchRecord
	for rec, err := range r.store.Batches(ctx) {
		if err != nil {
			return fmt.Errorf("batch: load batches: %w", err)
		}
		recs = append(recs, rec)
	}
	errs := make([]error, len(recs))
	sem := make(chan struct{}, cancelParallel)
	var wg sync.WaitGroup
	for i, rec := range recs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			errs[i] = r.cancelBatch(ctx, rec)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// cancelBatch cancels the batch of rec, found by its key when it has no
// ID; a batch that cannot be found is left alone.
func (r *Runner) cancelBatch(ctx context.Context, rec BatchRecord) error {
	id := rec.ID
	if id == "" {
		finder, ok := r.b.(provider.BatchFinder)
		if !ok {
			return nil
		}
		found, err := finder.FindBatch(ctx, rec.Key)
		if err != nil {
			return fmt.Errorf("batch: find batch %s: %w", rec.Key, err)
		}
		if found == nil {
			return nil
		}
		id = found.ID
	}
	if err := r.b.CancelBatch(ctx, id); err != nil {
		return fmt.Errorf("batch: cancel %s: %w", id, err)
	}
	return nil
}

// Results yields the outcome of every settled item the store keeps,
// handed out or not, in the store's order, without marking anything. A
// store that drops delivered items' data ([MemoryOptions]) lists only
// those not delivered yet. An error ends the sequence. The store holds no
// cursor while the loop body runs.
func (r *Runner) Results(ctx context.Context) iter.Seq2[Settled, error] {
	return func(yield func(Settled, error) bool) {
		for rec, err := range r.store.Items(ctx, Filter{Statuses: []Status{StatusSettled, StatusDelivered}}) {
			if err != nil {
				yield(Settled{}, err)
				return
			}
			if len(rec.Data) == 0 {
				continue // delivered, and dropped by the store
			}
			it, err := readItem(rec)
			var s Settled
			if err == nil {
				s, err = it.settled(rec.ID)
			}
			if err != nil {
				yield(Settled{}, &CorruptRecordError{ID: rec.ID, Err: err})
				return
			}
			if !yield(s, nil) {
				return
			}
		}
	}
}
