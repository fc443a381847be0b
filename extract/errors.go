package extract

import (
	"errors"
	"fmt"
)

// ErrNoJSON is returned (inside a [*ReplyError]) by [JSON] when the reply holds
// no acceptable JSON value: nothing looked like JSON, or what did failed to
// parse (and to be repaired, when [WithRepair] is on).
var ErrNoJSON = errors.New("extract: no JSON value found in text")

// ErrNonJSONText is returned (inside a [*ReplyError]) by [JSON] under
// [WithStrictJSONOnly] when text other than whitespace, reasoning blocks or a
// single ```json fence surrounds the JSON value.
var ErrNonJSONText = errors.New("extract: text around the JSON value")

// ErrTooLarge is returned, wrapped with the sizes, by [JSON] when the input is
// longer than the maximum size (see [WithMaxSize]). Nothing is searched.
var ErrTooLarge = errors.New("extract: input too large")

// ErrInvalidOption is returned, wrapped with the offending value, by [JSON]
// when an option was given a bad value. Nothing is searched.
var ErrInvalidOption = errors.New("extract: invalid option")

// A ReplyError says why a reply yielded no acceptable JSON, in words that can
// be shown to the model that wrote it. Err is [ErrNoJSON] or [ErrNonJSONText];
// errors.Is matches it through [ReplyError.Unwrap]. A ReplyError is not
// changed after it is returned, so it may be shared between goroutines.
type ReplyError struct {
	// Err is the sentinel: ErrNoJSON or ErrNonJSONText.
	Err error
	// Description is a short model-facing explanation, such as
	// `no JSON object found; the reply began with "I apologize, ..."`.
	Description string
	// Offset is the byte offset in the input the description points at
	// (where a value failed to parse, or where stray text begins), or -1.
	Offset int
}

// Error returns the sentinel's text followed by the description.
func (e *ReplyError) Error() string {
	if e.Description == "" {
		return e.Err.Error()
	}
	return fmt.Sprintf("%s: %s", e.Err.Error(), e.Description)
}

// Unwrap returns Err, so errors.Is(err, ErrNoJSON) works.
func (e *ReplyError) Unwrap() error { return e.Err }
