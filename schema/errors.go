package schema

// An InvalidSchemaError reports a schema that cannot be compiled: malformed
// JSON, a keyword with a value of the wrong kind, a $ref that points nowhere.
type InvalidSchemaError struct {
	// Path locates the problem in the schema document, JSONPath style
	// ("$.properties.severity.enum").
	Path string
	// Reason says what is wrong.
	Reason string
	// Err is the underlying error, if any.
	Err error
}

// Error returns "schema: invalid schema at <path>: <reason>".
func (e *InvalidSchemaError) Error() string {
	return "schema: invalid schema at " + e.Path + ": " + e.Reason
}

// Unwrap returns the underlying error.
func (e *InvalidSchemaError) Unwrap() error { return e.Err }
