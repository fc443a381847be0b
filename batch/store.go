package batch

import (
	"context"
	"iter"
	"slices"
	"sync"
)

// A Status is where an item stands in a [Store].
type Status string

// The statuses of an item.
const (
	// StatusPending: the item waits for the reply to its current attempt
	// (Record.Attempt), submitted in an open batch or not yet.
	StatusPending Status = "pending"
	// StatusSettled: the item has its outcome, not yet handed to the
	// caller.
	StatusSettled Status = "settled"
	// StatusDelivered: the item's outcome was handed to the caller.
	StatusDelivered Status = "delivered"
)

// A Record is the durable state of one item. The [Runner] writes it; a
// [Store] keeps it as it is.
type Record struct {
	// ID is the item's ID.
	ID string
	// Status is where the item stands.
	Status Status
	// Attempt is the number of the item's current attempt (pending) or of
	// its last one (settled, delivered).
	Attempt int
	// Data is the runner's encoding of the item's small state (the
	// enforcement state's counters, the outcome once settled), rewritten
	// by each Save of the record. A store keeps it as bytes; it may drop
	// it once the item is delivered (see [MemoryOptions]).
	Data []byte
	// Log holds what was appended for the item by [Update.Logs], oldest
	// first: the runner's first request, then each attempt's reply and
	// the messages the next one adds. Save ignores it; Items fills it,
	// unless [Filter.NoData].
	Log [][]byte
}

// A LogEntry is data appended to an item's log.
type LogEntry struct {
	// ID is the item's ID.
	ID string
	// Data is the entry, kept as bytes.
	Data []byte
}

// A BatchRecord is a batch the runner intends to submit or has submitted,
// kept until its results are settled.
type BatchRecord struct {
	// Key is the runner's key for the batch, passed to SubmitBatch. It is
	// unique in a store.
	Key string
	// ID is the provider's ID of the batch; empty until the runner has
	// recorded it after SubmitBatch.
	ID string
	// Round is the round the batch belongs to, from 1.
	Round int
	// Requests are the IDs of the batch's requests, each naming an item
	// and an attempt.
	Requests []string
}

// An Update is what one [Store.Save] writes, all of it or none.
type Update struct {
	// Items are records to write, each replacing the ID, status, attempt
	// and Data of the record of the same ID (its Log is not written).
	Items []Record
	// Logs are entries to append, in order, to the logs of their items.
	// What the runner writes per attempt is what the attempt adds, so
	// that a job's storage grows with its attempts, not with their
	// square.
	Logs []LogEntry
	// Batches are batch records to write, each replacing the record of
	// the same Key.
	Batches []BatchRecord
	// Closed are the keys of batch records to remove: their results are
	// settled. An unknown key is ignored.
	Closed []string
	// Delivered are the IDs of items whose outcome was handed out: their
	// status becomes [StatusDelivered]. An unknown ID is ignored.
	Delivered []string
}

// empty reports whether c changes nothing.
func (c Update) empty() bool {
	return len(c.Items) == 0 && len(c.Logs) == 0 && len(c.Batches) == 0 && len(c.Closed) == 0 && len(c.Delivered) == 0
}

// A Filter says which item records [Store.Items] yields, and how much of
// each. The zero Filter yields every record whole.
type Filter struct {
	// Statuses are the statuses of the records to yield; none means
	// every status.
	Statuses []Status
	// NoData yields each record's ID, Status and Attempt only, without
	// Data and Log: what a run needs to know of the items it will not
	// take up.
	NoData bool
}

// match reports whether f selects status s.
func (f Filter) match(s Status) bool {
	return len(f.Statuses) == 0 || slices.Contains(f.Statuses, s)
}

// A Store keeps the durable state of one batch job: every item's record
// and log and every open batch. A [Runner] reads what it needs when
// [Runner.Run] starts (the pending items whole, the others by ID) and
// writes every step to it before taking the next, so that a process
// killed at any point resumes from it.
//
// Items and Batches are both iterators: a job's items may be millions,
// and its batches are read the same way so that a store has one shape to
// implement and a caller one to read. Neither may hold a database cursor,
// a lock or a transaction while the caller's loop body runs: the body
// may call Save (the runner records what it hands out as it goes), and a
// database with a single connection must not deadlock. A store reads a
// page of rows, releases the connection, then yields them.
//
// Implementations must be safe for concurrent use. Save must apply a
// Update atomically (a crash leaves all of it or none), must not retain the
// Update's slices, and may keep a Record's Data and a LogEntry's Data (the
// runner does not modify them afterwards). Items and Batches yield data
// the caller owns. [NewMemory] is kept in memory; package batch/sqlstore
// keeps it in a SQL database; package batch/batchtest checks an
// implementation.
type Store interface {
	// Items yields the item records f selects, in no particular order.
	// An error ends the sequence.
	Items(ctx context.Context, f Filter) iter.Seq2[Record, error]
	// Batches yields every batch record, in no particular order. An
	// error ends the sequence.
	Batches(ctx context.Context) iter.Seq2[BatchRecord, error]
	// Save applies c: it writes c.Items and c.Batches, appends c.Logs,
	// removes c.Closed and marks c.Delivered, in one step.
	Save(ctx context.Context, c Update) error
}

// MemoryOptions configure [NewMemory]. The zero value keeps every record.
type MemoryOptions struct {
	// DropDelivered forgets a delivered item's Data and Log, keeping only
	// its ID, status and attempt count: enough for a resumed run not to
	// run it again, too little for [Runner.Results] to list it. With it
	// the store's memory does not grow with the items delivered.
	DropDelivered bool
}

// A Memory is a [Store] kept in memory: for tests, and for jobs small
// enough to run again when the process dies. It is safe for concurrent
// use. The zero Memory is not usable; create one with [NewMemory].
type Memory struct {
	drop bool

	mu      sync.Mutex
	items   map[string]Record
	orphans map[string][][]byte // log entries of items without a record yet
	batches map[string]BatchRecord
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty Memory. opts may be nil.
func NewMemory(opts *MemoryOptions) *Memory {
	m := &Memory{items: map[string]Record{}, orphans: map[string][][]byte{}, batches: map[string]BatchRecord{}}
	if opts != nil {
		m.drop = opts.DropDelivered
	}
	return m
}

// Items yields a snapshot of the records f selects, taken when the
// iteration starts; each Data and Log is the caller's copy.
func (m *Memory) Items(ctx context.Context, f Filter) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(Record{}, err)
			return
		}
		m.mu.Lock()
		recs := make([]Record, 0, len(m.items))
		for _, r := range m.items {
			if f.match(r.Status) {
				r.Log = r.Log[:len(r.Log):len(r.Log)]
				recs = append(recs, r)
			}
		}
		m.mu.Unlock()
		for _, r := range recs {
			if f.NoData {
				r.Data, r.Log = nil, nil
			} else {
				r.Data = slices.Clone(r.Data)
				log := make([][]byte, len(r.Log))
				for i, e := range r.Log {
					log[i] = slices.Clone(e)
				}
				r.Log = log
			}
			if !yield(r, nil) {
				return
			}
		}
	}
}

// Batches yields copies of the batch records, taken when the iteration
// starts.
func (m *Memory) Batches(ctx context.Context) iter.Seq2[BatchRecord, error] {
	return func(yield func(BatchRecord, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(BatchRecord{}, err)
			return
		}
		m.mu.Lock()
		out := make([]BatchRecord, 0, len(m.batches))
		for _, b := range m.batches {
			b.Requests = slices.Clone(b.Requests)
			out = append(out, b)
		}
		m.mu.Unlock()
		for _, b := range out {
			if !yield(b, nil) {
				return
			}
		}
	}
}

// Save applies c under the Memory's lock. It fails only when ctx is done,
// and then changes nothing. Log entries of an item without a record are
// kept, and read with its record once one is written.
func (m *Memory) Save(ctx context.Context, c Update) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range c.Items {
		old, ok := m.items[r.ID]
		r.Log = old.Log
		if !ok {
			r.Log = m.orphans[r.ID]
			delete(m.orphans, r.ID)
		}
		if r.Status == StatusDelivered && m.drop {
			r.Data, r.Log = nil, nil
		} else {
			r.Data = slices.Clone(r.Data)
		}
		m.items[r.ID] = r
	}
	for _, e := range c.Logs {
		r, ok := m.items[e.ID]
		switch {
		case !ok:
			m.orphans[e.ID] = append(m.orphans[e.ID], slices.Clone(e.Data))
		case r.Status == StatusDelivered && m.drop:
		default:
			r.Log = append(r.Log, slices.Clone(e.Data))
			m.items[e.ID] = r
		}
	}
	for _, b := range c.Batches {
		b.Requests = slices.Clone(b.Requests)
		m.batches[b.Key] = b
	}
	for _, k := range c.Closed {
		delete(m.batches, k)
	}
	for _, id := range c.Delivered {
		r, ok := m.items[id]
		if !ok {
			continue
		}
		r.Status = StatusDelivered
		if m.drop {
			r.Data, r.Log = nil, nil
		}
		m.items[id] = r
	}
	return nil
}

// Len returns the number of item records the Memory holds.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.items)
}
