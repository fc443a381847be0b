package inputs

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/agentio/agentio/internal/clip"
)

// ErrNoPrompt is returned (wrapped, with the key it looked for) by [Format]
// and [FormatJSON] when the parameters hold no prompt or the prompt is not a
// string. The prompt key is "prompt" unless [WithPromptKey] names another.
var ErrNoPrompt = errors.New("inputs: no prompt")

// ErrInvalidKey is the reason inside a [*KeyError] for a parameter name that
// is not a simple identifier (see the package documentation, "Security").
var ErrInvalidKey = errors.New("inputs: invalid parameter name")

// ErrDuplicateKey is the reason inside a [*KeyError] for a parameter name
// that occurs twice: in the JSON object given to [FormatJSON], or in the
// block read by [Parse].
var ErrDuplicateKey = errors.New("inputs: duplicate parameter name")

// ErrInvalidOption is returned (wrapped, with what was wrong) by [Format]
// and [FormatJSON] when an option was given a bad value, before anything is
// rendered.
var ErrInvalidOption = errors.New("inputs: invalid option")

// ErrNotJSON is returned by [FormatJSON] when its input is not JSON. The
// error wraps both this sentinel and encoding/json's *json.SyntaxError, so
// errors.As finds the byte offset.
var ErrNotJSON = errors.New("inputs: invalid JSON")

// ErrNotObject is returned by [FormatJSON] when its input is JSON but not an
// object.
var ErrNotObject = errors.New("inputs: parameters are not a JSON object")

// A KeyError reports a parameter name that cannot be rendered or read back.
// Err is [ErrInvalidKey] or [ErrDuplicateKey]; errors.Is matches it through
// Unwrap.
type KeyError struct {
	// Key is the offending parameter name.
	Key string
	// Err is the reason: ErrInvalidKey or ErrDuplicateKey.
	Err error
}

// Error returns the reason and the quoted key.
func (e *KeyError) Error() string {
	return fmt.Sprintf("%v %s", e.Err, strconv.Quote(shorten(e.Key)))
}

// Unwrap returns the reason, [ErrInvalidKey] or [ErrDuplicateKey].
func (e *KeyError) Unwrap() error { return e.Err }

// A ValueError reports a parameter value that has no JSON form (a channel, a
// function, a NaN or infinite float, an invalid json.Number or
// json.RawMessage, a cyclic structure). Err is the cause, usually from
// encoding/json.
type ValueError struct {
	// Key is the parameter whose value failed.
	Key string
	// Err is the cause.
	Err error
}

// Error names the parameter and the cause.
func (e *ValueError) Error() string {
	return fmt.Sprintf("inputs: parameter %s: %v", strconv.Quote(shorten(e.Key)), e.Err)
}

// Unwrap returns the cause.
func (e *ValueError) Unwrap() error { return e.Err }

// A SyntaxError reports where [Parse] found text that [Format] would not
// have written inside an `<inputs>` block.
type SyntaxError struct {
	// Line is the 1-based line of the text where the problem is.
	Line int
	// Msg says what is wrong (it names the key when Err is set).
	Msg string
	// Err is a [*KeyError] when the problem is a parameter name, else nil.
	Err error
}

// Error returns the line and what is wrong.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("inputs: line %d: %s", e.Line, e.Msg)
}

// Unwrap returns the [*KeyError] behind the problem, or nil.
func (e *SyntaxError) Unwrap() error { return e.Err }

// shorten shortens s for an error message, cutting between characters; the
// full value stays with the caller.
func shorten(s string) string {
	if head, ok := clip.Head(s, 64); ok {
		return head + "..."
	}
	return s
}
