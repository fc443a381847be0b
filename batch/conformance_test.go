package batch_test

import (
	"testing"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/batch/batchtest"
)

// TestStoreConformance runs the batchtest suite on the memory store
// (package batch/sqlstore/sqltest runs it on SQLite and PostgreSQL).
func TestStoreConformance(t *testing.T) {
	batchtest.Run(t, func(t *testing.T) batch.Store { return batch.NewMemory(nil) })
}
