package sqlregistry

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agentio/agentio/internal/regtime"
	"github.com/agentio/agentio/internal/sqlident"
	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/schema"
)

// An Engine names the database the registry writes SQL for.
type Engine string

// The dialects.
const (
	// EngineSQLite uses ? placeholders (the zero value's choice).
	EngineSQLite Engine = "sqlite"
	// EnginePostgres uses $1, $2, ... placeholders.
	EnginePostgres Engine = "postgres"
)

// DefaultTable is the table a registry uses when Options.Table is empty.
const DefaultTable = "output_schemas"

// Options configures [New]. A nil *Options and the zero value mean the
// defaults.
type Options struct {
	// Table is the table's name, optionally qualified by a schema
	// ("agents.output_schemas"): letters, digits and '_', not starting
	// with a digit. Empty means [DefaultTable].
	Table string
	// Engine is the database's kind. Empty means [EngineSQLite].
	Engine Engine
	// ParseOptions compile the stored schemas on Put, Get and List (a
	// Loader for remote $refs, AssertFormat). Nil means the defaults, so
	// a schema with a remote $ref is refused by Put.
	ParseOptions *schema.ParseOptions
	// Now is the clock for created_at and modified_at. Nil means
	// time.Now.
	Now func() time.Time
}

// ErrInvalidOption is returned by [New] for a table name or dialect it
// cannot use.
var ErrInvalidOption = errors.New("sqlregistry: invalid option")

// A CorruptRowError reports a row that cannot be read back as an entry: a
// schema that does not compile, a timestamp that does not parse. Get and
// List return it; Err is the cause.
type CorruptRowError struct {
	// Name is the row's name.
	Name string
	// Err says what is wrong with it.
	Err error
}

// Error returns "sqlregistry: corrupt row <name>: <cause>".
func (e *CorruptRowError) Error() string {
	return fmt.Sprintf("sqlregistry: corrupt row %q: %v", e.Name, e.Err)
}

// Unwrap returns the cause.
func (e *CorruptRowError) Unwrap() error { return e.Err }

// A Registry is a [registry.ConditionalRegistry] stored in a database table.
// It is safe for concurrent use, and several Registries (in several
// processes) may share one table. Create one with [New].
type Registry struct {
	db    *sql.DB
	table string // quoted
	q     queries
	parse *schema.ParseOptions
	now   func() time.Time

	mu    sync.Mutex
	cache map[string]cached // name -> compiled schema of one version
}

// cached is a compiled schema with the row it was compiled from.
type cached struct {
	modified string
	text     string
	schema   *schema.Schema
}

var _ registry.ConditionalRegistry = (*Registry)(nil)

// queries are the registry's statements, built once for its table and
// dialect.
type queries struct {
	create, get, list, version, insert, update, delete, deleteIf string
}

// New returns a registry over the table of opts in db. It does not touch
// the database: call [Registry.Migrate] to create the table. opts may be
// nil; it is copied. The error wraps [ErrInvalidOption] for a nil db, a
// table name that is not an identifier or an unknown dialect.
func New(db *sql.DB, opts *Options) (*Registry, error) {
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
	if !sqlident.Valid(o.Table, 128) {
		return nil, fmt.Errorf("%w: table name %q is not an identifier (letters, digits and '_', optionally schema.table)", ErrInvalidOption, o.Table)
	}
	ph, ok := sqlident.Placeholders(string(o.Engine))
	if !ok {
		return nil, fmt.Errorf("%w: unknown engine %q (use %q or %q)", ErrInvalidOption, o.Engine, EngineSQLite, EnginePostgres)
	}
	t := sqlident.Quote(o.Table)
	r := &Registry{db: db, table: t, parse: o.ParseOptions, now: o.Now, cache: map[string]cached{}}
	if r.now == nil {
		r.now = time.Now
	}
	cols := "name, description, schema, created_at, modified_at"
	r.q = queries{
		create: "CREATE TABLE IF NOT EXISTS " + t + " (\n" +
			"\tname TEXT PRIMARY KEY,\n\tdescription TEXT NOT NULL,\n\tschema TEXT NOT NULL,\n" +
			"\tcreated_at TEXT NOT NULL,\n\tmodified_at TEXT NOT NULL\n)",
		get:     "SELECT " + cols + " FROM " + t + " WHERE name = " + ph(1),
		list:    "SELECT " + cols + " FROM " + t + " ORDER BY name",
		version: "SELECT modified_at FROM " + t + " WHERE name = " + ph(1),
		insert: "INSERT INTO " + t + " (" + cols + ") VALUES (" + ph(1) + ", " + ph(2) + ", " + ph(3) + ", " + ph(4) + ", " + ph(5) + ")" +
			" ON CONFLICT (name) DO NOTHING",
		update: "UPDATE " + t + " SET description = " + ph(1) + ", schema = " + ph(2) + ", modified_at = " + ph(3) +
			" WHERE name = " + ph(4) + " AND modified_at = " + ph(5),
		delete:   "DELETE FROM " + t + " WHERE name = " + ph(1),
		deleteIf: "DELETE FROM " + t + " WHERE name = " + ph(1) + " AND modified_at = " + ph(2),
	}
	return r, nil
}

// Migrate creates the registry's table when it does not exist. It leaves an
// existing table as it is.
func (r *Registry) Migrate(ctx context.Context) error {
	if _, err := r.db.ExecContext(ctx, r.q.create); err != nil {
		return fmt.Errorf("sqlregistry: migrate %s: %w", r.table, err)
	}
	return nil
}

// Get returns the entry stored under name. The error wraps
// [registry.ErrNotFound] when there is none, [registry.ErrInvalidName] for a
// name no entry can have; it is a [*CorruptRowError] for a row that cannot
// be read back, ctx's error, or the database's, wrapped.
func (r *Registry) Get(ctx context.Context, name string) (*registry.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := registry.ValidateName(name); err != nil {
		return nil, err
	}
	var row rowData
	err := r.db.QueryRowContext(ctx, r.q.get, name).Scan(&row.name, &row.description, &row.schema, &row.created, &row.modified)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("%w: %q", registry.ErrNotFound, name)
	case err != nil:
		return nil, fmt.Errorf("sqlregistry: get %q: %w", name, err)
	}
	return r.entry(row)
}

// List returns every entry, sorted by name. Rows that cannot be read back
// are reported together: the error joins one [*CorruptRowError] per such
// row, and the entries that could be read come with it.
func (r *Registry) List(ctx context.Context) ([]*registry.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, err := r.db.QueryContext(ctx, r.q.list)
	if err != nil {
		return nil, fmt.Errorf("sqlregistry: list: %w", err)
	}
	defer rows.Close()
	var (
		list []*registry.Entry
		errs []error
	)
	for rows.Next() {
		var row rowData
		if err := rows.Scan(&row.name, &row.description, &row.schema, &row.created, &row.modified); err != nil {
			return list, fmt.Errorf("sqlregistry: list: %w", err)
		}
		e, err := r.entry(row)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		list = append(list, e)
	}
	if err := rows.Err(); err != nil {
		return list, fmt.Errorf("sqlregistry: list: %w", err)
	}
	return list, errors.Join(errs...)
}

// Put stores e as [registry.Registry.Put] says. The schema is compiled again
// from its bytes with the registry's ParseOptions, so that what is written
// can be read back; one that does not compile is refused with an
// [*schema.InvalidSchemaError] and nothing is written.
func (r *Registry) Put(ctx context.Context, e *registry.Entry) error {
	return r.put(ctx, e, nil)
}

// PutIf stores e as Put does when the entry stored under e.Name is the
// version modifiedAt, or when there is none and modifiedAt is zero; the
// error wraps [registry.ErrModified] otherwise. See
// [registry.ConditionalRegistry].
func (r *Registry) PutIf(ctx context.Context, e *registry.Entry, modifiedAt time.Time) error {
	return r.put(ctx, e, &modifiedAt)
}

// put is Put, conditional on the stored version when want is not nil. An
// unconditional put that loses a race to another writer reads the new
// version and tries again.
func (r *Registry) put(ctx context.Context, e *registry.Entry, want *time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := registry.ValidateEntry(e); err != nil {
		return err
	}
	text := string(e.Schema.JSON())
	if _, err := schema.ParseWith([]byte(text), r.parse); err != nil {
		return err
	}
	for {
		prev, prevText, found, err := r.version(ctx, e.Name)
		var corrupt *CorruptRowError
		if err != nil && (want != nil || !errors.As(err, &corrupt)) {
			return err // a row with an unreadable version is overwritten by Put only
		}
		if want != nil && !regtime.Same(prev, *want) {
			return modified(e.Name, prev)
		}
		mod := regtime.Next(r.now(), prev).Format(regtime.Layout)
		var res sql.Result
		if found {
			res, err = r.db.ExecContext(ctx, r.q.update, e.Description, text, mod, e.Name, prevText)
		} else {
			res, err = r.db.ExecContext(ctx, r.q.insert, e.Name, e.Description, text, mod, mod)
		}
		if err != nil {
			return fmt.Errorf("sqlregistry: put %q: %w", e.Name, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("sqlregistry: put %q: %w", e.Name, err)
		}
		if n == 1 {
			r.forget(e.Name)
			return nil
		}
		// Another writer changed the row between the read and the write.
		if want != nil {
			latest, _, _, err := r.version(ctx, e.Name)
			if err != nil {
				return err
			}
			return modified(e.Name, latest)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// Delete removes the entry stored under name. The error wraps
// [registry.ErrNotFound] when there is none, [registry.ErrInvalidName] for a
// name no entry can have, or is ctx's error or the database's, wrapped.
func (r *Registry) Delete(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := registry.ValidateName(name); err != nil {
		return err
	}
	res, err := r.db.ExecContext(ctx, r.q.delete, name)
	return r.deleted(name, res, err)
}

// DeleteIf removes the entry stored under name when it is the version
// modifiedAt. The error wraps [registry.ErrNotFound] when there is none,
// [registry.ErrModified] when another version is stored.
func (r *Registry) DeleteIf(ctx context.Context, name string, modifiedAt time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := registry.ValidateName(name); err != nil {
		return err
	}
	prev, prevText, found, err := r.version(ctx, name)
	switch {
	case err != nil:
		return err
	case !found:
		return fmt.Errorf("%w: %q", registry.ErrNotFound, name)
	case !regtime.Same(prev, modifiedAt):
		return modified(name, prev)
	}
	res, err := r.db.ExecContext(ctx, r.q.deleteIf, name, prevText)
	if err = r.deleted(name, res, err); errors.Is(err, registry.ErrNotFound) {
		// Changed or deleted between the read and the write.
		latest, _, still, verr := r.version(ctx, name)
		switch {
		case verr != nil:
			return verr
		case still:
			return modified(name, latest)
		}
	}
	return err
}

// deleted turns a DELETE's outcome into Delete's error.
func (r *Registry) deleted(name string, res sql.Result, err error) error {
	if err != nil {
		return fmt.Errorf("sqlregistry: delete %q: %w", name, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlregistry: delete %q: %w", name, err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %q", registry.ErrNotFound, name)
	}
	r.forget(name)
	return nil
}

// version returns the modified_at stored for name, as a time and as the
// text stored, and whether a row exists.
func (r *Registry) version(ctx context.Context, name string) (time.Time, string, bool, error) {
	var text string
	err := r.db.QueryRowContext(ctx, r.q.version, name).Scan(&text)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return time.Time{}, "", false, nil
	case err != nil:
		return time.Time{}, "", false, fmt.Errorf("sqlregistry: read %q: %w", name, err)
	}
	t, err := parseTime(text)
	if err != nil {
		return time.Time{}, text, true, &CorruptRowError{Name: name, Err: fmt.Errorf("modified_at: %w", err)}
	}
	return t, text, true, nil
}

// rowData is one row as scanned.
type rowData struct {
	name, description, schema, created, modified string
}

// entry turns a row into an Entry, compiling its schema unless the cache
// holds this version.
func (r *Registry) entry(row rowData) (*registry.Entry, error) {
	created, err := parseTime(row.created)
	if err != nil {
		return nil, &CorruptRowError{Name: row.name, Err: fmt.Errorf("created_at: %w", err)}
	}
	mod, err := parseTime(row.modified)
	if err != nil {
		return nil, &CorruptRowError{Name: row.name, Err: fmt.Errorf("modified_at: %w", err)}
	}
	r.mu.Lock()
	c, ok := r.cache[row.name]
	r.mu.Unlock()
	if !ok || c.modified != row.modified || c.text != row.schema {
		s, err := schema.ParseWith([]byte(row.schema), r.parse)
		if err != nil {
			return nil, &CorruptRowError{Name: row.name, Err: err}
		}
		c = cached{modified: row.modified, text: row.schema, schema: s}
		r.mu.Lock()
		r.cache[row.name] = c
		r.mu.Unlock()
	}
	return &registry.Entry{Name: row.name, Description: row.description, Schema: c.schema, CreatedAt: created, ModifiedAt: mod}, nil
}

// forget drops the cached schema of name after a write.
func (r *Registry) forget(name string) {
	r.mu.Lock()
	delete(r.cache, name)
	r.mu.Unlock()
}

// parseTime reads a stored timestamp: the registry's own layout, or any
// RFC 3339 time written by hand.
func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, err
	}
	return t.UTC(), nil
}

// modified returns the error of a conditional write that found another
// version (or none).
func modified(name string, stored time.Time) error {
	if stored.IsZero() {
		return fmt.Errorf("%w: %q is not stored", registry.ErrModified, name)
	}
	return fmt.Errorf("%w: %q was last modified at %s", registry.ErrModified, name, stored.Format(time.RFC3339Nano))
}
