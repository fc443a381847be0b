package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentio/agentio/internal/clip"
	"github.com/agentio/agentio/schema"
)

// ErrNotFound is returned (wrapped, with the name) by [Registry.Get] and
// [Registry.Delete] when no schema of that name is stored.
var ErrNotFound = errors.New("registry: schema not found")

// ErrInvalidName is returned (wrapped, with the name and the rule it
// breaks) by every [Registry] method given a name that [Entry.Name] does
// not allow, and by Put for a nil entry.
var ErrInvalidName = errors.New("registry: invalid schema name")

// A Registry stores named schemas, so that a run can ask for its output
// schema by name ("code-review-findings") instead of sending it inline.
// [NewMemory] keeps them in memory, [NewDir] in a
// directory.
//
// Implementations must be safe for concurrent use, must never hand out an
// Entry they keep (callers may modify what they get), and must check ctx
// before doing any work.
type Registry interface {
	// Get returns a copy of the entry stored under name. The error wraps
	// ErrNotFound when there is none, ErrInvalidName for a name no entry
	// can have.
	Get(ctx context.Context, name string) (*Entry, error)
	// Put stores a copy of e under e.Name, replacing an entry of that
	// name. It sets the stored entry's ModifiedAt to the current time and
	// its CreatedAt to that of the entry it replaces, or to ModifiedAt for
	// a new name; the CreatedAt and ModifiedAt of e are ignored and e is
	// not modified. It refuses a name [Entry.Name] does not allow
	// (ErrInvalidName) and an entry whose schema.Schema is nil or cannot be
	// stored in compiled form (an [*schema.InvalidSchemaError]).
	Put(ctx context.Context, e *Entry) error
	// List returns a copy of every entry, sorted by name. An
	// implementation that can fail on one entry (a corrupt file) returns
	// the entries it could read together with the error.
	List(ctx context.Context) ([]*Entry, error)
	// Delete removes the entry stored under name. The error wraps
	// ErrNotFound when there is none, ErrInvalidName for a name no entry
	// can have.
	Delete(ctx context.Context, name string) error
}

// An Entry is a named schema in a [Registry]. Its JSON form, with the
// schema as its author wrote it, is the one [Dir] stores:
//
//	{"name": "...", "description": "...", "schema": {...}, "created_at": "...", "modified_at": "..."}
type Entry struct {
	// Name identifies the schema. It is 1 to 128 characters from a-z, 0-9,
	// '-', '_' and '.', starting with a letter or digit and not ending
	// with '.', and is not a device name of Windows ("con", "nul.json").
	// Names are lower case because they are file names for [Dir],
	// and some file systems do not tell "Report" from "report".
	Name string `json:"name"`
	// Description says what the schema is for; it may be empty.
	Description string `json:"description,omitempty"`
	// schema.Schema is the compiled schema. It is immutable, so copies of an
	// Entry share it.
	Schema *schema.Schema `json:"schema"`
	// CreatedAt is when the name was first stored, in UTC; set by the
	// registry.
	CreatedAt time.Time `json:"created_at"`
	// ModifiedAt is when the entry was last stored, in UTC; set by the
	// registry.
	ModifiedAt time.Time `json:"modified_at"`
}

// maxNameLen bounds [Entry.Name], leaving room for ".json" and a temporary
// suffix within the 255 bytes most file systems allow.
const maxNameLen = 128

// windowsDeviceNames cannot be file names on Windows, with any extension.
var windowsDeviceNames = map[string]bool{
	"con": true, "prn": true, "aux": true, "nul": true,
	"com1": true, "com2": true, "com3": true, "com4": true, "com5": true,
	"com6": true, "com7": true, "com8": true, "com9": true,
	"lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true, "lpt5": true,
	"lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true,
}

// checkName returns an error wrapping [ErrInvalidName] when name breaks
// the rules of [Entry.Name].
func checkName(name string) error {
	invalid := func(rule string) error {
		return fmt.Errorf("%w %q: %s", ErrInvalidName, truncateName(name), rule)
	}
	switch {
	case name == "":
		return invalid("empty")
	case len(name) > maxNameLen:
		return invalid(fmt.Sprintf("longer than %d characters", maxNameLen))
	case !isLowerAlnum(name[0]):
		return invalid("must start with a-z or 0-9")
	case name[len(name)-1] == '.':
		return invalid("must not end with '.'")
	}
	for _, r := range name {
		if r >= utf8.RuneSelf || !isLowerAlnum(byte(r)) && r != '-' && r != '_' && r != '.' {
			return invalid(fmt.Sprintf("character %q not allowed (only a-z, 0-9, '-', '_' and '.')", r))
		}
	}
	if base, _, _ := strings.Cut(name, "."); windowsDeviceNames[base] {
		return invalid("reserved as a device name on Windows")
	}
	return nil
}

// truncateName cuts a long name short for an error message.
func truncateName(name string) string {
	if head, ok := clip.Head(name, 64); ok {
		return head + "..."
	}
	return name
}

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// checkEntry returns an error when a Registry must refuse to store e: a nil
// entry or a bad name ([ErrInvalidName]), a nil schema
// ([*schema.InvalidSchemaError]).
func checkEntry(e *Entry) error {
	if e == nil {
		return fmt.Errorf("%w: nil entry", ErrInvalidName)
	}
	if err := checkName(e.Name); err != nil {
		return err
	}
	if e.Schema == nil {
		return &schema.InvalidSchemaError{Path: "$", Reason: fmt.Sprintf("entry %q has no schema", e.Name)}
	}
	return nil
}

// utcNow is the clock registries use unless a test sets theirs.
func utcNow() time.Time { return time.Now().UTC() }
