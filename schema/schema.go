package schema

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// A Schema is a compiled JSON Schema. It is immutable and safe for
// concurrent use: compile it once with [Parse] and share it.
type Schema struct {
	src      []byte // the author's bytes
	min      []byte // src minified, key order kept
	root     *jsonschema.Schema
	resolved *jsonschema.Resolved
}

// Parse compiles a JSON Schema document. It returns an [*InvalidSchemaError]
// when data is not JSON or does not describe a valid schema.
func Parse(data []byte) (*Schema, error) {
	var root jsonschema.Schema
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: err.Error(), Err: err}
	}
	var min bytes.Buffer
	if err := json.Compact(&min, data); err != nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: err.Error(), Err: err}
	}
	return compile(&root, bytes.Clone(data), min.Bytes())
}

// New compiles a schema built in Go. The caller must not modify s afterwards.
func New(s *jsonschema.Schema) (*Schema, error) {
	if s == nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: "nil schema"}
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: err.Error(), Err: err}
	}
	return Parse(data)
}

// For infers the schema of the Go type T (as jsonschema.For does) and
// compiles it.
func For[T any]() (*Schema, error) {
	js, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: err.Error(), Err: err}
	}
	return New(js)
}

func compile(root *jsonschema.Schema, src, min []byte) (*Schema, error) {
	resolved, err := root.Resolve(nil)
	if err != nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: err.Error(), Err: err}
	}
	return &Schema{src: src, min: min, root: root, resolved: resolved}, nil
}

// JSON returns the schema as its author wrote it (key order kept). The
// caller may modify the returned slice.
func (s *Schema) JSON() []byte { return bytes.Clone(s.src) }

// Minified returns the schema without insignificant white space, key order
// kept. The caller may modify the returned slice.
func (s *Schema) Minified() []byte { return bytes.Clone(s.min) }

// Validate reports every way v violates the schema, in a stable order; none
// when v is valid. v is a decoded JSON value (as from json.Unmarshal into an
// any: map[string]any, []any, string, float64, bool, nil).
func (s *Schema) Validate(v any) []Violation {
	err := s.resolved.Validate(v)
	if err == nil {
		return nil
	}
	return []Violation{{Path: "$", Pointer: "", Message: err.Error()}}
}

// ValidateJSON decodes data and validates it. The error is non-nil only when
// data is not a single JSON value.
func (s *Schema) ValidateJSON(data []byte) ([]Violation, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("schema: instance is not JSON: %w", err)
	}
	return s.Validate(v), nil
}
