package registry

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentio/agentio/internal/regtime"
)

// A Memory is a [ConditionalRegistry] that keeps its entries in memory, for
// tests and for hosts that load their schemas at start-up. It is safe for
// concurrent use. The zero value is an empty registry ready to use; a
// Memory must not be copied after first use.
type Memory struct {
	mu      sync.RWMutex
	entries map[string]Entry
	now     func() time.Time // nil means utcNow; set by tests
}

var _ ConditionalRegistry = (*Memory)(nil)

// NewMemory returns an empty [Memory].
func NewMemory() *Memory { return &Memory{} }

// Get returns a copy of the entry stored under name. The error wraps
// [ErrNotFound] when there is none, [ErrInvalidName] for a name no entry
// can have, or is ctx's error.
func (r *Memory) Get(ctx context.Context, name string) (*Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	r.mu.RLock()
	e, ok := r.entries[name]
	r.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	return &e, nil
}

// Put stores a copy of e as [Registry.Put] says: e is not modified, the
// stored entry gets the registry's timestamps, and a nil schema or a bad
// name is refused. The schema.Schema is kept as it is (a *schema.Schema is immutable),
// so one compiled with a [schema.Loader] may be stored.
func (r *Memory) Put(ctx context.Context, e *Entry) error {
	return r.put(ctx, e, nil)
}

// PutIf stores e as Put does when the entry stored under e.Name is the
// version modifiedAt, or when there is none and modifiedAt is zero; see
// [ConditionalRegistry].
func (r *Memory) PutIf(ctx context.Context, e *Entry, modifiedAt time.Time) error {
	return r.put(ctx, e, &modifiedAt)
}

// put is Put, conditional on the stored version when want is not nil.
func (r *Memory) put(ctx context.Context, e *Entry, want *time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkEntry(e); err != nil {
		return err
	}
	stored := Entry{Name: e.Name, Description: e.Description, Schema: e.Schema}
	r.mu.Lock()
	defer r.mu.Unlock()
	old, ok := r.entries[e.Name]
	if want != nil && !regtime.Same(old.ModifiedAt, *want) {
		return errModified(e.Name, old.ModifiedAt)
	}
	stored.ModifiedAt = regtime.Next(r.clock(), old.ModifiedAt)
	stored.CreatedAt = stored.ModifiedAt
	if ok {
		stored.CreatedAt = old.CreatedAt
	}
	if r.entries == nil {
		r.entries = make(map[string]Entry)
	}
	r.entries[e.Name] = stored
	return nil
}

// List returns a copy of every entry, sorted by name; the error is only
// ever ctx's.
func (r *Memory) List(ctx context.Context) ([]*Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.mu.RLock()
	list := make([]*Entry, 0, len(r.entries))
	for _, e := range r.entries {
		list = append(list, &e)
	}
	r.mu.RUnlock()
	slices.SortFunc(list, func(a, b *Entry) int { return strings.Compare(a.Name, b.Name) })
	return list, nil
}

// Delete removes the entry stored under name. The error wraps
// [ErrNotFound] when there is none, [ErrInvalidName] for a name no entry
// can have, or is ctx's error.
func (r *Memory) Delete(ctx context.Context, name string) error {
	return r.delete(ctx, name, nil)
}

// DeleteIf removes the entry stored under name when it is the version
// modifiedAt; see [ConditionalRegistry].
func (r *Memory) DeleteIf(ctx context.Context, name string, modifiedAt time.Time) error {
	return r.delete(ctx, name, &modifiedAt)
}

// delete is Delete, conditional on the stored version when want is not nil.
func (r *Memory) delete(ctx context.Context, name string, want *time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkName(name); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old, ok := r.entries[name]
	if !ok {
		return fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if want != nil && !regtime.Same(old.ModifiedAt, *want) {
		return errModified(name, old.ModifiedAt)
	}
	delete(r.entries, name)
	return nil
}

func (r *Memory) clock() time.Time {
	if r.now != nil {
		return r.now()
	}
	return utcNow()
}
