package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentio/agentio/internal/jsonraw"
	"github.com/agentio/agentio/internal/regtime"
	"github.com/agentio/agentio/schema"
)

// A Dir is a [ConditionalRegistry] that keeps each entry in a file
// <dir>/<name>.json holding the name, the description, the schema as its
// author wrote it, and the created_at and modified_at timestamps (RFC 3339):
//
//	{
//	  "name": "code-analysis-result",
//	  "description": "Standard format for code analysis output",
//	  "schema": {"type": "object", "required": ["summary"]},
//	  "created_at": "2026-01-05T10:00:00Z",
//	  "modified_at": "2026-01-05T10:00:00Z"
//	}
//
// Such files may also be written by hand; other files in the directory are
// ignored. Every Get and List reads and compiles the files again, so
// changes made by other processes are seen at once.
//
// A Dir is safe for concurrent use. Writes are atomic (a temporary
// file renamed over the old one), so a reader, in this process or another,
// sees the old entry or the new one, never a mix. Put and Delete are
// serialised within the process; two processes putting one name at the
// same time both succeed and the last rename wins. Create one with
// [NewDir] and share the pointer; the zero value has no directory
// and its methods return an error wrapping [fs.ErrInvalid].
type Dir struct {
	dir    string
	loader schema.Loader
	mu     sync.Mutex       // serialises Put and Delete
	now    func() time.Time // nil means utcNow; set by tests
}

// DirOptions configures [NewDir]. A nil *DirOptions
// and the zero value mean the defaults.
type DirOptions struct {
	// schema.Loader supplies the documents of remote $refs when a stored schema
	// is compiled on Get and List (see [schema.ParseOptions]). Nil, the default,
	// refuses them, so Put refuses a schema with a remote $ref.
	Loader schema.Loader
}

// A CorruptEntryError reports a file of a [Dir] that cannot be
// read back as an entry: not JSON, without a schema, with a schema that
// does not compile, or with a name that is not its file's. Get and List
// return it; Err is the cause (an [*schema.InvalidSchemaError] for a schema that
// does not compile).
type CorruptEntryError struct {
	// Path is the file's path.
	Path string
	// Err says what is wrong with it.
	Err error
}

// Error returns "registry: corrupt registry file <path>: <cause>".
func (e *CorruptEntryError) Error() string {
	if e.Err == nil {
		return "registry: corrupt registry file " + e.Path
	}
	return "registry: corrupt registry file " + e.Path + ": " + strings.TrimPrefix(e.Err.Error(), "registry: ")
}

// Unwrap returns the cause.
func (e *CorruptEntryError) Unwrap() error { return e.Err }

var _ ConditionalRegistry = (*Dir)(nil)

// NewDir returns a registry stored in dir, creating dir (and its
// parents) when it does not exist. opts may be nil; it is copied. The error
// is the file system's when dir cannot be created or is not a directory.
func NewDir(dir string, opts *DirOptions) (*Dir, error) {
	if dir == "" {
		return nil, fmt.Errorf("registry: registry directory: empty path: %w", fs.ErrInvalid)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("registry: registry directory: %w", err)
	}
	r := &Dir{dir: filepath.Clean(dir)}
	if opts != nil {
		r.loader = opts.Loader
	}
	return r, nil
}

// Dir returns the directory the registry keeps its files in.
func (r *Dir) Dir() string { return r.dir }

// Get reads and compiles the file of name. The error wraps [ErrNotFound]
// when there is none, [ErrInvalidName] for a name no entry can have; it is
// a [*CorruptEntryError] for a file that cannot be read back, ctx's error,
// or the file system's.
func (r *Dir) Get(ctx context.Context, name string) (*Entry, error) {
	if err := r.check(ctx); err != nil {
		return nil, err
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	e, err := r.read(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	return e, err
}

// Put writes e to <dir>/<name>.json as [Registry.Put] says, atomically.
// Besides the errors every Registry returns, the schema is compiled again
// from its bytes (with the registry's schema.Loader) so that what is written can
// be read back: a schema with a remote $ref and no schema.Loader is refused with
// an [*schema.InvalidSchemaError] wrapping [schema.ErrRemoteRef]. CreatedAt is kept from
// the file being replaced, or is the current time when that file is
// missing or corrupt. File system errors are returned wrapped.
func (r *Dir) Put(ctx context.Context, e *Entry) error {
	return r.put(ctx, e, nil)
}

// PutIf writes e as Put does when the file of e.Name holds the version
// modifiedAt, or when there is none and modifiedAt is zero; see
// [ConditionalRegistry]. A file that cannot be read back has no version a
// caller can name, so PutIf refuses to replace it (Put does). The check and
// the write are atomic within the process, not across processes.
func (r *Dir) PutIf(ctx context.Context, e *Entry, modifiedAt time.Time) error {
	return r.put(ctx, e, &modifiedAt)
}

// put is Put, conditional on the stored version when want is not nil.
func (r *Dir) put(ctx context.Context, e *Entry, want *time.Time) error {
	if err := r.check(ctx); err != nil {
		return err
	}
	if err := checkEntry(e); err != nil {
		return err
	}
	src := bytes.TrimSpace(e.Schema.JSON())
	if _, err := schema.ParseWith(src, &schema.ParseOptions{Loader: r.loader}); err != nil {
		return err
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	old, err := r.readFile(e.Name)
	if want != nil {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: %q: %w", ErrModified, e.Name, err)
		}
		if stored := versionOf(old); !regtime.Same(stored, *want) {
			return errModified(e.Name, stored)
		}
	}
	f := entryFile{Name: e.Name, Description: e.Description, ModifiedAt: regtime.Next(r.clock(), versionOf(old))}
	f.CreatedAt = f.ModifiedAt
	if old != nil && !old.CreatedAt.IsZero() {
		f.CreatedAt = old.CreatedAt
	}
	data, err := f.encode(src)
	if err != nil {
		return fmt.Errorf("registry: put %q: %w", e.Name, err)
	}
	if err := r.writeAtomic(e.Name, data); err != nil {
		return fmt.Errorf("registry: put %q: %w", e.Name, err)
	}
	return nil
}

// List reads and compiles every <name>.json file of the directory whose
// name is a valid [Entry.Name], sorted by name. Files that cannot be read
// back are reported together: the error joins one [*CorruptEntryError] per
// such file, and the entries that could be read come with it. A file
// deleted while List runs is left out. The error is otherwise ctx's or the
// file system's.
func (r *Dir) List(ctx context.Context) ([]*Entry, error) {
	if err := r.check(ctx); err != nil {
		return nil, err
	}
	files, err := os.ReadDir(r.dir)
	if err != nil {
		return nil, fmt.Errorf("registry: list registry: %w", err)
	}
	var (
		list []*Entry
		errs []error
	)
	for _, f := range files {
		name, ok := strings.CutSuffix(f.Name(), ".json")
		if !ok || f.IsDir() || checkName(name) != nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			return list, err
		}
		e, err := r.read(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			errs = append(errs, err)
			continue
		}
		list = append(list, e)
	}
	// Not the order of the files: "a-b.json" comes before "a.json".
	slices.SortFunc(list, func(a, b *Entry) int { return strings.Compare(a.Name, b.Name) })
	return list, errors.Join(errs...)
}

// Delete removes the file of name. The error wraps [ErrNotFound] when
// there is none, [ErrInvalidName] for a name no entry can have, or is
// ctx's or the file system's.
func (r *Dir) Delete(ctx context.Context, name string) error {
	return r.delete(ctx, name, nil)
}

// DeleteIf removes the file of name when it holds the version modifiedAt;
// see [ConditionalRegistry] and [Dir.PutIf].
func (r *Dir) DeleteIf(ctx context.Context, name string, modifiedAt time.Time) error {
	return r.delete(ctx, name, &modifiedAt)
}

// delete is Delete, conditional on the stored version when want is not nil.
func (r *Dir) delete(ctx context.Context, name string, want *time.Time) error {
	if err := r.check(ctx); err != nil {
		return err
	}
	if err := checkName(name); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if want != nil {
		old, err := r.readFile(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("%w: %q", ErrNotFound, name)
		case err != nil:
			return fmt.Errorf("%w: %q: %w", ErrModified, name, err)
		case !regtime.Same(old.ModifiedAt, *want):
			return errModified(name, old.ModifiedAt)
		}
	}
	err := os.Remove(r.path(name))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %q", ErrNotFound, name)
	case err != nil:
		return fmt.Errorf("registry: delete %q: %w", name, err)
	}
	return nil
}

// check refuses a cancelled ctx and a registry not made by NewDir.
func (r *Dir) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r.dir == "" {
		return fmt.Errorf("registry: Dir has no directory (use NewDir): %w", fs.ErrInvalid)
	}
	return nil
}

func (r *Dir) path(name string) string { return filepath.Join(r.dir, name+".json") }

func (r *Dir) clock() time.Time {
	if r.now != nil {
		return r.now()
	}
	return utcNow()
}

// versionOf returns the ModifiedAt of a file read by readFile, zero for
// none.
func versionOf(f *entryFile) time.Time {
	if f == nil {
		return time.Time{}
	}
	return f.ModifiedAt.UTC()
}

// read returns the entry in the file of name. The error wraps
// fs.ErrNotExist when there is no such file, is a [*CorruptEntryError]
// when its content is bad, or the file system's.
func (r *Dir) read(name string) (*Entry, error) {
	f, err := r.readFile(name)
	if err != nil {
		return nil, err
	}
	s, err := schema.ParseWith(f.Schema, &schema.ParseOptions{Loader: r.loader})
	if err != nil {
		return nil, &CorruptEntryError{Path: r.path(name), Err: err}
	}
	return &Entry{
		Name:        f.Name,
		Description: f.Description,
		Schema:      s,
		CreatedAt:   f.CreatedAt.UTC(),
		ModifiedAt:  f.ModifiedAt.UTC(),
	}, nil
}

// readFile decodes the file of name without compiling its schema.
func (r *Dir) readFile(name string) (*entryFile, error) {
	path := r.path(name)
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("registry: read registry: %w", err)
	}
	var f entryFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, &CorruptEntryError{Path: path, Err: err}
	}
	switch {
	case f.Name != name:
		return nil, &CorruptEntryError{Path: path, Err: fmt.Errorf("name %q does not match the file name", truncateName(f.Name))}
	case len(f.Schema) == 0 || bytes.Equal(f.Schema, []byte("null")):
		return nil, &CorruptEntryError{Path: path, Err: errors.New("no schema")}
	}
	return &f, nil
}

// writeAtomic writes data to the file of name through a temporary file in
// the same directory, synced and renamed over it. The temporary name starts
// with '.', so List never takes it for an entry, even when a crash leaves
// it behind. Files get the permissions os.Create gives (0666 less umask).
func (r *Dir) writeAtomic(name string, data []byte) (err error) {
	var tmp *os.File
	for range 100 {
		tmpPath := filepath.Join(r.dir, "."+name+".json.tmp"+strconv.FormatUint(rand.Uint64(), 36))
		tmp, err = os.OpenFile(tmpPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), r.path(name))
}

// An entryFile is the content of a [Dir] file.
type entryFile struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	CreatedAt   time.Time       `json:"created_at"`
	ModifiedAt  time.Time       `json:"modified_at"`
}

// encode writes the file with schema, the author's bytes, spliced in as
// they are (json.MarshalIndent would re-indent them), so Get returns the
// schema byte for byte as it was put.
func (f *entryFile) encode(schema []byte) ([]byte, error) {
	created, err := f.CreatedAt.MarshalJSON()
	if err != nil {
		return nil, err
	}
	modified, err := f.ModifiedAt.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "{\n  \"name\": %s,\n  \"description\": %s,\n  \"schema\": %s,\n  \"created_at\": %s,\n  \"modified_at\": %s\n}\n",
		jsonraw.AppendString(nil, f.Name), jsonraw.AppendString(nil, f.Description), schema, created, modified)
	return buf.Bytes(), nil
}
