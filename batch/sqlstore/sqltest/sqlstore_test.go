package sqltest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/batch/batchtest"
	"github.com/agentio/agentio/batch/sqlstore"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

var ctx = context.Background()

// database is one real database the tests run on.
type database struct {
	name   string
	engine sqlstore.Engine
	open   func(t *testing.T) *sql.DB
}

var tableSeq atomic.Int64

func databases(t *testing.T) []database {
	dbs := []database{{
		name:   "sqlite",
		engine: sqlstore.EngineSQLite,
		open: func(t *testing.T) *sql.DB {
			path := filepath.Join(t.TempDir(), "batch.db")
			db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
			require.NoError(t, err)
			t.Cleanup(func() { db.Close() })
			return db
		},
	}, {
		// One connection: a store that held a cursor while its caller's
		// loop body writes would deadlock here.
		name:   "sqlite-one-connection",
		engine: sqlstore.EngineSQLite,
		open: func(t *testing.T) *sql.DB {
			db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "batch.db"))
			require.NoError(t, err)
			db.SetMaxOpenConns(1)
			t.Cleanup(func() { db.Close() })
			return db
		},
	}}
	if dsn := os.Getenv("AGENTIO_TEST_POSTGRES"); dsn != "" {
		dbs = append(dbs, database{
			name:   "postgres",
			engine: sqlstore.EnginePostgres,
			open: func(t *testing.T) *sql.DB {
				db, err := sql.Open("pgx", dsn)
				require.NoError(t, err)
				t.Cleanup(func() { db.Close() })
				return db
			},
		})
	} else {
		t.Log("AGENTIO_TEST_POSTGRES is not set: PostgreSQL is not tested (see the package doc to start one)")
	}
	return dbs
}

// newStore returns a migrated store over fresh tables of db, dropped when
// the test ends.
func newStore(t *testing.T, db *sql.DB, e sqlstore.Engine, job string) *sqlstore.Store {
	t.Helper()
	table := fmt.Sprintf("batch_%d_%d", os.Getpid(), tableSeq.Add(1))
	s, err := sqlstore.New(db, &sqlstore.Options{Table: table, Engine: e, Job: job})
	require.NoError(t, err)
	require.NoError(t, s.Migrate(ctx))
	require.NoError(t, s.Migrate(ctx), "Migrate is idempotent")
	t.Cleanup(func() { dropTables(db, table) })
	return s
}

// dropTables drops the store's tables of base name table.
func dropTables(db *sql.DB, table string) {
	for _, suffix := range []string{"_items", "_logs", "_batches"} {
		db.Exec(`DROP TABLE "` + table + suffix + `"`)
	}
}

func TestConformance(t *testing.T) {
	for _, d := range databases(t) {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t)
			batchtest.Run(t, func(t *testing.T) batch.Store { return newStore(t, db, d.engine, "job") })
		})
	}
}

// TestJobsApart: two jobs in the same tables do not see each other.
func TestJobsApart(t *testing.T) {
	for _, d := range databases(t) {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t)
			table := fmt.Sprintf("batch_%d_%d", os.Getpid(), tableSeq.Add(1))
			t.Cleanup(func() { dropTables(db, table) })
			open := func(job string) *sqlstore.Store {
				s, err := sqlstore.New(db, &sqlstore.Options{Table: table, Engine: d.engine, Job: job})
				require.NoError(t, err)
				require.NoError(t, s.Migrate(ctx))
				return s
			}
			a, b := open("a"), open("b")
			require.NoError(t, a.Save(ctx, batch.Update{Items: []batch.Record{{ID: "x", Status: batch.StatusPending, Attempt: 1, Data: []byte("a")}},
				Batches: []batch.BatchRecord{{Key: "k", Requests: []string{"x-1"}}}}))
			require.NoError(t, a.Save(ctx, batch.Update{Logs: []batch.LogEntry{{ID: "x", Data: []byte("a0")}}}))
			require.NoError(t, b.Save(ctx, batch.Update{Items: []batch.Record{{ID: "x", Status: batch.StatusPending, Attempt: 1, Data: []byte("b")}},
				Logs: []batch.LogEntry{{ID: "x", Data: []byte("b0")}}}))
			for r, err := range b.Items(ctx, batch.Filter{}) {
				require.NoError(t, err)
				assert.Equal(t, [][]byte{[]byte("b0")}, r.Log, "job b sees only its own log")
			}
			for range b.Batches(ctx) {
				t.Fatal("job b sees job a's batch")
			}
		})
	}
}

func TestInvalidOptions(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "x.db"))
	require.NoError(t, err)
	defer db.Close()
	for _, o := range []*sqlstore.Options{{Table: "1abc"}, {Table: `x"; DROP TABLE y`}, {Engine: "oracle"}} {
		_, err := sqlstore.New(db, o)
		assert.ErrorIs(t, err, sqlstore.ErrInvalidOption, "%+v", o)
	}
	_, err = sqlstore.New(nil, nil)
	assert.ErrorIs(t, err, sqlstore.ErrInvalidOption)
}

// TestCorruptRow: a row the store cannot read is reported with its key,
// and the runner stops on a record it cannot decode.
func TestCorruptRow(t *testing.T) {
	db := databases(t)[0].open(t)
	s, err := sqlstore.New(db, &sqlstore.Options{Table: "corrupt"})
	require.NoError(t, err)
	require.NoError(t, s.Migrate(ctx))
	_, err = db.Exec(`INSERT INTO "corrupt_items" (job, id, status, attempt, data) VALUES ('default', 'a', 'lost', 1, x'00')`)
	require.NoError(t, err)
	var rowErr *sqlstore.CorruptRowError
	for _, err := range s.Items(ctx, batch.Filter{}) {
		require.ErrorAs(t, err, &rowErr)
		assert.Equal(t, "a", rowErr.Key)
	}
	_, err = db.Exec(`UPDATE "corrupt_items" SET status = 'pending'`)
	require.NoError(t, err)
	r, err := batch.New(providertest.NewBatcher(nil, nil), s, batch.WithEnforcer(labelEnforcer(t)))
	require.NoError(t, err)
	for _, err := range r.Run(ctx, []batch.Item{{ID: "a", Request: enforce.Request{Prompt: "x"}}}) {
		var recErr *batch.CorruptRecordError
		require.ErrorAs(t, err, &recErr)
	}
	_, err = db.Exec(`INSERT INTO "corrupt_batches" (job, batch_key, batch_id, round, requests) VALUES ('default', 'k', '', 1, 'nope')`)
	require.NoError(t, err)
	for _, err := range s.Batches(ctx) {
		require.ErrorAs(t, err, &rowErr)
		assert.Equal(t, "k", rowErr.Key)
	}
}

func labelEnforcer(t testing.TB) *enforce.Enforcer {
	s, err := schema.Parse([]byte(`{"type": "object", "required": ["label"], "properties": {"label": {"enum": ["spam", "ham"]}}}`))
	require.NoError(t, err)
	e, err := enforce.New(s)
	require.NoError(t, err)
	return e
}

// TestRunnerResumesFromDatabase: a job killed mid-way resumes from the
// database with a new Runner, submits nothing twice and loses nothing.
func TestRunnerResumesFromDatabase(t *testing.T) {
	for _, d := range databases(t) {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t)
			s := newStore(t, db, d.engine, "labels")
			const n = 300
			var its []batch.Item
			for i := range n {
				its = append(its, batch.Item{ID: fmt.Sprintf("m%d", i), Request: enforce.Request{Prompt: fmt.Sprintf("Label %d.", i)}})
			}
			b := providertest.NewBatcher(func(item string, k int) providertest.Reply {
				var i int
				fmt.Sscanf(item, "m%d", &i)
				if k < i%3 {
					return providertest.Text(`{"label": "eggs"}`)
				}
				return providertest.Text(`{"label": "ham"}`)
			}, nil)
			e := labelEnforcer(t)
			got := map[string]batch.Settled{}
			r, err := batch.New(b, s, batch.WithEnforcer(e), batch.WithPollInterval(0))
			require.NoError(t, err)
			for st, err := range r.Run(ctx, its) {
				require.NoError(t, err)
				got[st.ID] = st
				if len(got) == n/2 {
					break // killed
				}
			}
			r, err = batch.New(b, s, batch.WithEnforcer(e), batch.WithPollInterval(0))
			require.NoError(t, err)
			for st, err := range r.Run(ctx, its) {
				require.NoError(t, err)
				_, dup := got[st.ID]
				assert.False(t, dup, st.ID)
				got[st.ID] = st
			}
			require.Len(t, got, n)
			for _, st := range got {
				require.NoError(t, st.Err)
				assert.JSONEq(t, `{"label": "ham"}`, string(st.Result.JSON))
			}
			for id, c := range b.Submitted() {
				assert.Equal(t, 1, c, id)
			}
			assert.Len(t, b.Submissions(), 3)
			listed := 0
			for st, err := range r.Results(ctx) {
				require.NoError(t, err)
				require.NoError(t, st.Err)
				listed++
			}
			assert.Equal(t, n, listed)
		})
	}
}

// TestWriteWhileReading: on a database of one connection, a caller that
// writes from the loop body of Runner.Results (as one that records what
// it exported would) neither deadlocks nor fails. The deadline turns a
// deadlock into a failure.
func TestWriteWhileReading(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "batch.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	s, err := sqlstore.New(db, nil)
	require.NoError(t, err)
	require.NoError(t, s.Migrate(ctx))
	b := providertest.NewBatcher(func(string, int) providertest.Reply { return providertest.Text(`{"label": "ham"}`) }, nil)
	r, err := batch.New(b, s, batch.WithEnforcer(labelEnforcer(t)), batch.WithPollInterval(0))
	require.NoError(t, err)
	var its []batch.Item
	for i := range 600 {
		its = append(its, batch.Item{ID: fmt.Sprintf("m%d", i), Request: enforce.Request{Prompt: fmt.Sprintf("Label %d.", i)}})
	}
	for _, err := range r.Run(ctx, its) {
		require.NoError(t, err)
	}
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	n := 0
	for st, err := range r.Results(dctx) {
		require.NoError(t, err)
		require.NoError(t, s.Save(dctx, batch.Update{Delivered: []string{st.ID}}), "a write from the loop body")
		_, err = db.ExecContext(dctx, `SELECT 1`)
		require.NoError(t, err, "a read of the caller's own")
		n++
	}
	assert.Equal(t, len(its), n)
}

// TestMigrateOverOldTables: over the two tables a version without item
// logs created, holding a record, Migrate adds the logs table and the
// store reads the record and writes logs.
func TestMigrateOverOldTables(t *testing.T) {
	for _, d := range databases(t) {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t)
			table := fmt.Sprintf("batch_%d_%d", os.Getpid(), tableSeq.Add(1))
			t.Cleanup(func() { dropTables(db, table) })
			blob := "BLOB"
			if d.engine == sqlstore.EnginePostgres {
				blob = "BYTEA"
			}
			_, err := db.Exec(`CREATE TABLE "` + table + `_items" (job TEXT NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, attempt INTEGER NOT NULL, data ` + blob + `, PRIMARY KEY (job, id))`)
			require.NoError(t, err)
			_, err = db.Exec(`CREATE TABLE "` + table + `_batches" (job TEXT NOT NULL, batch_key TEXT NOT NULL, batch_id TEXT NOT NULL, round INTEGER NOT NULL, requests TEXT NOT NULL, PRIMARY KEY (job, batch_key))`)
			require.NoError(t, err)
			ph := "?"
			if d.engine == sqlstore.EnginePostgres {
				ph = "$1"
			}
			_, err = db.Exec(`INSERT INTO "`+table+`_items" (job, id, status, attempt, data) VALUES ('default', 'a', 'settled', 1, `+ph+`)`, []byte(`{"old": true}`))
			require.NoError(t, err)
			s, err := sqlstore.New(db, &sqlstore.Options{Table: table, Engine: d.engine})
			require.NoError(t, err)
			require.NoError(t, s.Migrate(ctx))
			require.NoError(t, s.Save(ctx, batch.Update{Logs: []batch.LogEntry{{ID: "a", Data: []byte("entry")}}}))
			n := 0
			for r, err := range s.Items(ctx, batch.Filter{}) {
				require.NoError(t, err)
				assert.Equal(t, []byte(`{"old": true}`), r.Data)
				assert.Equal(t, [][]byte{[]byte("entry")}, r.Log)
				n++
			}
			assert.Equal(t, 1, n)
		})
	}
}
