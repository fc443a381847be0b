// Package sqlregistry keeps named schemas in a database through
// database/sql: a [registry.ConditionalRegistry] over one table, by default
// output_schemas:
//
//	CREATE TABLE output_schemas (
//	    name        TEXT PRIMARY KEY,
//	    description TEXT NOT NULL,
//	    schema      TEXT NOT NULL, -- the JSON Schema as its author wrote it
//	    created_at  TEXT NOT NULL, -- UTC, RFC 3339 with six fraction digits
//	    modified_at TEXT NOT NULL
//	);
//
// The driver is the caller's: open the *sql.DB with any SQLite or
// PostgreSQL driver, then
//
//	r, err := sqlregistry.New(db, &sqlregistry.Options{Engine: sqlregistry.EnginePostgres})
//	if err != nil {
//		return err
//	}
//	if err := r.Migrate(ctx); err != nil { // creates the table if absent
//		return err
//	}
//	err = r.Put(ctx, &registry.Entry{Name: "code-review", Schema: s})
//
// # Behaviour
//
// Every schema is compiled again from its bytes before it is stored, so
// what is written can be read back; a schema that does not compile is an
// [*schema.InvalidSchemaError] and nothing is written. Names follow the
// rules of [registry.Entry.Name] ([registry.ErrInvalidName]). The registry sets
// created_at and modified_at itself; modified_at is the entry's version,
// strictly increasing per name, and [Registry.PutIf] and
// [Registry.DeleteIf] write only when the version stored is the one the
// caller names ([registry.ErrModified] otherwise). Every write is one
// statement whose WHERE clause checks the version it read, so concurrent
// writers, in this process or others sharing the database, never lose an
// update silently: Put retries on a lost race, PutIf reports it.
//
// Compiled schemas are cached per name and version: Get and List compile a
// row only when its modified_at or text changed since it was last read, so
// a write by another process is seen at the next read.
package sqlregistry
