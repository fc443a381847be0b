package jsonraw

import "errors"

// ErrNotObject is returned by [Members] for data that is one valid JSON
// value but not an object (an array, a string, a number, true, false or
// null). Nothing is returned beside it.
var ErrNotObject = errors.New("jsonraw: not a JSON object")

// A SyntaxError is returned by [Members] for data that is not exactly one
// JSON value: malformed or empty input, or a valid value followed by more
// than white space. Nothing is returned beside it.
type SyntaxError struct {
	// Reason says what is wrong, without a package prefix, for callers to
	// put in their own messages: encoding/json's text ("invalid character
	// 'x' looking for beginning of value", "unexpected end of JSON input"),
	// or "data after the top-level value".
	Reason string
	// Err is encoding/json's *json.SyntaxError for the data, whose Offset
	// says where reading failed.
	Err error
}

// Error returns "jsonraw: invalid JSON: " and the reason.
func (e *SyntaxError) Error() string { return "jsonraw: invalid JSON: " + e.Reason }

// Unwrap returns Err, the *json.SyntaxError, for errors.As.
func (e *SyntaxError) Unwrap() error { return e.Err }
