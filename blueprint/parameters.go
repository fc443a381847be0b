package blueprint

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentio/agentio/schema"
)

// EffectiveParametersSchema returns the schema a run's parameters are validated
// against, nil when any parameters are accepted:
//
//   - autonomous agents: the parameters_schema merged with a required
//     string "prompt" (schema.MergePrompt), or the implicit
//     {"prompt": string} schema when they have none;
//   - procedural agents: the parameters_schema as it is, or nil when they
//     have none (a procedural agent without a schema takes any parameters).
//
// The merged schema is built once, at load time; the stored
// parameters_schema ([Blueprint.ParametersSchema]) is not changed.
func (b *Blueprint) EffectiveParametersSchema() *schema.Schema {
	if b.typ == TypeAutonomous {
		return b.merged
	}
	return b.params
}

// ValidateParameters checks a run's parameters before anything expensive
// starts, against [Blueprint.EffectiveParametersSchema]. A nil map is taken as
// no parameters ({}). Parameter values may be any Go values that
// encoding/json can encode; they are validated as their JSON form.
//
// When the parameters do not match, the error is a [*ParameterError]
// listing every violation. A value that cannot be encoded as JSON (a
// channel, a NaN) gives a plain error.
func (b *Blueprint) ValidateParameters(params map[string]any) error {
	s := b.EffectiveParametersSchema()
	if s == nil {
		return nil
	}
	v, err := jsonValue(params)
	if err != nil {
		return err
	}
	if vs := s.Validate(v); len(vs) > 0 {
		return &ParameterError{AgentName: b.name, Violations: vs, Schema: s}
	}
	return nil
}

// jsonValue turns params into the plain JSON value a schema validates:
// map[string]any, []any, string, float64, bool, nil.
func jsonValue(params map[string]any) (any, error) {
	if params == nil {
		return map[string]any{}, nil
	}
	data, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("blueprint: parameters cannot be encoded as JSON: %w", err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("blueprint: parameters cannot be encoded as JSON: %w", err)
	}
	return v, nil
}

// A ParameterError reports run parameters that do not match the agent's
// parameters schema. [Blueprint.ValidateParameters] and [Run] return it.
// Its JSON form is the parameter_validation_failed shape callers of an
// orchestrator's API receive:
//
//	{"error": "parameter_validation_failed",
//	 "message": "Parameters do not match agent's parameters_schema",
//	 "agent_name": "parametric-agent",
//	 "validation_errors": [{"path": "$.format", "message": "...", "schema_path": "properties.format.enum"}],
//	 "parameters_schema": {...}}
type ParameterError struct {
	// AgentName is the blueprint's name.
	AgentName string
	// Violations lists every way the parameters fail the schema, in the
	// schema package's stable order; never empty.
	Violations []schema.Violation
	// Schema is the schema the parameters were validated against: for an
	// autonomous agent the merged one, "prompt" included, so that every
	// schema_path points into it.
	Schema *schema.Schema
}

// Error returns "blueprint: parameters do not match the parameters_schema
// of <agent>: <first violation>", with the count of the others.
func (e *ParameterError) Error() string {
	var b strings.Builder
	b.WriteString("blueprint: parameters do not match the parameters_schema of ")
	b.WriteString(e.AgentName)
	if len(e.Violations) > 0 {
		b.WriteString(": ")
		b.WriteString(e.Violations[0].String())
	}
	if n := len(e.Violations) - 1; n > 0 {
		fmt.Fprintf(&b, " (and %d more)", n)
	}
	return b.String()
}

// MarshalJSON writes the parameter_validation_failed shape. schema_path is
// dotted ("properties.format.enum"), as the requirements show it, rather
// than the JSON Pointer of [schema.Violation.SchemaPath].
func (e *ParameterError) MarshalJSON() ([]byte, error) {
	type item struct {
		Path       string `json:"path"`
		Message    string `json:"message"`
		SchemaPath string `json:"schema_path"`
	}
	items := make([]item, len(e.Violations))
	for i, v := range e.Violations {
		items[i] = item{Path: v.Path, Message: v.Message, SchemaPath: dottedPointer(v.SchemaPath)}
	}
	var s json.RawMessage = []byte("null")
	if e.Schema != nil {
		s = e.Schema.JSON()
	}
	return json.Marshal(struct {
		Error            string          `json:"error"`
		Message          string          `json:"message"`
		AgentName        string          `json:"agent_name"`
		ValidationErrors []item          `json:"validation_errors"`
		ParametersSchema json.RawMessage `json:"parameters_schema"`
	}{"parameter_validation_failed", "Parameters do not match agent's parameters_schema", e.AgentName, items, s})
}

// dottedPointer turns a JSON Pointer ("/properties/a~1b/enum") into the
// dotted form ("properties.a/b.enum").
func dottedPointer(p string) string {
	p = strings.TrimPrefix(p, "#")
	if p == "" || p == "/" {
		return ""
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return strings.Join(parts, ".")
}
