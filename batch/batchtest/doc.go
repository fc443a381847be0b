// Package batchtest checks that a [batch.Store] behaves as package batch
// needs: [Run] runs the conformance tests on a fresh store for each. The
// memory store runs them in package batch, the SQL store on SQLite and
// PostgreSQL in package batch/sqlstore/sqltest.
package batchtest
