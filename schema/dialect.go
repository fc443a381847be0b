package schema

import (
	"encoding/json"
	"fmt"
)

// Dialect names a provider's flavour of JSON Schema: the subset of keywords
// it accepts for native structured output and tool inputs.
type Dialect string

// The dialects.
const (
	// DialectPassthrough sends the schema unchanged (the zero value).
	DialectPassthrough Dialect = ""
	// DialectOpenAI is OpenAI's strict structured-output subset.
	DialectOpenAI Dialect = "openai"
)

// A Conversion is a schema rewritten for a provider's dialect, with what the
// rewrite changed and how to map the provider's output back. Validation
// always uses the original schema: call [Conversion.Restore] on the
// provider's output first.
type Conversion struct {
	// Dialect is the dialect converted to.
	Dialect Dialect
	// Schema is the rewritten schema, minified.
	Schema json.RawMessage
	// Strict reports whether Schema may be sent with the provider's strict
	// flag; when false, send it non-strict or use another mode.
	Strict bool
	// Wrapped reports that the original root was not an object and was
	// wrapped as the single required property WrapKey.
	Wrapped bool
	// WrapKey is the wrapping property's name when Wrapped.
	WrapKey string
	// Changes lists what the rewrite changed or dropped, in schema order.
	Changes []Change

	restore func(v any) any
}

// A Change is one edit a dialect conversion made to a schema.
type Change struct {
	// Path locates the edited subschema, JSONPath style ("$.properties.tags").
	Path string `json:"path"`
	// Kind names the edit ("wrapped_root", "made_nullable", "moved_to_description", ...).
	Kind string `json:"kind"`
	// Detail says what was done, in words.
	Detail string `json:"detail"`
}

// Restore maps a value produced against the converted schema back to the
// original schema's shape: unwraps a wrapped root, removes the nulls that
// stand for omitted optional properties. It does not modify v.
func (c *Conversion) Restore(v any) any {
	if c == nil || c.restore == nil {
		return v
	}
	return c.restore(v)
}

// Convert rewrites s for the dialect d. An unknown dialect is an error;
// DialectPassthrough returns the schema unchanged.
func (s *Schema) Convert(d Dialect) (*Conversion, error) {
	switch d {
	case DialectPassthrough:
		return &Conversion{Dialect: d, Schema: s.Minified(), Strict: false}, nil
	default:
		return nil, fmt.Errorf("schema: unknown dialect %q", string(d))
	}
}
