package schema

import "errors"

// Sentinel errors. Parse returns them wrapped in an [*InvalidSchemaError]
// (its Err field), so errors.Is finds them and errors.As finds the location.
var (
	// ErrSyntax means the schema document is not well-formed JSON.
	ErrSyntax = errors.New("schema: malformed JSON")
	// ErrLimit means the schema document is larger or deeper than Parse
	// accepts (8 MiB, 256 levels of nesting).
	ErrLimit = errors.New("schema: schema exceeds a size or depth limit")
	// ErrRemoteRef means the schema refers to a document outside itself
	// (a remote or relative $ref) and no [Loader] was supplied, or the
	// loader could not provide it. Nothing is ever fetched by default.
	ErrRemoteRef = errors.New("schema: remote reference not loaded")
	// ErrUnsupportedDraft means the root $schema names a dialect this
	// package cannot validate (only draft 2020-12, 2019-09, draft-07,
	// draft-06 and draft-04 are understood).
	ErrUnsupportedDraft = errors.New("schema: unsupported $schema")
	// ErrRefCycle means references and in-place applicators (allOf,
	// anyOf, ...) loop without descending into the instance, so validation
	// could never end.
	ErrRefCycle = errors.New("schema: reference cycle")
)

// ErrInvalidOption is returned (wrapped, with what is wrong) by [ParseWith]
// when its [ParseOptions] hold an unusable value, such as a negative
// MaxDepth. No schema is compiled.
var ErrInvalidOption = errors.New("schema: invalid option")

// ErrImmutable is returned (wrapped) by [Schema.UnmarshalJSON] into a
// Schema that is already compiled: compiled schemas are shared, and one
// caller's decode must not change another's schema.
var ErrImmutable = errors.New("schema: a compiled schema cannot be changed")

// An InvalidSchemaError reports a schema that cannot be compiled: malformed
// JSON, a keyword with a value of the wrong kind, a $ref that points nowhere.
// Parse reports the first problem in document order.
type InvalidSchemaError struct {
	// Path locates the problem in the schema document, JSONPath style
	// ("$.properties.severity.enum"). For a problem in a document supplied
	// by a [Loader], Path is prefixed with that document's URI.
	Path string
	// Reason says what is wrong, in words.
	Reason string
	// Err is the underlying error, if any: one of this package's sentinels
	// ([ErrSyntax], [ErrLimit], [ErrRemoteRef], ...) or the error of
	// github.com/google/jsonschema-go.
	Err error
}

// Error returns "schema: invalid schema at <path>: <reason>".
func (e *InvalidSchemaError) Error() string {
	return "schema: invalid schema at " + e.Path + ": " + e.Reason
}

// Unwrap returns the underlying error.
func (e *InvalidSchemaError) Unwrap() error { return e.Err }
