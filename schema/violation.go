package schema

import "strings"

// A Violation is one way a value fails a schema. [Schema.Validate] returns
// them; callers may also build their own (custom validators).
type Violation struct {
	// Path locates the offending value in the instance, JSONPath style:
	// "$" for the root, "$.issues[0].severity" below it. For a missing
	// required property or a property that is not allowed, it is the
	// location of that property ("$.summary").
	Path string `json:"path"`
	// Pointer is the same location as a JSON Pointer (RFC 6901):
	// "" for the root, "/issues/0/severity" below it.
	Pointer string `json:"pointer"`
	// Keyword is the schema keyword that failed ("enum", "required").
	Keyword string `json:"keyword,omitempty"`
	// SchemaPath is the JSON Pointer of that keyword in the schema
	// ("/properties/issues/items/properties/severity/enum"). Through a
	// $ref it points into the referenced subschema; in a document supplied
	// by a [Loader] it is prefixed with that document's URI and '#'.
	SchemaPath string `json:"schema_path,omitempty"`
	// Message says what is wrong, in words a model can act on:
	// "'critical' is not one of ['high', 'medium', 'low']".
	Message string `json:"message"`
}

// String returns "<path>: <message>".
func (v Violation) String() string { return v.Path + ": " + v.Message }

// Violations is a list of violations that is also an error, printing one
// violation per line.
type Violations []Violation

// Error returns the violations one per line.
func (vs Violations) Error() string {
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(v.String())
	}
	return b.String()
}
