// Package sqlstore keeps a batch job's state ([batch.Store]) in a SQL
// database through database/sql: SQLite or PostgreSQL, with the driver of
// the caller's choice (the package imports none).
//
//	db, err := sql.Open("sqlite", "file:jobs.db?_pragma=busy_timeout(10000)")
//	s, err := sqlstore.New(db, &sqlstore.Options{Job: "labels-2026-11"})
//	err = s.Migrate(ctx) // creates the tables when they do not exist
//	r, err := batch.New(batcher, s, batch.WithEnforcer(e))
//
// # Tables
//
// Three tables, named after Options.Table: <table>_items (one row per
// item: job, id, status, attempt, data), <table>_logs (one row per entry
// appended to an item's log: job, id, seq, data) and <table>_batches (one
// row per open batch: job, batch_key, batch_id, round, requests as a JSON
// array). Several jobs share them, told apart by Options.Job. Each
// [Store.Save] is one transaction. [Store.Items] reads a page of rows at a
// time and closes them before it yields, so that the caller's loop body
// may write, even to a database with a single connection.
package sqlstore
