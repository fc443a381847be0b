package batch

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
)

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
	crashed   bool     // a test's crash ended the run: write nothing more
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
	text      string       // the output of the last checked attempt
	logText   string       // the last attempt's output as its log entry gives it back
	mode      enforce.Mode // the mode the run started in, as its log holds it
	batch     string       // key of the batch in flight holding it; "" when none
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
	err := ru.r.crash(name)
	ru.crashed = err != nil
	return err
}

// save writes c with the pending delivery marks.
func (ru *run) save(ctx context.Context, c Update) error {
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

// deliver yields settled outcomes, which the store already holds. Once
// ctx has ended it yields no more: the rest stay settled in the store, for
// the next run to hand out.
func (ru *run) deliver(ctx context.Context, out []Settled) error {
	for _, s := range out {
		if err := ctx.Err(); err != nil {
			return err
		}
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
	if len(ru.delivered) == 0 || (ctx.Err() != nil && ru.r.stopTimeout == 0) {
		return nil
	}
	ctx, cancel := ru.stopContext(ctx)
	defer cancel()
	if err := ru.r.store.Save(ctx, Update{Delivered: ru.delivered}); err != nil {
		return fmt.Errorf("batch: save: %w", err)
	}
	ru.delivered = ru.delivered[:0]
	return nil
}

// stopContext returns ctx while it lasts; once it has ended, a context
// detached from it and bounded by the stop timeout, for the writes a
// shutdown must still make.
func (ru *run) stopContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx.Err() == nil || ru.r.stopTimeout == 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(context.WithoutCancel(ctx), ru.r.stopTimeout)
}

// run is the whole run: load, start, resume, then rounds until done.
func (ru *run) run(ctx context.Context, items []Item) error {
	if err := ru.index(items); err != nil {
		return err
	}
	ru.caps = ru.r.b.Capabilities()
	known, err := ru.load(ctx)
	if err != nil {
		return err
	}
	if err := ru.deliverSettled(ctx); err != nil {
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
				return ru.save(ctx, Update{})
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

// load reads the store: the pending items, whole, become entries; of the
// others it reads the IDs only. It returns the IDs of the items given that
// the store knows.
func (ru *run) load(ctx context.Context) (map[string]struct{}, error) {
	known := map[string]struct{}{}
	var migrated pending
	for rec, err := range ru.r.store.Items(ctx, Filter{Statuses: []Status{StatusPending}}) {
		if err != nil {
			return nil, fmt.Errorf("batch: load items: %w", err)
		}
		if _, ok := ru.items[rec.ID]; !ok {
			return nil, fmt.Errorf("%w: %s", ErrUnknownItem, rec.ID)
		}
		known[rec.ID] = struct{}{}
		it, err := readItem(rec)
		if err != nil {
			return nil, &CorruptRecordError{ID: rec.ID, Err: err}
		}
		en := &entry{
			id: rec.ID, e: ru.enforcer(rec.ID), attempt: rec.Attempt, st: it.data.State, resubmits: it.data.Resubmits,
			first: it.first, next: it.next, attempts: it.attempts, text: it.text(), logText: it.text(), mode: it.mode,
		}
		if en.attempt != len(en.attempts)+1 {
			return nil, &CorruptRecordError{ID: rec.ID, Err: fmt.Errorf("pending attempt %d after %d attempts", en.attempt, len(en.attempts))}
		}
		if it.legacy {
			logs, err := it.migrate(rec.ID)
			if err != nil {
				return nil, err
			}
			migrated.c.Logs = append(migrated.c.Logs, logs...)
			if err := en.record(&migrated); err != nil {
				return nil, err
			}
			if len(migrated.c.Items) >= saveChunk {
				if err := ru.save(ctx, migrated.c); err != nil {
					return nil, err
				}
				migrated.c = Update{}
			}
		}
		ru.entries[rec.ID] = en
	}
	// Pending items in the legacy form are written again with their
	// logs, before anything is appended to them.
	if err := ru.save(ctx, migrated.c); err != nil {
		return nil, err
	}
	for rec, err := range ru.r.store.Items(ctx, Filter{Statuses: []Status{StatusSettled, StatusDelivered}, NoData: true}) {
		if err != nil {
			return nil, fmt.Errorf("batch: load items: %w", err)
		}
		if _, ok := ru.items[rec.ID]; ok {
			known[rec.ID] = struct{}{}
		}
	}
	return known, nil
}

// deliverSettled hands out the outcomes the store holds settled but not
// handed out, as it reads them: the run keeps none in memory.
func (ru *run) deliverSettled(ctx context.Context) error {
	n := 0
	for rec, err := range ru.r.store.Items(ctx, Filter{Statuses: []Status{StatusSettled}}) {
		if err != nil {
			return fmt.Errorf("batch: load items: %w", err)
		}
		it, err := readItem(rec)
		var s Settled
		if err == nil {
			s, err = it.settled(rec.ID)
		}
		if err != nil {
			return &CorruptRecordError{ID: rec.ID, Err: err}
		}
		if err := ru.deliver(ctx, []Settled{s}); err != nil {
			return err
		}
		if n++; n%saveChunk == 0 {
			if err := ru.save(ctx, Update{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// pending is a change to the store and the outcomes it settles, written
// and then handed out together by flush.
type pending struct {
	c   Update
	out []Settled
}

// flush writes p's change, then hands out its outcomes, and empties p.
func (ru *run) flush(ctx context.Context, p *pending) error {
	if err := ru.save(ctx, p.c); err != nil {
		return err
	}
	p.c = Update{}
	err := ru.deliver(ctx, p.out)
	clear(p.out) // the run holds no outcome it has handed out
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
			en := &entry{id: id, e: e, st: st}
			if err := ru.settled(&p, en, nil, err); err != nil {
				return err
			}
		} else {
			en := &entry{id: id, e: e, attempt: 1, st: st, first: first, next: sent, mode: st.Mode}
			data, err := encodeEntry(&logEntry{First: first, Mode: st.Mode, Next: changeOf(first, sent)})
			if err != nil {
				return err
			}
			p.c.Logs = append(p.c.Logs, LogEntry{ID: id, Data: data})
			if err := en.record(&p); err != nil {
				return err
			}
			ru.entries[id] = en
		}
		if len(p.c.Items) >= saveChunk {
			if err := ru.flush(ctx, &p); err != nil {
				return err
			}
		}
	}
	return ru.flush(ctx, &p)
}

// record adds the entry's pending record to p.
func (en *entry) record(p *pending) error {
	data, err := encodeData(&itemData{State: en.st, Resubmits: en.resubmits})
	if err != nil {
		return err
	}
	p.c.Items = append(p.c.Items, Record{ID: en.id, Status: StatusPending, Attempt: en.attempt, Data: data})
	return nil
}

// logAttempt appends attempt a, whose check read text, to en's attempts
// and adds its log entry to p, with the change to next when the item goes
// on.
func (en *entry) logAttempt(p *pending, a enforce.Attempt, text string, next *provider.Request) error {
	a.Request = en.next
	en.attempts = append(en.attempts, a)
	e := attemptEntry(a, len(en.attempts), en.mode, text)
	en.logText = text
	if next != nil {
		e.Next = changeOf(en.next, next)
	}
	data, err := encodeEntry(e)
	if err != nil {
		return err
	}
	p.c.Logs = append(p.c.Logs, LogEntry{ID: en.id, Data: data})
	return nil
}

// resume takes up the batches the store has open.
func (ru *run) resume(ctx context.Context) error {
	var recs []BatchRecord
	for rec, err := range ru.r.store.Batches(ctx) {
		if err != nil {
			return fmt.Errorf("batch: load batches: %w", err)
		}
		recs = append(recs, rec)
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
			if err := ru.save(ctx, Update{Closed: []string{rec.Key}}); err != nil {
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
				if err := ru.save(ctx, Update{Batches: []BatchRecord{f.rec}}); err != nil {
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
	var p pending
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
		if err := ru.save(ctx, Update{Batches: []BatchRecord{f.rec}}); err != nil {
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
				err = &provider.Error{Kind: provider.ErrInvalidRequest, Provider: "batch",
					Message: fmt.Sprintf("a request of %d bytes does not fit in a batch of at most %d", n, limits.MaxBytes)}
			}
			if err != nil {
				if err := ru.providerFailure(&p, en, err); err != nil {
					return err
				}
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
	return ru.flush(ctx, &p)
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
		err = fmt.Errorf("batch: submit %s (%d requests): %w", f.rec.Key, len(reqs), err)
	}
	if b == nil || b.ID == "" {
		if err == nil {
			err = fmt.Errorf("batch: submit %s (%d requests): %w", f.rec.Key, len(reqs),
				&provider.Error{Kind: provider.ErrOther, Provider: "batch", Message: "SubmitBatch returned no batch ID"})
		}
		return err
	}
	if perr := ru.point("submitted"); perr != nil {
		return perr
	}
	// The provider created the batch, even when an error comes beside it
	// (a wrapper that failed after the call) or ctx ended meanwhile (a
	// shutdown): its ID is written, else the next run pays for its
	// requests twice and CancelBatches cannot reach it.
	f.rec.ID = b.ID
	sctx, cancel := ru.stopContext(ctx)
	defer cancel()
	if serr := ru.save(sctx, Update{Batches: []BatchRecord{f.rec}}); serr != nil {
		return errors.Join(err, serr)
	}
	if err != nil {
		return err
	}
	return ctx.Err()
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
			if ctx.Err() != nil {
				// A shutdown: no more checks (a Batcher that downloaded
				// the results would yield them all), those made are kept.
				return ru.halt(ctx, &p)
			}
			en := ru.member(res.ID, f.rec.Key)
			if en == nil {
				continue // settled already, or not of this batch: a stale or repeated result
			}
			if err := ru.check(ctx, &p, en, res); err != nil {
				return err
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
		if err := ru.resubmit(&p, en, cause); err != nil {
			return err
		}
	}
	p.c.Closed = []string{f.rec.Key}
	return ru.flush(ctx, &p)
}

// halt ends a run whose ctx has ended: it writes what p holds, within
// the stop timeout, so that the next run does not make its checks again,
// and returns ctx's error. What p settles is handed out by the next run.
func (ru *run) halt(ctx context.Context, p *pending) error {
	if ru.r.stopTimeout == 0 {
		return ctx.Err()
	}
	sctx, cancel := ru.stopContext(ctx)
	defer cancel()
	return errors.Join(ctx.Err(), ru.save(sctx, p.c))
}

// retryable reports whether a per-request error is worth submitting the
// same attempt again.
func retryable(err error) bool {
	switch provider.KindOf(err) {
	case provider.ErrRateLimited, provider.ErrOverloaded, provider.ErrExpired, provider.ErrCanceled:
		return true
	}
	return false
}

// check judges one result of entry en's attempt, adding to p what it
// writes and hands out: the item is settled or waits for its next
// attempt. The entry leaves the batch.
func (ru *run) check(ctx context.Context, p *pending, en *entry, res provider.BatchResult) error {
	if res.Err != nil || res.Response == nil {
		err := res.Err
		if err == nil {
			err = &provider.Error{Kind: provider.ErrOther, Provider: "batch", Message: "a result with neither a response nor an error"}
		}
		if retryable(err) {
			cause := err
			if k := provider.KindOf(err); k == provider.ErrExpired || k == provider.ErrCanceled {
				cause = fmt.Errorf("%w: %w", ErrResubmits, err)
			}
			return ru.resubmit(p, en, cause)
		}
		return ru.providerFailure(p, en, err)
	}
	sent := en.next
	v := en.e.Check(ctx, en.st, res.Response)
	en.st, en.text = v.State, v.Text
	var next *provider.Request
	var stop error
	switch {
	case v.OK:
	case !v.Retry:
		stop = v.Err
	default:
		next, stop = en.e.WithinBudget(en.st, v, en.e.NextRequest(v, en.first, sent))
	}
	if err := en.logAttempt(p, v.Attempt, v.Text, next); err != nil {
		return err
	}
	result := &enforce.Result{Text: v.Text, Attempts: en.attempts, Usage: en.st.Usage, Mode: en.st.Mode}
	switch {
	case v.OK:
		result.JSON, result.Value, result.Coercions = v.JSON, v.Value, v.Attempt.Coercions
		return ru.settled(p, en, result, nil)
	case next == nil:
		return ru.settled(p, en, result, withAttempts(stop, en.attempts))
	}
	en.next, en.attempt, en.resubmits, en.batch = next, en.attempt+1, 0, ""
	return en.record(p)
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
func (ru *run) resubmit(p *pending, en *entry, cause error) error {
	en.resubmits++
	en.batch = ""
	if en.resubmits > ru.r.maxResubmits {
		if errors.Is(cause, ErrResubmits) || errors.Is(cause, ErrBatchFailed) {
			var res *enforce.Result
			if len(en.attempts) > 0 {
				res = &enforce.Result{Text: en.text, Attempts: en.attempts, Usage: en.st.Usage, Mode: en.st.Mode}
			}
			err := fmt.Errorf("batch: item %s attempt %d after %d submissions: %w", en.id, en.attempt, en.resubmits, cause)
			return ru.settled(p, en, res, err)
		}
		return ru.providerFailure(p, en, cause)
	}
	return en.record(p)
}

// providerFailure settles en with the provider's error for its attempt,
// as Run returns a failed call: the attempt is recorded, the error
// wrapped.
func (ru *run) providerFailure(p *pending, en *entry, err error) error {
	en.st.Attempts++
	a := enforce.Attempt{Number: en.st.Attempts, Mode: en.st.Mode, Outcome: enforce.OutcomeProviderError, Err: err}
	text := en.text
	if lerr := en.logAttempt(p, a, "", nil); lerr != nil {
		return lerr
	}
	res := &enforce.Result{Text: text, Attempts: en.attempts, Usage: en.st.Usage, Mode: en.st.Mode}
	return ru.settled(p, en, res, fmt.Errorf("batch: item %s attempt %d: %w", en.id, a.Number, err))
}

// settled settles en with res and err, adding its record and outcome to
// p, and forgets the entry. A nil res is an outcome without a Result
// (nothing was attempted, or no attempt got a reply).
func (ru *run) settled(p *pending, en *entry, res *enforce.Result, err error) error {
	delete(ru.entries, en.id)
	o := &storedOutcome{Error: storeError(err)}
	d := &itemData{State: en.st, Outcome: o}
	if res != nil {
		o.Started = true
		if res.Text != en.logText {
			t := res.Text
			o.Text = &t
		}
		if res.JSON != nil {
			o.Valid = true
			if n := len(res.Attempts); n == 0 || string(res.Attempts[n-1].JSON) != string(res.JSON) {
				j := string(res.JSON)
				o.JSON = &j
			}
		}
	}
	data, encErr := encodeData(d)
	if encErr != nil {
		return encErr
	}
	p.c.Items = append(p.c.Items, Record{ID: en.id, Status: StatusSettled, Attempt: en.st.Attempts, Data: data})
	p.out = append(p.out, Settled{ID: en.id, Result: res, Err: err})
	return nil
}
