package registry

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrModified is returned (wrapped, with the name) by
// [ConditionalRegistry.PutIf] and [ConditionalRegistry.DeleteIf] when the
// entry stored is not the version the caller named: it was modified or
// deleted since, or (for a create) one exists already.
var ErrModified = errors.New("registry: schema is not the version given")

// A ConditionalRegistry is a [Registry] whose writes can be made
// conditional on the version stored, for optimistic concurrency: read an
// entry, change it, and write it back only if nobody wrote in between.
// An entry's version is its ModifiedAt, which such a registry keeps
// strictly increasing for each name, at microsecond precision, so that two
// writes never share one. [Memory], [Dir] and the
// database/sql registry of package sqlregistry are ConditionalRegistries.
type ConditionalRegistry interface {
	Registry
	// PutIf stores e as Put does, but only when the entry stored under
	// e.Name was last modified at modifiedAt (compared at microsecond
	// precision); the zero modifiedAt means only when no entry of that name
	// is stored. Otherwise it stores nothing and the error wraps
	// ErrModified.
	PutIf(ctx context.Context, e *Entry, modifiedAt time.Time) error
	// DeleteIf removes the entry stored under name, but only when it was
	// last modified at modifiedAt. The error wraps ErrNotFound when there
	// is no entry, ErrModified when there is another version.
	DeleteIf(ctx context.Context, name string, modifiedAt time.Time) error
}

// ValidateName returns an error wrapping [ErrInvalidName] when name breaks
// the rules of [Entry.Name], and nil otherwise. Registries outside this
// package use it so that every registry accepts the same names.
func ValidateName(name string) error { return checkName(name) }

// ValidateEntry returns the error a [Registry]'s Put must return for e
// before storing anything: a nil entry or a bad name ([ErrInvalidName]), a
// nil schema (an [*schema.InvalidSchemaError]); nil when e may be stored.
func ValidateEntry(e *Entry) error { return checkEntry(e) }

// errModified returns the error of a conditional write that found another
// version.
func errModified(name string, stored time.Time) error {
	if stored.IsZero() {
		return fmt.Errorf("%w: %q is not stored", ErrModified, name)
	}
	return fmt.Errorf("%w: %q was last modified at %s", ErrModified, name, stored.Format(time.RFC3339Nano))
}
