package extract

// A FixKind names one kind of change repair makes. Its value is a stable
// snake_case word, fit for logs and JSON.
type FixKind string

// The kinds of fix that [WithRepair] applies.
const (
	// FixTrailingComma marks a comma that was removed because no member or
	// element followed it (before a closing bracket) or preceded it.
	FixTrailingComma FixKind = "trailing_comma"
	// FixMissingComma marks a comma inserted between two members or elements.
	FixMissingComma FixKind = "missing_comma"
	// FixMissingColon marks a colon inserted between a key and its value.
	FixMissingColon FixKind = "missing_colon"
	// FixComment marks a removed //, # or /* */ comment.
	FixComment FixKind = "comment"
	// FixSingleQuote marks a string delimited by single quotes that was
	// requoted with double quotes.
	FixSingleQuote FixKind = "single_quote"
	// FixSmartQuote marks a string delimited by typographic quotes (“ ” ‘ ’ „)
	// that was requoted with double quotes.
	FixSmartQuote FixKind = "smart_quote"
	// FixUnquotedKey marks an object key without quotes that was quoted.
	FixUnquotedKey FixKind = "unquoted_key"
	// FixUnquotedString marks a bare word or phrase standing for a string
	// value that was quoted.
	FixUnquotedString FixKind = "unquoted_string"
	// FixMissingQuote marks a string's missing opening or closing quote that
	// was supplied.
	FixMissingQuote FixKind = "missing_quote"
	// FixEscapedJSON marks a string written as escaped JSON text (\"key\")
	// that was read as a plain string.
	FixEscapedJSON FixKind = "escaped_json"
	// FixPythonLiteral marks True, False or None (or TRUE, Null and
	// JavaScript's undefined) replaced with true, false or null.
	FixPythonLiteral FixKind = "python_literal"
	// FixStringEscape marks a raw newline, tab or other control character,
	// an unescaped quote or an invalid escape inside a string that was
	// escaped.
	FixStringEscape FixKind = "string_escape"
	// FixNonFinite marks NaN, Infinity or -Infinity replaced with null.
	FixNonFinite FixKind = "non_finite"
	// FixNumber marks a number in a form JSON lacks (+1, .5, 1., 1e, a lone
	// minus) rewritten as JSON.
	FixNumber FixKind = "number"
	// FixEllipsis marks a removed "..." placeholder for omitted items.
	FixEllipsis FixKind = "ellipsis"
	// FixMissingValue marks a key without a value that was given null.
	FixMissingValue FixKind = "missing_value"
	// FixDanglingKey marks a key left without a value at the end of a
	// truncated reply, which was dropped.
	FixDanglingKey FixKind = "dangling_key"
	// FixBracket marks a closing bracket that did not match its opening one
	// and was replaced, or a missing one that was inserted.
	FixBracket FixKind = "bracket"
	// FixWhitespace marks a space character JSON does not allow between
	// tokens (a no-break space, a zero-width space, ...) that was dropped.
	FixWhitespace FixKind = "whitespace"
	// FixWrapper marks a function call around a value (a JSONP
	// callback(...), MongoDB's ObjectId("...")) or a final ';' that was
	// removed.
	FixWrapper FixKind = "wrapper"
	// FixConcatenation marks strings joined with + ("a" + "b") that were
	// written as one.
	FixConcatenation FixKind = "concatenation"
	// FixTruncated marks an unterminated string, array or object at the end
	// of the input that was closed: the reply was cut off.
	FixTruncated FixKind = "truncated"
)

// A Fix is one change repair made: the input's text Before, at Offset, was
// written as After. Before is always the input's text at Offset exactly
// (input[Offset:Offset+len(Before)]); it is empty for an insertion, and
// After is empty for a removal.
//
// A change made alike at both ends of a value is shown by its opening end:
// a single-quoted string has Before "'" and After "\"", a JSONP callback
// Before "callback(" and After "", a tuple Before "(" and After "[". Its
// closing end changed the same way.
//
// Its zero value means nothing.
type Fix struct {
	// Kind names the change.
	Kind FixKind `json:"kind"`
	// Offset is the byte offset in the input where the change applies.
	Offset int `json:"offset"`
	// Before is the input's text that was replaced or removed.
	Before string `json:"before"`
	// After is the JSON text written in its place.
	After string `json:"after"`
	// Detail is a short human-readable note, such as "removed a line comment".
	Detail string `json:"detail,omitempty"`
}
