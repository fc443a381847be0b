package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/internal/sqlident"
)

// An Engine names the database the store writes SQL for.
type Engine string

// The engines.
const (
	// EngineSQLite uses ? placeholders and BLOB data (the zero value's
	// choice).
	EngineSQLite Engine = "sqlite"
	// EnginePostgres uses $1, $2, ... placeholders and BYTEA data.
	EnginePostgres Engine = "postgres"
)

// DefaultTable is the tables' base name when Options.Table is empty.
const DefaultTable = "agentio_batch"

// DefaultJob is the job's name when Options.Job is empty.
const DefaultJob = "default"

// Options configure [New]. A nil *Options and the zero value mean the
// defaults.
type Options struct {
	// Table is the tables' base name, optionally qualified by a schema
	// ("jobs.agentio_batch"): letters, digits and '_', not starting with a
	// digit. The store uses <Table>_items and <Table>_batches. Empty means
	// [DefaultTable].
	Table string
	// Engine is the database's kind. Empty means [EngineSQLite].
	Engine Engine
	// Job names the job whose state the store holds, so that several
	// jobs share the tables. Empty means [DefaultJob].
	Job string
}

// pageSize is how many item rows Items reads at a time, before it
// releases the connection and yields them.
const pageSize = 256

// ErrInvalidOption is returned by [New] for a nil database, a table name
// or an engine it cannot use.
var ErrInvalidOption = errors.New("sqlstore: invalid option")

// A CorruptRowError reports a row that cannot be read back: a status it
// does not know, requests that are not a JSON array of strings. Items and
// Batches return it; Err is the cause.
type CorruptRowError struct {
	// Key is the row's item ID or batch key.
	Key string
	// Err says what is wrong with it.
	Err error
}

// Error returns "sqlstore: corrupt row <key>: <cause>".
func (e *CorruptRowError) Error() string {
	return fmt.Sprintf("sqlstore: corrupt row %q: %v", e.Key, e.Err)
}

// Unwrap returns the cause.
func (e *CorruptRowError) Unwrap() error { return e.Err }

// A Store is a [batch.Store] in two tables of a SQL database. It is safe
// for concurrent use. Create one with [New].
type Store struct {
	db  *sql.DB
	job string
	q   queries
}

var _ batch.Store = (*Store)(nil)

// queries are the store's statements, built once for its tables and
// engine.
type queries struct {
	createItems, createLogs, createBatches string
	batches                                string
	putItem, putLog, putBatch              string
	close, delivered                       string
	// items selects a page of items after an ID; its status condition
	// and the log query's ID list are built per call.
	itemsTable, logsTable string
	ph                    func(int) string
}

// New returns a store over the tables of opts in db. It does not touch
// the database: call [Store.Migrate] to create the tables. opts may be
// nil; it is copied. The error wraps [ErrInvalidOption] for a nil db, a
// table name that is not an identifier or an unknown engine.
func New(db *sql.DB, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if db == nil {
		return nil, fmt.Errorf("%w: nil *sql.DB", ErrInvalidOption)
	}
	if o.Table == "" {
		o.Table = DefaultTable
	}
	if o.Job == "" {
		o.Job = DefaultJob
	}
	if !sqlident.Valid(o.Table, 100) {
		return nil, fmt.Errorf("%w: table name %q is not an identifier (letters, digits and '_', optionally schema.table)", ErrInvalidOption, o.Table)
	}
	ph, ok := sqlident.Placeholders(string(o.Engine))
	if !ok {
		return nil, fmt.Errorf("%w: unknown engine %q (use %q or %q)", ErrInvalidOption, o.Engine, EngineSQLite, EnginePostgres)
	}
	blob := "BLOB"
	if o.Engine == EnginePostgres {
		blob = "BYTEA"
	}
	it, lt, bt := sqlident.Quote(o.Table+"_items"), sqlident.Quote(o.Table+"_logs"), sqlident.Quote(o.Table+"_batches")
	s := &Store{db: db, job: o.Job}
	s.q = queries{
		createItems: "CREATE TABLE IF NOT EXISTS " + it + " (\n" +
			"\tjob TEXT NOT NULL,\n\tid TEXT NOT NULL,\n\tstatus TEXT NOT NULL,\n\tattempt INTEGER NOT NULL,\n" +
			"\tdata " + blob + ",\n\tPRIMARY KEY (job, id)\n)",
		createLogs: "CREATE TABLE IF NOT EXISTS " + lt + " (\n" +
			"\tjob TEXT NOT NULL,\n\tid TEXT NOT NULL,\n\tseq INTEGER NOT NULL,\n" +
			"\tdata " + blob + " NOT NULL,\n\tPRIMARY KEY (job, id, seq)\n)",
		createBatches: "CREATE TABLE IF NOT EXISTS " + bt + " (\n" +
			"\tjob TEXT NOT NULL,\n\tbatch_key TEXT NOT NULL,\n\tbatch_id TEXT NOT NULL,\n\tround INTEGER NOT NULL,\n" +
			"\trequests TEXT NOT NULL,\n\tPRIMARY KEY (job, batch_key)\n)",
		batches: "SELECT batch_key, batch_id, round, requests FROM " + bt + " WHERE job = " + ph(1),
		putItem: "INSERT INTO " + it + " (job, id, status, attempt, data) VALUES (" + ph(1) + ", " + ph(2) + ", " + ph(3) + ", " + ph(4) + ", " + ph(5) + ")" +
			" ON CONFLICT (job, id) DO UPDATE SET status = excluded.status, attempt = excluded.attempt, data = excluded.data",
		putLog: "INSERT INTO " + lt + " (job, id, seq, data) SELECT " + ph(1) + ", " + ph(2) + ", COALESCE(MAX(seq), 0) + 1, " + ph(3) +
			" FROM " + lt + " WHERE job = " + ph(4) + " AND id = " + ph(5),
		putBatch: "INSERT INTO " + bt + " (job, batch_key, batch_id, round, requests) VALUES (" + ph(1) + ", " + ph(2) + ", " + ph(3) + ", " + ph(4) + ", " + ph(5) + ")" +
			" ON CONFLICT (job, batch_key) DO UPDATE SET batch_id = excluded.batch_id, round = excluded.round, requests = excluded.requests",
		close:      "DELETE FROM " + bt + " WHERE job = " + ph(1) + " AND batch_key = " + ph(2),
		delivered:  "UPDATE " + it + " SET status = '" + string(batch.StatusDelivered) + "' WHERE job = " + ph(1) + " AND id = " + ph(2),
		itemsTable: it,
		logsTable:  lt,
		ph:         ph,
	}
	return s, nil
}

// Migrate creates the tables when they do not exist. It is idempotent:
// over tables a version without item logs created, it adds the logs
// table, and the records already there are read as they are.
func (s *Store) Migrate(ctx context.Context) error {
	for _, q := range []string{s.q.createItems, s.q.createLogs, s.q.createBatches} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("sqlstore: migrate: %w", err)
		}
	}
	return nil
}

// Items yields the job's item records f selects, in the order of their
// IDs. It reads them a page at a time (with their logs, unless f.NoData)
// and yields a page only once its rows are closed, so the loop body may
// use the database, even one limited to a single connection, and Save.
func (s *Store) Items(ctx context.Context, f batch.Filter) iter.Seq2[batch.Record, error] {
	return func(yield func(batch.Record, error) bool) {
		after := ""
		for {
			page, err := s.page(ctx, f, after)
			if err != nil {
				yield(batch.Record{}, err)
				return
			}
			for _, r := range page {
				if !yield(r, nil) {
					return
				}
			}
			if len(page) < pageSize {
				return
			}
			after = page[len(page)-1].ID
		}
	}
}

// page reads the next page of item records after the ID after, with
// their logs unless f.NoData.
func (s *Store) page(ctx context.Context, f batch.Filter, after string) ([]batch.Record, error) {
	cols := "id, status, attempt, data"
	if f.NoData {
		cols = "id, status, attempt"
	}
	args := []any{s.job, after}
	q := "SELECT " + cols + " FROM " + s.q.itemsTable + " WHERE job = " + s.q.ph(1) + " AND id > " + s.q.ph(2)
	if len(f.Statuses) > 0 {
		var in []string
		for _, st := range f.Statuses {
			args = append(args, string(st))
			in = append(in, s.q.ph(len(args)))
		}
		q += " AND status IN (" + strings.Join(in, ", ") + ")"
	}
	q += fmt.Sprintf(" ORDER BY id LIMIT %d", pageSize)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: items: %w", err)
	}
	defer rows.Close()
	var page []batch.Record
	for rows.Next() {
		var r batch.Record
		var status string
		dest := []any{&r.ID, &status, &r.Attempt}
		if !f.NoData {
			dest = append(dest, &r.Data)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("sqlstore: items: %w", err)
		}
		r.Status = batch.Status(status)
		switch r.Status {
		case batch.StatusPending, batch.StatusSettled, batch.StatusDelivered:
		default:
			return nil, &CorruptRowError{Key: r.ID, Err: fmt.Errorf("unknown status %q", status)}
		}
		page = append(page, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlstore: items: %w", err)
	}
	rows.Close()
	if f.NoData || len(page) == 0 {
		return page, nil
	}
	if err := s.logs(ctx, page); err != nil {
		return nil, err
	}
	return page, nil
}

// logs reads the logs of the records of page into them.
func (s *Store) logs(ctx context.Context, page []batch.Record) error {
	args := []any{s.job}
	in := make([]string, len(page))
	at := make(map[string]int, len(page))
	for i, r := range page {
		args = append(args, r.ID)
		in[i] = s.q.ph(len(args))
		at[r.ID] = i
	}
	q := "SELECT id, data FROM " + s.q.logsTable + " WHERE job = " + s.q.ph(1) + " AND id IN (" + strings.Join(in, ", ") + ") ORDER BY id, seq"
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("sqlstore: item logs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			return fmt.Errorf("sqlstore: item logs: %w", err)
		}
		i := at[id]
		page[i].Log = append(page[i].Log, data)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sqlstore: item logs: %w", err)
	}
	return nil
}

// Batches yields the job's batch records. It reads them all, then closes
// the rows before it yields, so the loop body may use the database.
func (s *Store) Batches(ctx context.Context) iter.Seq2[batch.BatchRecord, error] {
	return func(yield func(batch.BatchRecord, error) bool) {
		recs, err := s.readBatches(ctx)
		if err != nil {
			yield(batch.BatchRecord{}, err)
			return
		}
		for _, b := range recs {
			if !yield(b, nil) {
				return
			}
		}
	}
}

// readBatches reads the job's batch records.
func (s *Store) readBatches(ctx context.Context) ([]batch.BatchRecord, error) {
	rows, err := s.db.QueryContext(ctx, s.q.batches, s.job)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: batches: %w", err)
	}
	defer rows.Close()
	var out []batch.BatchRecord
	for rows.Next() {
		var b batch.BatchRecord
		var reqs string
		if err := rows.Scan(&b.Key, &b.ID, &b.Round, &reqs); err != nil {
			return nil, fmt.Errorf("sqlstore: batches: %w", err)
		}
		if err := json.Unmarshal([]byte(reqs), &b.Requests); err != nil {
			return nil, &CorruptRowError{Key: b.Key, Err: err}
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlstore: batches: %w", err)
	}
	return out, nil
}

// Save applies c in one transaction.
func (s *Store) Save(ctx context.Context, c batch.Update) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlstore: save: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if len(c.Items) > 0 {
		stmt, err := tx.PrepareContext(ctx, s.q.putItem)
		if err != nil {
			return fmt.Errorf("sqlstore: save: %w", err)
		}
		defer stmt.Close()
		for _, r := range c.Items {
			data := r.Data
			if data == nil {
				data = []byte{}
			}
			if _, err := stmt.ExecContext(ctx, s.job, r.ID, string(r.Status), r.Attempt, data); err != nil {
				return fmt.Errorf("sqlstore: save item %s: %w", r.ID, err)
			}
		}
	}
	if len(c.Logs) > 0 {
		stmt, err := tx.PrepareContext(ctx, s.q.putLog)
		if err != nil {
			return fmt.Errorf("sqlstore: save: %w", err)
		}
		defer stmt.Close()
		for _, e := range c.Logs {
			data := e.Data
			if data == nil {
				data = []byte{}
			}
			if _, err := stmt.ExecContext(ctx, s.job, e.ID, data, s.job, e.ID); err != nil {
				return fmt.Errorf("sqlstore: save log of %s: %w", e.ID, err)
			}
		}
	}
	for _, b := range c.Batches {
		reqs, err := json.Marshal(b.Requests)
		if err != nil {
			return fmt.Errorf("sqlstore: save batch %s: %w", b.Key, err)
		}
		if b.Requests == nil {
			reqs = []byte("[]")
		}
		if _, err := tx.ExecContext(ctx, s.q.putBatch, s.job, b.Key, b.ID, b.Round, string(reqs)); err != nil {
			return fmt.Errorf("sqlstore: save batch %s: %w", b.Key, err)
		}
	}
	for _, k := range c.Closed {
		if _, err := tx.ExecContext(ctx, s.q.close, s.job, k); err != nil {
			return fmt.Errorf("sqlstore: close batch %s: %w", k, err)
		}
	}
	for _, id := range c.Delivered {
		if _, err := tx.ExecContext(ctx, s.q.delivered, s.job, id); err != nil {
			return fmt.Errorf("sqlstore: deliver %s: %w", id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlstore: save: %w", err)
	}
	return nil
}
