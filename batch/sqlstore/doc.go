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
// Two tables, named after Options.Table: <table>_items (one row per item:
// job, id, status, attempt, data) and <table>_batches (one row per open
// batch: job, batch_key, batch_id, round, requests as a JSON array). Several jobs
// share them, told apart by Options.Job. Each [Store.Save] is one
// transaction.
package sqlstore
