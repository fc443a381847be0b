package extract

// A FixKind names one kind of change repair makes. Its value is a stable
// snake_case word, fit for logs and JSON.
type FixKind string

// The kinds of fix that [WithRepair] applies.
const (
	// FixTrailingComma: a comma before a closing bracket was removed.
	FixTrailingComma FixKind = "trailing_comma"
	// FixMissingComma: a comma was inserted between two values or members.
	FixMissingComma FixKind = "missing_comma"
	// FixMissingColon: a colon was inserted between a key and its value.
	FixMissingColon FixKind = "missing_colon"
	// FixComment: a //, # or /* */ comment was removed.
	FixComment FixKind = "comment"
	// FixSingleQuote: a string delimited by single quotes was requoted.
	FixSingleQuote FixKind = "single_quote"
	// FixSmartQuote: a string delimited by typographic quotes was requoted.
	FixSmartQuote FixKind = "smart_quote"
	// FixUnquotedKey: an object key without quotes was quoted.
	FixUnquotedKey FixKind = "unquoted_key"
	// FixUnquotedString: a bare word standing for a string value was quoted.
	FixUnquotedString FixKind = "unquoted_string"
	// FixMissingQuote: a string's missing opening or closing quote was supplied.
	FixMissingQuote FixKind = "missing_quote"
	// FixEscapedJSON: a value written as escaped JSON text (\"key\": ...) was unescaped.
	FixEscapedJSON FixKind = "escaped_json"
	// FixPythonLiteral: True, False or None became true, false or null
	// (and JavaScript's undefined became null).
	FixPythonLiteral FixKind = "python_literal"
	// FixStringEscape: a raw newline, tab, control character, stray quote or
	// invalid escape inside a string was escaped.
	FixStringEscape FixKind = "string_escape"
	// FixNonFinite: NaN, Infinity or -Infinity became null.
	FixNonFinite FixKind = "non_finite"
	// FixNumber: a number in a form JSON lacks (+1, .5, 1., 0x1F, 01) was rewritten.
	FixNumber FixKind = "number"
	// FixEllipsis: a "..." placeholder standing for omitted items was removed.
	FixEllipsis FixKind = "ellipsis"
	// FixMissingValue: a key with no value got null.
	FixMissingValue FixKind = "missing_value"
	// FixDanglingKey: a key left without a value at the end of a truncated object was dropped.
	FixDanglingKey FixKind = "dangling_key"
	// FixBracket: a closing bracket that did not match was replaced or dropped.
	FixBracket FixKind = "bracket"
	// FixWhitespace: a space character JSON does not allow between tokens
	// (a no-break space, a zero-width space, ...) was dropped.
	FixWhitespace FixKind = "whitespace"
	// FixStrayText: text that belongs to no value was dropped.
	FixStrayText FixKind = "stray_text"
	// FixTruncated: an unterminated string, array or object at the end of the
	// input was closed (the reply was cut off).
	FixTruncated FixKind = "truncated"
)

// A Fix is one change repair made.
type Fix struct {
	// Kind names the change.
	Kind FixKind
	// Offset is the byte offset in the input where the change applies.
	Offset int
	// Detail is a short human-readable note, such as `removed "//" comment`.
	Detail string
}
