package blueprint

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/schema"
)

// ErrOutputNotObject is the cause (inside a [*FieldError]) when a
// blueprint's output_schema or default_output_schema does not describe an
// object with properties: a structured result is always a JSON object whose
// fields downstream code can rely on.
var ErrOutputNotObject = errors.New("blueprint: output schema is not an object with properties")

// ErrDuplicateName is the cause (inside a [*LoadError]) when [LoadDir] finds
// a second blueprint with a name already taken; the first one is kept.
var ErrDuplicateName = errors.New("blueprint: duplicate agent name")

// ErrSchemaNotFound matches, with errors.Is, a run that names an output
// schema its registry does not hold. It is the schema package's
// [registry.ErrNotFound] itself (one sentinel, two names), so either name
// matches; [ResolveOutputSchema] returns it inside a [*SchemaNotFoundError]
// that carries the name.
var ErrSchemaNotFound = registry.ErrNotFound

// ErrNotAutonomous is returned by [Blueprint.Prompt] and [Run] for a
// procedural agent: its parameters go to a script, not to a model.
var ErrNotAutonomous = errors.New("blueprint: not an autonomous agent")

// ErrNoOutputSchema is returned by [Prepare] for a run that has no output
// schema (no inline schema, no named one, no default in the blueprint): a
// free-text run has no contract to enforce, [Run] makes it as one call.
var ErrNoOutputSchema = errors.New("blueprint: the run has no output schema")

// A FieldError reports a blueprint field (or run option) whose value is not
// acceptable. [Parse] returns one per bad field, joined with errors.Join.
type FieldError struct {
	// Field names the offending field, dotted below the top level
	// ("output_schema", "default_output_schema_options.max_retries").
	Field string
	// Reason says what is wrong. For a schema that does not compile it
	// says where in that schema ("invalid schema at $.properties.x: ...").
	Reason string
	// Err is the cause, when there is one: a [*schema.InvalidSchemaError]
	// for a schema that does not compile, [ErrOutputNotObject] for an
	// output schema of the wrong shape, a [*schema.MergeError] for a
	// parameters_schema that cannot take the required "prompt".
	Err error
}

// Error returns "blueprint: <field>: <reason>".
func (e *FieldError) Error() string {
	if e.Field == "" {
		return "blueprint: " + e.Reason
	}
	return "blueprint: " + e.Field + ": " + e.Reason
}

// Unwrap returns the cause, or nil.
func (e *FieldError) Unwrap() error { return e.Err }

// MarshalJSON renders the error for an API response. A schema problem has
// the InvalidSchema shape ({"error": "InvalidSchema", "message": "<field>
// is not a valid JSON Schema", "details": ...}); any other field (a
// blueprint's or a run option's) is {"error": "InvalidField", "message":
// "<field> is not valid", "details": ...}. Both carry "field".
func (e *FieldError) MarshalJSON() ([]byte, error) {
	out := struct {
		Error   string `json:"error"`
		Message string `json:"message"`
		Details string `json:"details"`
		Field   string `json:"field"`
	}{Error: "InvalidField", Message: e.Field + " is not valid", Details: e.Reason, Field: e.Field}
	if e.Field == "" {
		out.Message = "the document is not valid"
	}
	var ise *schema.InvalidSchemaError
	if errors.As(e.Err, &ise) || errors.Is(e.Err, ErrOutputNotObject) {
		out.Error = "InvalidSchema"
		out.Message = e.Field + " is not a valid JSON Schema"
		if errors.Is(e.Err, ErrOutputNotObject) {
			out.Message = e.Field + " is not a valid output schema"
		}
	}
	return json.Marshal(out)
}

// schemaFieldError wraps a schema problem for field: a compile error, or
// ErrOutputNotObject.
func schemaFieldError(field string, err error) *FieldError {
	reason := err.Error()
	var ise *schema.InvalidSchemaError
	switch {
	case errors.As(err, &ise):
		reason = "invalid schema at " + ise.Path + ": " + ise.Reason
	case errors.Is(err, ErrOutputNotObject):
		reason = `must declare "type": "object" and "properties" at its root`
	}
	return &FieldError{Field: field, Reason: reason, Err: err}
}

// A LoadError reports a blueprint file that could not be read or parsed.
// [Load] returns one; [LoadDir] returns one per bad file, joined.
type LoadError struct {
	// Path is the agent.json file (or the folder given to [Load]).
	Path string
	// Err is the cause: an I/O error (errors.Is(err, fs.ErrNotExist) works),
	// [Parse]'s joined [*FieldError]s, or [ErrDuplicateName].
	Err error
}

// Error returns "<path>: <cause>", one line per cause.
func (e *LoadError) Error() string {
	lines := strings.Split(e.Err.Error(), "\n")
	for i, l := range lines {
		lines[i] = e.Path + ": " + l
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the cause.
func (e *LoadError) Unwrap() error { return e.Err }

// A SchemaNotFoundError reports a run that names an output schema the
// registry does not hold (or a name given with no registry to look in).
// errors.Is(err, [ErrSchemaNotFound]) matches it.
type SchemaNotFoundError struct {
	// Name is the schema name the run asked for.
	Name string
	// Err is the registry's error (wrapping [registry.ErrNotFound]), or
	// [ErrSchemaNotFound] itself when there was no registry.
	Err error
}

// Error returns "blueprint: output schema "<name>" not found".
func (e *SchemaNotFoundError) Error() string {
	return `blueprint: output schema "` + cut(e.Name) + `" not found`
}

// Unwrap returns the cause.
func (e *SchemaNotFoundError) Unwrap() error { return e.Err }

// MarshalJSON renders the SchemaNotFound shape orchestrators return:
// {"error": "SchemaNotFound", "message": "Output schema '<name>' not found",
// "status_code": 404}.
func (e *SchemaNotFoundError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Error      string `json:"error"`
		Message    string `json:"message"`
		StatusCode int    `json:"status_code"`
	}{"SchemaNotFound", "Output schema '" + e.Name + "' not found", 404})
}
