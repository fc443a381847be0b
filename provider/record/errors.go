package record

import (
	"errors"
	"fmt"
)

// ErrInvalidOption is returned (wrapped, saying what is wrong) by [New]
// for a policy, store directory, provider or [Options] it cannot work with.
var ErrInvalidOption = errors.New("record: invalid option")

// ErrMiss matches (errors.Is) the [*MissError] a replay returns when the
// store has no recording for a request. It is never returned alone.
var ErrMiss = errors.New("record: no recording for the request")

// ErrSecret is returned (wrapped) by a recording call when the bytes about
// to be written still contain one of [Options.Secrets] after redaction: a
// last guard, which redaction should make unreachable. The file is not
// written. Generate returns the call's reply beside it; a stream ends with
// it in place of its final chunk or error.
var ErrSecret = errors.New("record: a secret would be written to the store")

// A MissError is returned by a replay (in [Replay], or a
// [RecordMissing] stream that reads past where its recording stops)
// that has no recording to answer with. It matches [ErrMiss]. It names the
// first field where the request differs from the nearest recording: of the
// recordings of the same model (or of any model, when none has it), the one
// with the most leaf values (strings, numbers, booleans, nulls) equal at the
// same paths, the lowest key on a tie. Only this package makes one; a
// zero MissError reads as a miss in an unnamed store. Like the other
// errors here, it is not changed once returned and may be shared between
// goroutines.
type MissError struct {
	// Key is the key of the request that missed.
	Key string
	// Dir is the store.
	Dir string
	// Nearest is the key of the nearest recording; empty when the store
	// holds none.
	Nearest string
	// Field is the path of the first field, in the order of the request's
	// fields, where the request differs from the nearest recording
	// ("$.messages[2].content"); empty when there is no nearest recording,
	// or when the recording exists but stops before the caller did (Reason).
	Field string
	// Recorded and Requested are the values at Field, as JSON, cut short;
	// "(absent)" when one side has no such field.
	Recorded, Requested string
	// Reason, when set, says why an existing recording could not answer.
	Reason string
}

// Error returns "record: no recording for the request <key> in <dir>",
// followed by ": <field>: recorded <value> vs <value>" when a nearest
// recording differs, or by the Reason.
func (e *MissError) Error() string {
	s := fmt.Sprintf("record: no recording for the request %.12s in %s", e.Key, e.Dir)
	switch {
	case e.Reason != "":
		s += ": " + e.Reason
	case e.Field != "":
		s += fmt.Sprintf(": %s: recorded %s vs %s (nearest %.12s)", e.Field, e.Recorded, e.Requested, e.Nearest)
	case e.Nearest == "":
		s += ": the store holds no recording"
	}
	return s
}

// Is reports whether target is [ErrMiss].
func (e *MissError) Is(target error) bool { return target == ErrMiss }

// A FileError is a store file that cannot be read as a recording: it is
// not JSON of the store's shape, its version is unknown, or its key is not
// the hash of the request it holds (it was edited by hand). A replay that
// finds one returns it; Record overwrites it.
type FileError struct {
	// Path is the file.
	Path string
	// Err says what is wrong.
	Err error
}

// Error returns "record: <path>: <what is wrong>".
func (e *FileError) Error() string {
	if e.Err == nil {
		return "record: " + e.Path + ": not a recording"
	}
	return "record: " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *FileError) Unwrap() error { return e.Err }

// A ReplayedError (its zero value an error with empty text and no cause)
// is a recorded call's failure, replayed: the call failed
// with an error other than a bare *provider.Error, kept as its text. When
// the original error's chain held a *provider.Error, Err is a copy of it,
// so errors.Is(err, provider.ErrRateLimited) and errors.As still hold. A
// bare *provider.Error is replayed as a *provider.Error.
type ReplayedError struct {
	// Message is the original error's text.
	Message string
	// Err is the *provider.Error the original chain held, or nil.
	Err error
}

// Error returns the original error's text.
func (e *ReplayedError) Error() string { return e.Message }

// Unwrap returns Err.
func (e *ReplayedError) Unwrap() error { return e.Err }
