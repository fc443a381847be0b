package schema

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned (wrapped, with the name) by [Registry.Get] and
// [Registry.Delete] when no schema of that name is stored.
var ErrNotFound = errors.New("schema: named schema not found")

// A Registry stores named schemas, so that a run can ask for its output
// schema by name ("code-review-findings") instead of sending it inline.
//
// Implementations must be safe for concurrent use.
type Registry interface {
	// Get returns the entry stored under name, or an error wrapping
	// ErrNotFound.
	Get(ctx context.Context, name string) (*Entry, error)
	// Put stores e under e.Name, replacing an entry of that name (keeping
	// its CreatedAt). It refuses an invalid name or an entry without a
	// schema.
	Put(ctx context.Context, e *Entry) error
	// List returns every entry, sorted by name.
	List(ctx context.Context) ([]*Entry, error)
	// Delete removes the entry stored under name, or returns an error
	// wrapping ErrNotFound.
	Delete(ctx context.Context, name string) error
}

// An Entry is a named schema in a [Registry].
type Entry struct {
	// Name identifies the schema: letters, digits, '-', '_' and '.', not
	// starting with '.' (so it is safe as a file name).
	Name string `json:"name"`
	// Description says what the schema is for.
	Description string `json:"description,omitempty"`
	// Schema is the compiled schema.
	Schema *Schema `json:"schema"`
	// CreatedAt and ModifiedAt are set by the registry.
	CreatedAt  time.Time `json:"created_at"`
	ModifiedAt time.Time `json:"modified_at"`
}
