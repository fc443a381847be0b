package batch

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
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
// Read back from a store after a restart, Result.JSON keeps the model's
// bytes, but the JSON values inside Attempts (their JSON, tool call
// arguments, schemas) come back compacted; Err has the same text and
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
// ended, to record in the store which outcomes it had handed out (default
// [DefaultStopTimeout]), so that a resumed run does not hand them out
// again. 0 records nothing then: the next run hands those outcomes out
// again. A negative d is an error.
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
// though each result is settled once). Items already handed out are not
// handed out again; [Runner.Results] lists every outcome the store keeps.
// items must hold every item the store has pending (else
// [ErrUnknownItem]); items the store does not know yet are started.
//
// Delivery is at least once: an outcome is marked handed out after the
// loop body returns, in the next write to the store, so an outcome whose
// mark a crash lost is yielded again by the next run.
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
		if ru.stopped || ctx.Err() != nil {
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

// CancelBatches asks the provider to cancel every batch the store has in
// flight, each with ctx (give it a deadline: a provider that does not
// answer is waited for until ctx ends). It is for abandoning a job's
// remote work; a shutdown does not need it. The items of the cancelled
// batches are submitted again by the next [Runner.Run], those that ran
// keep their replies. A batch recorded as intended but without the
// provider's ID is found by its key when the Batcher is a
// [provider.BatchFinder], and left alone otherwise. It returns the
// errors of the calls that failed, joined; the others took effect. It
// must not run beside a Run over the same store.
func (r *Runner) CancelBatches(ctx context.Context) error {
	recs, err := r.store.Batches(ctx)
	if err != nil {
		return fmt.Errorf("batch: load batches: %w", err)
	}
	var errs []error
	for _, rec := range recs {
		id := rec.ID
		if id == "" {
			finder, ok := r.b.(provider.BatchFinder)
			if !ok {
				continue
			}
			found, err := finder.FindBatch(ctx, rec.Key)
			if err != nil {
				errs = append(errs, fmt.Errorf("batch: find batch %s: %w", rec.Key, err))
				continue
			}
			if found == nil {
				continue
			}
			id = found.ID
		}
		if err := r.b.CancelBatch(ctx, id); err != nil {
			errs = append(errs, fmt.Errorf("batch: cancel %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// Results yields the outcome of every settled item the store keeps,
// handed out or not, in the store's order, without marking anything. A
// store that drops delivered items' data ([MemoryOptions]) lists only
// those not delivered yet. An error ends the sequence.
func (r *Runner) Results(ctx context.Context) iter.Seq2[Settled, error] {
	return func(yield func(Settled, error) bool) {
		for rec, err := range r.store.Items(ctx) {
			if err != nil {
				yield(Settled{}, err)
				return
			}
			if rec.Status == StatusPending || len(rec.Data) == 0 {
				continue
			}
			d, err := decodeData(rec.Data, rec.Status)
			var s Settled
			if err == nil {
				s, err = d.settled(rec.ID)
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

// errStopped ends a run whose caller stopped the iteration.
var errStopped = errors.New("batch: stopped by the caller")

// A run is one call of Runner.Run.
type run struct {
	r     *Runner
	yield func(Settled, error) bool

	items     map[string]*Item
	order     []string          // item IDs in the caller's order
	entries   map[string]*entry // pending items
	open      []*inFlight       // batches in flight
	round     int
	caps      provider.Capabilities
	delivered []string // handed out, to be marked at the next save
	stopped   bool     // the loop body returned false: yield no more
}

// An entry is a pending item in memory.
type entry struct {
	id        string
	e         *enforce.Enforcer
	attempt   int
	st        enforce.State
	resubmits int
	first     *provider.Request
	next      *provider.Request
	attempts  []enforce.Attempt
	text      string // the output of the last checked attempt
	batch     string // key of the batch in flight holding it; "" when none
}

// An inFlight batch: its record and the provider's view.
type inFlight struct {
	rec BatchRecord
}

// point is a step boundary, where a test may crash the run.
func (ru *run) point(name string) error {
	if ru.r.crash == nil {
		return nil
	}
	return ru.r.crash(name)
}

// save writes c with the pending delivery marks.
func (ru *run) save(ctx context.Context, c Change) error {
	c.Delivered = append(c.Delivered, ru.delivered...)
	if c.empty() {
		return nil
	}
	if err := ru.point("before save"); err != nil {
		return err
	}
	if err := ru.r.store.Save(ctx, c); err != nil {
		return fmt.Errorf("batch: save: %w", err)
	}
	ru.delivered = ru.delivered[:0]
	return ru.point("after save")
}

// deliver yields settled outcomes, which the store already holds.
func (ru *run) deliver(ctx context.Context, out []Settled) error {
	for _, s := range out {
		ok := ru.yield(s, nil)
		ru.delivered = append(ru.delivered, s.ID)
		if !ok {
			ru.stopped = true
			return errStopped
		}
		if err := ru.point("delivered"); err != nil {
			return err
		}
	}
	return nil
}

// markDelivered records the marks of what was handed out, after the run
// stopped: with ctx while it lasts, else with a context detached from it
// and bounded by the stop timeout.
func (ru *run) markDelivered(ctx context.Context) error {
	if len(ru.delivered) == 0 {
		return nil
	}
	if ctx.Err() != nil {
		if ru.r.stopTimeout == 0 {
			return nil
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), ru.r.stopTimeout)
		defer cancel()
	}
	if err := ru.r.store.Save(ctx, Change{Delivered: ru.delivered}); err != nil {
		return fmt.Errorf("batch: save: %w", err)
	}
	ru.delivered = ru.delivered[:0]
	return nil
}

// run is the whole run: load, start, resume, then rounds until done.
func (ru *run) run(ctx context.Context, items []Item) error {
	if err := ru.index(items); err != nil {
		return err
	}
	ru.caps = ru.r.b.Capabilities()
	known, settled, err := ru.load(ctx)
	if err != nil {
		return err
	}
	if err := ru.deliver(ctx, settled); err != nil {
		return err
	}
	if err := ru.start(ctx, known); err != nil {
		return err
	}
	if err := ru.resume(ctx); err != nil {
		return err
	}
	for {
		if len(ru.open) == 0 {
			ready := ru.ready()
			if len(ready) == 0 {
				return ru.save(ctx, Change{})
			}
			ru.round++
			if err := ru.submitRound(ctx, ready); err != nil {
				return err
			}
			continue
		}
		progressed, err := ru.pollAll(ctx)
		if err != nil {
			return err
		}
		if !progressed {
			if err := ru.wait(ctx); err != nil {
				return err
			}
		}
	}
}

// index checks the items and indexes them by ID.
func (ru *run) index(items []Item) error {
	ru.items = make(map[string]*Item, len(items))
	ru.order = make([]string, 0, len(items))
	ru.entries = map[string]*entry{}
	for i := range items {
		it := &items[i]
		switch {
		case it.ID == "" || len(it.ID) > maxIDLen || !validID.MatchString(it.ID):
			return fmt.Errorf("%w: ID %q: 1 to %d characters of [A-Za-z0-9_-]", ErrInvalidItem, it.ID, maxIDLen)
		case it.Enforcer == nil && ru.r.enforcer == nil:
			return fmt.Errorf("%w: %s: no Enforcer (give the item one or the Runner WithEnforcer)", ErrInvalidItem, it.ID)
		}
		if _, dup := ru.items[it.ID]; dup {
			return fmt.Errorf("%w: ID %q repeated", ErrInvalidItem, it.ID)
		}
		ru.items[it.ID] = it
		ru.order = append(ru.order, it.ID)
	}
	return nil
}

// enforcer returns the Enforcer of item id.
func (ru *run) enforcer(id string) *enforce.Enforcer {
	if e := ru.items[id].Enforcer; e != nil {
		return e
	}
	return ru.r.enforcer
}

// load reads the store: the pending items become entries; it returns the
// IDs the store knows and the outcomes settled but not handed out.
func (ru *run) load(ctx context.Context) (map[string]struct{}, []Settled, error) {
	known := map[string]struct{}{}
	var settled []Settled
	for rec, err := range ru.r.store.Items(ctx) {
		if err != nil {
			return nil, nil, fmt.Errorf("batch: load items: %w", err)
		}
		known[rec.ID] = struct{}{}
		switch rec.Status {
		case StatusDelivered:
			continue
		case StatusPending:
			if _, ok := ru.items[rec.ID]; !ok {
				return nil, nil, fmt.Errorf("%w: %s", ErrUnknownItem, rec.ID)
			}
		}
		d, err := decodeData(rec.Data, rec.Status)
		if err != nil {
			return nil, nil, &CorruptRecordError{ID: rec.ID, Err: err}
		}
		if rec.Status == StatusSettled {
			s, err := d.settled(rec.ID)
			if err != nil {
				return nil, nil, &CorruptRecordError{ID: rec.ID, Err: err}
			}
			settled = append(settled, s)
			continue
		}
		ru.entries[rec.ID] = &entry{
			id: rec.ID, e: ru.enforcer(rec.ID), attempt: rec.Attempt, st: d.State, resubmits: d.Resubmits,
			first: d.First, next: d.Next, attempts: d.attempts(), text: d.Text,
		}
	}
	return known, settled, nil
}

// pending is a change to the store and the outcomes it settles, written
// and then handed out together by flush.
type pending struct {
	c   Change
	out []Settled
}

// flush writes p's change, then hands out its outcomes, and empties p.
func (ru *run) flush(ctx context.Context, p *pending) error {
	if err := ru.save(ctx, p.c); err != nil {
		return err
	}
	p.c = Change{}
	err := ru.deliver(ctx, p.out)
	p.out = p.out[:0]
	return err
}

// start starts the items the store does not know: each gets its first
// request, or is settled at once when it cannot be sent.
func (ru *run) start(ctx context.Context, known map[string]struct{}) error {
	var p pending
	for _, id := range ru.order {
		if _, ok := known[id]; ok {
			continue
		}
		e := ru.enforcer(id)
		first, st, err := e.Start(ru.items[id].Request, ru.caps)
		var sent *provider.Request
		if err == nil {
			sent, err = e.WithinBudget(st, enforce.Verdict{}, first)
		}
		if err != nil {
			rec, s, rerr := settledRecord(id, 0, nil, err, true)
			if rerr != nil {
				return rerr
			}
			p.c.Items = append(p.c.Items, rec)
			p.out = append(p.out, s)
		} else {
			en := &entry{id: id, e: e, attempt: 1, st: st, first: first, next: sent}
			rec, err := en.record()
			if err != nil {
				return err
			}
			ru.entries[id] = en
			p.c.Items = append(p.c.Items, rec)
		}
		if len(p.c.Items) >= saveChunk {
			if err := ru.flush(ctx, &p); err != nil {
				return err
			}
		}
	}
	return ru.flush(ctx, &p)
}

// record returns the entry's pending record.
func (en *entry) record() (Record, error) {
	d := &itemData{State: en.st, Resubmits: en.resubmits, First: en.first, Text: en.text, Attempts: storeAttempts(en.attempts)}
	if en.next != en.first {
		d.Next = en.next
	}
	data, err := encodeData(d)
	if err != nil {
		return Record{}, err
	}
	return Record{ID: en.id, Status: StatusPending, Attempt: en.attempt, Data: data}, nil
}

// settledRecord returns the record and the outcome of an item settled with
// res and err. With noResult the outcome has no Result (nothing was
// attempted).
func settledRecord(id string, attempt int, res *enforce.Result, err error, noResult bool) (Record, Settled, error) {
	o := &storedOutcome{Error: storeError(err)}
	d := &itemData{Outcome: o}
	if res != nil && !noResult {
		o.Text, o.Usage, o.Mode, o.Coercions, o.Started = res.Text, res.Usage, res.Mode, res.Coercions, true
		if res.JSON != nil {
			j := string(res.JSON)
			o.JSON = &j
		}
		d.Attempts = storeAttempts(res.Attempts)
		d.State.Attempts = len(res.Attempts)
	}
	data, encErr := encodeData(d)
	if encErr != nil {
		return Record{}, Settled{}, encErr
	}
	s := Settled{ID: id, Err: err}
	if !noResult {
		s.Result = res
	}
	return Record{ID: id, Status: StatusSettled, Attempt: attempt, Data: data}, s, nil
}

// resume takes up the batches the store has open.
func (ru *run) resume(ctx context.Context) error {
	recs, err := ru.r.store.Batches(ctx)
	if err != nil {
		return fmt.Errorf("batch: load batches: %w", err)
	}
	for _, rec := range recs {
		ru.round = max(ru.round, rec.Round)
		var members []*entry
		for _, rid := range rec.Requests {
			if en := ru.member(rid, ""); en != nil && en.batch == "" {
				en.batch = rec.Key
				members = append(members, en)
			}
		}
		if len(members) == 0 {
			// Every request of it was settled before the crash.
			if err := ru.save(ctx, Change{Closed: []string{rec.Key}}); err != nil {
				return err
			}
			continue
		}
		f := &inFlight{rec: rec}
		ru.open = append(ru.open, f)
		if rec.ID != "" {
			continue
		}
		if finder, ok := ru.r.b.(provider.BatchFinder); ok {
			found, err := finder.FindBatch(ctx, rec.Key)
			if err != nil {
				return fmt.Errorf("batch: find batch %s: %w", rec.Key, err)
			}
			if found != nil {
				f.rec.ID = found.ID
				if err := ru.save(ctx, Change{Batches: []BatchRecord{f.rec}}); err != nil {
					return err
				}
				continue
			}
		}
		if err := ru.submit(ctx, f, members); err != nil {
			return err
		}
	}
	return nil
}

// member returns the pending entry a request ID names, when it waits for
// that attempt (and, unless key is empty, is in the batch of that key).
func (ru *run) member(requestID, key string) *entry {
	id, attempt, ok := parseRequestID(requestID)
	if !ok {
		return nil
	}
	en := ru.entries[id]
	if en == nil || en.attempt != attempt || (key != "" && en.batch != key) {
		return nil
	}
	return en
}

// requestID returns the ID of an item's attempt in a batch.
func requestID(id string, attempt int) string { return id + "-" + strconv.Itoa(attempt) }

// parseRequestID splits a request ID into the item's ID and the attempt.
func parseRequestID(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n <= 0 || strings.HasPrefix(s[i+1:], "+") {
		return "", 0, false
	}
	return s[:i], n, true
}

// ready returns the pending items in no batch, in the caller's order.
func (ru *run) ready() []*entry {
	var out []*entry
	for _, id := range ru.order {
		if en := ru.entries[id]; en != nil && en.batch == "" {
			out = append(out, en)
		}
	}
	return out
}

// submitRound submits ready as one round: as many batches as the limits
// make it.
func (ru *run) submitRound(ctx context.Context, ready []*entry) error {
	limits := ru.r.b.BatchLimits()
	var c Change
	var out []Settled
	var chunk []*entry
	size := 0
	flushChunk := func() error {
		if len(chunk) == 0 {
			return nil
		}
		f := &inFlight{rec: BatchRecord{Key: newKey(ru.round, len(ru.open)+1), Round: ru.round, Requests: make([]string, len(chunk))}}
		for i, en := range chunk {
			f.rec.Requests[i] = requestID(en.id, en.attempt)
		}
		// The intent first: a crash from here on finds the batch by key.
		if err := ru.save(ctx, Change{Batches: []BatchRecord{f.rec}}); err != nil {
			return err
		}
		for _, en := range chunk {
			en.batch = f.rec.Key
		}
		ru.open = append(ru.open, f)
		err := ru.submit(ctx, f, chunk)
		chunk, size = nil, 0
		return err
	}
	for _, en := range ready {
		n := 0
		if limits.MaxBytes > 0 {
			var err error
			n, err = ru.r.b.BatchRequestSize(provider.BatchRequest{ID: requestID(en.id, en.attempt), Request: en.next})
			if err == nil && n > limits.MaxBytes {
				err = &provider.Error{Kind: provider.ErrorInvalidRequest, Provider: "batch",
					Message: fmt.Sprintf("a request of %d bytes does not fit in a batch of at most %d", n, limits.MaxBytes)}
			}
			if err != nil {
				rec, s, rerr := ru.providerFailure(en, err)
				if rerr != nil {
					return rerr
				}
				c.Items = append(c.Items, rec)
				out = append(out, s)
				continue
			}
		}
		if (limits.MaxRequests > 0 && len(chunk) >= limits.MaxRequests) || (limits.MaxBytes > 0 && size+n > limits.MaxBytes) {
			if err := flushChunk(); err != nil {
				return err
			}
		}
		chunk = append(chunk, en)
		size += n
	}
	if err := flushChunk(); err != nil {
		return err
	}
	if err := ru.save(ctx, c); err != nil {
		return err
	}
	return ru.deliver(ctx, out)
}

// newKey returns a new batch key: random, so that no key of an earlier
// run is found by mistake.
func newKey(round, n int) string {
	return fmt.Sprintf("agentio-%s-r%d-%d", strings.ToLower(rand.Text()[:16]), round, n)
}

// submit submits f's members under f's key and records the batch's ID.
func (ru *run) submit(ctx context.Context, f *inFlight, members []*entry) error {
	reqs := make([]provider.BatchRequest, len(members))
	for i, en := range members {
		reqs[i] = provider.BatchRequest{ID: requestID(en.id, en.attempt), Request: en.next}
	}
	b, err := ru.r.b.SubmitBatch(ctx, f.rec.Key, reqs)
	if err != nil {
		return fmt.Errorf("batch: submit %s (%d requests): %w", f.rec.Key, len(reqs), err)
	}
	if err := ru.point("submitted"); err != nil {
		return err
	}
	f.rec.ID = b.ID
	return ru.save(ctx, Change{Batches: []BatchRecord{f.rec}})
}

// wait waits the poll interval, or until ctx ends.
func (ru *run) wait(ctx context.Context) error {
	if ru.r.poll == 0 {
		return ctx.Err()
	}
	t := time.NewTimer(ru.r.poll)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// pollAll polls every batch in flight and settles those that are done. It
// reports whether any was.
func (ru *run) pollAll(ctx context.Context) (bool, error) {
	progressed := false
	for i := 0; i < len(ru.open); {
		f := ru.open[i]
		b, err := ru.r.b.Batch(ctx, f.rec.ID)
		if err != nil {
			return false, fmt.Errorf("batch: poll %s: %w", f.rec.ID, err)
		}
		if err := ru.point("polled"); err != nil {
			return false, err
		}
		if !b.Status.Done() {
			i++
			continue
		}
		if err := ru.settle(ctx, f, b); err != nil {
			return false, err
		}
		ru.open = append(ru.open[:i], ru.open[i+1:]...)
		progressed = true
	}
	return progressed, nil
}

// settle checks the results of a batch that is done, then resubmits (in
// the next round) what got no reply and closes the batch.
func (ru *run) settle(ctx context.Context, f *inFlight, b *provider.Batch) error {
	var p pending
	if b.Status != provider.BatchFailed {
		for res, err := range ru.r.b.BatchResults(ctx, f.rec.ID) {
			if err != nil {
				return fmt.Errorf("batch: results of %s: %w", f.rec.ID, err)
			}
			en := ru.member(res.ID, f.rec.Key)
			if en == nil {
				continue // settled already, or not of this batch: a stale or repeated result
			}
			rec, s, done, err := ru.check(ctx, en, res)
			if err != nil {
				return err
			}
			p.c.Items = append(p.c.Items, rec)
			if done {
				p.out = append(p.out, s)
			}
			if err := ru.point("checked"); err != nil {
				return err
			}
			if len(p.c.Items) >= saveChunk {
				if err := ru.flush(ctx, &p); err != nil {
					return err
				}
			}
		}
	}
	// What is still in this batch got no reply.
	for _, rid := range f.rec.Requests {
		en := ru.member(rid, f.rec.Key)
		if en == nil {
			continue
		}
		var cause error
		if b.Status == provider.BatchFailed {
			cause = fmt.Errorf("%w: %s: %w", ErrBatchFailed, b.ID, b.Err)
		} else {
			cause = fmt.Errorf("%w: no result in batch %s (%s)", ErrResubmits, b.ID, b.Status)
		}
		rec, s, done, err := ru.resubmit(en, cause)
		if err != nil {
			return err
		}
		p.c.Items = append(p.c.Items, rec)
		if done {
			p.out = append(p.out, s)
		}
	}
	p.c.Closed = []string{f.rec.Key}
	return ru.flush(ctx, &p)
}

// retryable reports whether a per-request error is worth submitting the
// same attempt again.
func retryable(err error) bool {
	switch provider.KindOf(err) {
	case provider.ErrorRateLimited, provider.ErrorOverloaded, provider.ErrorExpired, provider.ErrorCanceled:
		return true
	}
	return false
}

// check judges one result of entry en's attempt: the item is settled
// (done) or waits for its next attempt. The entry leaves the batch.
func (ru *run) check(ctx context.Context, en *entry, res provider.BatchResult) (Record, Settled, bool, error) {
	if res.Err != nil || res.Response == nil {
		err := res.Err
		if err == nil {
			err = &provider.Error{Kind: provider.ErrorOther, Provider: "batch", Message: "a result with neither a response nor an error"}
		}
		if retryable(err) {
			cause := err
			if k := provider.KindOf(err); k == provider.ErrorExpired || k == provider.ErrorCanceled {
				cause = fmt.Errorf("%w: %w", ErrResubmits, err)
			}
			return ru.resubmit(en, cause)
		}
		rec, s, err := ru.providerFailure(en, err)
		return rec, s, true, err
	}
	sent := en.next
	v := en.e.Check(ctx, en.st, res.Response)
	v.Attempt.Request = sent
	en.attempts = append(en.attempts, v.Attempt)
	en.st, en.text = v.State, v.Text
	result := &enforce.Result{Text: v.Text, Attempts: en.attempts, Usage: en.st.Usage, Mode: en.st.Mode}
	switch {
	case v.OK:
		result.JSON, result.Value, result.Coercions = v.JSON, v.Value, v.Attempt.Coercions
		return ru.settled(en, result, nil)
	case !v.Retry:
		return ru.settled(en, result, withAttempts(v.Err, en.attempts))
	}
	next, err := en.e.WithinBudget(en.st, v, en.e.NextRequest(v, en.first, sent))
	if err != nil {
		return ru.settled(en, result, withAttempts(err, en.attempts))
	}
	en.next, en.attempt, en.resubmits, en.batch = next, en.attempt+1, 0, ""
	rec, err := en.record()
	return rec, Settled{}, false, err
}

// withAttempts fills the attempts of err's *enforce.ValidationError, as
// Run does.
func withAttempts(err error, attempts []enforce.Attempt) error {
	var ve *enforce.ValidationError
	if errors.As(err, &ve) {
		ve.Attempts = attempts
	}
	return err
}

// resubmit puts en's attempt back for the next round, or settles the item
// with cause when it was resubmitted too often.
func (ru *run) resubmit(en *entry, cause error) (Record, Settled, bool, error) {
	en.resubmits++
	en.batch = ""
	if en.resubmits > ru.r.maxResubmits {
		if errors.Is(cause, ErrResubmits) || errors.Is(cause, ErrBatchFailed) {
			var res *enforce.Result
			if len(en.attempts) > 0 {
				res = &enforce.Result{Text: en.text, Attempts: en.attempts, Usage: en.st.Usage, Mode: en.st.Mode}
			}
			err := fmt.Errorf("batch: item %s attempt %d after %d submissions: %w", en.id, en.attempt, en.resubmits, cause)
			return ru.settled(en, res, err)
		}
		rec, s, err := ru.providerFailure(en, cause)
		return rec, s, true, err
	}
	rec, err := en.record()
	return rec, Settled{}, false, err
}

// providerFailure settles en with the provider's error for its attempt,
// as Run returns a failed call: the attempt is recorded, the error
// wrapped.
func (ru *run) providerFailure(en *entry, err error) (Record, Settled, error) {
	en.st.Attempts++
	a := enforce.Attempt{Number: en.st.Attempts, Mode: en.st.Mode, Outcome: enforce.OutcomeProviderError, Request: en.next, Err: err}
	en.attempts = append(en.attempts, a)
	res := &enforce.Result{Text: en.text, Attempts: en.attempts, Usage: en.st.Usage, Mode: en.st.Mode}
	rec, s, _, serr := ru.settled(en, res, fmt.Errorf("batch: item %s attempt %d: %w", en.id, a.Number, err))
	return rec, s, serr
}

// settled settles en with res and err and forgets the entry.
func (ru *run) settled(en *entry, res *enforce.Result, err error) (Record, Settled, bool, error) {
	delete(ru.entries, en.id)
	rec, s, serr := settledRecord(en.id, en.st.Attempts, res, err, res == nil)
	return rec, s, true, serr
}
