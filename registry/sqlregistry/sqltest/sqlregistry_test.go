package sqltest

import (
	"context"
	"database/sql"
	"errors"
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

	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/registry/registrytest"
	"github.com/agentio/agentio/registry/sqlregistry"
	"github.com/agentio/agentio/schema"
)

// database is one real database the tests run on: each call of open
// returns a registry over a new, empty table of it.
type database struct {
	name    string
	dialect sqlregistry.Engine
	open    func(t *testing.T) *sql.DB
}

var tableSeq atomic.Int64

func databases(t *testing.T) []database {
	dbs := []database{{
		name:    "sqlite",
		dialect: sqlregistry.EngineSQLite,
		open: func(t *testing.T) *sql.DB {
			path := filepath.Join(t.TempDir(), "registry.db")
			db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
			require.NoError(t, err)
			t.Cleanup(func() { db.Close() })
			return db
		},
	}}
	if dsn := os.Getenv("AGENTIO_TEST_POSTGRES"); dsn != "" {
		dbs = append(dbs, database{
			name:    "postgres",
			dialect: sqlregistry.EnginePostgres,
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

// newRegistry returns a migrated registry over a fresh table of db, dropped
// when the test ends.
func newRegistry(t *testing.T, db *sql.DB, d sqlregistry.Engine, opts *sqlregistry.Options) *sqlregistry.Registry {
	t.Helper()
	var o sqlregistry.Options
	if opts != nil {
		o = *opts
	}
	o.Engine = d
	if o.Table == "" {
		o.Table = fmt.Sprintf("schemas_%d_%d", os.Getpid(), tableSeq.Add(1))
	}
	r, err := sqlregistry.New(db, &o)
	require.NoError(t, err)
	require.NoError(t, r.Migrate(context.Background()))
	require.NoError(t, r.Migrate(context.Background()), "Migrate is idempotent")
	t.Cleanup(func() { db.Exec(`DROP TABLE "` + o.Table + `"`) })
	return r
}

func TestConformance(t *testing.T) {
	for _, d := range databases(t) {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t)
			registrytest.Run(t, func(t *testing.T) registry.Registry { return newRegistry(t, db, d.dialect, nil) })
		})
	}
}

func mustParse(t *testing.T, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

// TestSharedTable checks two registries over one table, as two processes
// would have: each sees the other's writes at once, through its cache.
func TestSharedTable(t *testing.T) {
	for _, d := range databases(t) {
		t.Run(d.name, func(t *testing.T) {
			ctx := context.Background()
			db := d.open(t)
			a := newRegistry(t, db, d.dialect, &sqlregistry.Options{Table: "shared_" + d.name})
			b, err := sqlregistry.New(db, &sqlregistry.Options{Table: "shared_" + d.name, Engine: d.dialect})
			require.NoError(t, err)

			require.NoError(t, a.Put(ctx, &registry.Entry{Name: "s", Schema: mustParse(t, `{"type":"string"}`)}))
			got, err := b.Get(ctx, "s")
			require.NoError(t, err)
			assert.Equal(t, `{"type":"string"}`, string(got.Schema.JSON()))

			require.NoError(t, b.Put(ctx, &registry.Entry{Name: "s", Schema: mustParse(t, `{"type":"integer"}`)}))
			got, err = a.Get(ctx, "s")
			require.NoError(t, err)
			assert.Equal(t, `{"type":"integer"}`, string(got.Schema.JSON()), "a's cache is not stale")

			// A stale version from a is refused once b wrote.
			err = a.PutIf(ctx, &registry.Entry{Name: "s", Schema: mustParse(t, `{}`)}, got.ModifiedAt.Add(-time.Second))
			assert.ErrorIs(t, err, registry.ErrModified)
			require.NoError(t, b.Delete(ctx, "s"))
			_, err = a.Get(ctx, "s")
			assert.ErrorIs(t, err, registry.ErrNotFound)
		})
	}
}

// TestPutRefusesBadSchemas checks that nothing is written for a schema
// that cannot be read back.
func TestPutRefusesBadSchemas(t *testing.T) {
	ctx := context.Background()
	for _, d := range databases(t) {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t)
			r := newRegistry(t, db, d.dialect, nil)
			s, err := schema.ParseWith([]byte(`{"$ref":"https://example.com/s.json"}`), &schema.ParseOptions{
				Loader: func(string) ([]byte, error) { return []byte(`{"type":"string"}`), nil },
			})
			require.NoError(t, err)
			err = r.Put(ctx, &registry.Entry{Name: "remote", Schema: s})
			var ie *schema.InvalidSchemaError
			require.True(t, errors.As(err, &ie), "%v", err)
			assert.ErrorIs(t, err, schema.ErrRemoteRef)
			_, err = r.Get(ctx, "remote")
			assert.ErrorIs(t, err, registry.ErrNotFound, "nothing was written")

			// With the loader in ParseOptions it is stored and read back.
			r = newRegistry(t, db, d.dialect, &sqlregistry.Options{ParseOptions: &schema.ParseOptions{
				Loader: func(string) ([]byte, error) { return []byte(`{"type":"string"}`), nil },
			}})
			require.NoError(t, r.Put(ctx, &registry.Entry{Name: "remote", Schema: s}))
			got, err := r.Get(ctx, "remote")
			require.NoError(t, err)
			vs, err := got.Schema.ValidateJSON([]byte(`1`))
			require.NoError(t, err)
			assert.NotEmpty(t, vs)
		})
	}
}

// TestCorruptRows checks rows written by hand that cannot be read back:
// Get reports the row, List the others with the error.
func TestCorruptRows(t *testing.T) {
	ctx := context.Background()
	for _, d := range databases(t) {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t)
			table := fmt.Sprintf("corrupt_%d_%d", os.Getpid(), tableSeq.Add(1))
			r := newRegistry(t, db, d.dialect, &sqlregistry.Options{Table: table})
			require.NoError(t, r.Put(ctx, &registry.Entry{Name: "good", Schema: mustParse(t, `{}`)}))
			insert := `INSERT INTO "` + table + `" (name, description, schema, created_at, modified_at) VALUES ($1, '', $2, $3, $3)`
			if d.dialect == sqlregistry.EngineSQLite {
				insert = `INSERT INTO "` + table + `" (name, description, schema, created_at, modified_at) VALUES (?1, '', ?2, ?3, ?3)`
			}
			_, err := db.Exec(insert, "bad-schema", `{"type":"strin"}`, "2026-01-05T10:00:00Z")
			require.NoError(t, err)
			_, err = db.Exec(insert, "bad-time", `{}`, "yesterday")
			require.NoError(t, err)
			_, err = db.Exec(insert, "by-hand", `{"type":"string"}`, "2026-01-05T10:00:00+01:00")
			require.NoError(t, err)

			_, err = r.Get(ctx, "bad-schema")
			var ce *sqlregistry.CorruptRowError
			require.True(t, errors.As(err, &ce), "%v", err)
			assert.Equal(t, "bad-schema", ce.Name)
			var ie *schema.InvalidSchemaError
			assert.True(t, errors.As(err, &ie))

			list, err := r.List(ctx)
			require.Error(t, err)
			assert.Contains(t, err.Error(), `"bad-schema"`)
			assert.Contains(t, err.Error(), `"bad-time"`)
			var names []string
			for _, e := range list {
				names = append(names, e.Name)
			}
			assert.Equal(t, []string{"by-hand", "good"}, names)

			// A hand-written RFC 3339 time is a version like any other.
			e, err := r.Get(ctx, "by-hand")
			require.NoError(t, err)
			assert.Equal(t, time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC), e.ModifiedAt)
			require.NoError(t, r.PutIf(ctx, &registry.Entry{Name: "by-hand", Schema: mustParse(t, `{}`)}, e.ModifiedAt))
			require.NoError(t, r.Put(ctx, &registry.Entry{Name: "bad-time", Schema: mustParse(t, `{}`)}), "Put overwrites a row with a bad time")
		})
	}
}

func TestNewOptions(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	require.NoError(t, err)
	defer db.Close()
	for _, o := range []*sqlregistry.Options{
		{Table: "output schemas"},
		{Table: `x"; DROP TABLE y; --`},
		{Table: "1st"},
		{Table: "a.b.c"},
		{Engine: "oracle"},
	} {
		_, err := sqlregistry.New(db, o)
		assert.ErrorIs(t, err, sqlregistry.ErrInvalidOption, "%+v", o)
	}
	_, err = sqlregistry.New(nil, nil)
	assert.ErrorIs(t, err, sqlregistry.ErrInvalidOption)
	r, err := sqlregistry.New(db, nil)
	require.NoError(t, err)
	require.NoError(t, r.Migrate(context.Background()))
	_, err = db.Exec(`SELECT name, description, schema, created_at, modified_at FROM output_schemas`)
	assert.NoError(t, err, "the default table is output_schemas")
}

// TestTimestamps checks the registry's clock and the stored text form.
func TestTimestamps(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "t.db"))
	require.NoError(t, err)
	defer db.Close()
	fixed := time.Date(2026, 1, 5, 10, 0, 0, 123456789, time.UTC)
	r, err := sqlregistry.New(db, &sqlregistry.Options{Now: func() time.Time { return fixed }})
	require.NoError(t, err)
	require.NoError(t, r.Migrate(ctx))
	for range 3 {
		require.NoError(t, r.Put(ctx, &registry.Entry{Name: "s", Schema: mustParse(t, `{}`)}))
	}
	var created, modified string
	require.NoError(t, db.QueryRow(`SELECT created_at, modified_at FROM output_schemas WHERE name = 's'`).Scan(&created, &modified))
	assert.Equal(t, "2026-01-05T10:00:00.123456Z", created)
	assert.Equal(t, "2026-01-05T10:00:00.123458Z", modified, "a clock that does not move still gives each write its own version")
}
