// Package batchtest checks that a [batch.Store] behaves as package batch
// needs: [Run] runs the conformance tests on a fresh store for each:
// records and logs written in one step, filters, and writes from the loop
// bodies of Items and Batches, which a store must allow. The
// memory store runs them in package batch, the SQL store on SQLite and
// PostgreSQL in package batch/sqlstore/sqltest.
package batchtest
