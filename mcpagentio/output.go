package mcpagentio

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentio/agentio/schema"
)

// missingContent is the violation of a successful result that has no
// structuredContent although its tool declares an outputSchema: the MCP
// specification requires servers to provide a conforming structured result.
var missingContent = schema.Violation{
	Path:    "$",
	Pointer: "",
	Message: "the result has no structuredContent, but the tool declares an outputSchema, so it must have one",
}

// compileDeclared compiles a tool's declared schema as it is held in an
// [mcp.Tool] (see [declaredJSON]); a *schema.Schema is used as it is. nil,
// or a value encoding to null, declares no schema and gives nil.
func compileDeclared(v any) (*schema.Schema, error) {
	if s, ok := v.(*schema.Schema); ok {
		return s, nil
	}
	data, err := declaredJSON(v)
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimSpace(data); len(t) == 0 || string(t) == "null" {
		return nil, nil
	}
	return schema.Parse(data)
}

// declaredJSON returns the JSON text of a schema as it is held in an
// [mcp.Tool]: a *schema.Schema's, json.RawMessage or []byte as they are,
// anything else (the map a client decodes, a *jsonschema.Schema) encoded;
// nil for nil.
func declaredJSON(v any) ([]byte, error) {
	switch s := v.(type) {
	case nil:
		return nil, nil
	case *schema.Schema:
		return s.JSON(), nil
	case json.RawMessage:
		return s, nil
	case []byte:
		return s, nil
	}
	return json.Marshal(v)
}

// checkResult returns every way res's structuredContent fails s, nil when
// it matches. A missing structuredContent (nil, or JSON null) is one
// violation at "$"; one that is not JSON, or cannot be encoded as JSON, is
// one violation saying so.
func checkResult(s *schema.Schema, res *mcp.CallToolResult) schema.Violations {
	var data []byte
	switch c := res.StructuredContent.(type) {
	case nil:
	case json.RawMessage:
		data = c
	default:
		var err error
		if data, err = json.Marshal(c); err != nil {
			return schema.Violations{{Path: "$", Message: fmt.Sprintf("the structuredContent cannot be encoded as JSON: %v", err)}}
		}
	}
	if t := bytes.TrimSpace(data); len(t) == 0 || string(t) == "null" {
		return schema.Violations{missingContent}
	}
	vs, err := s.ValidateJSON(data)
	if err != nil {
		return schema.Violations{{Path: "$", Message: "the structuredContent is not a single JSON value"}}
	}
	return vs
}

// declare returns s as an MCP tool declares it: the schema's own bytes when
// its root type is "object" already, else the schema rewritten to that type
// (a root "$ref" moved into "allOf", a type list narrowed to "object"),
// which the MCP Go SDK requires of both tool schemas. The returned schema
// is the one to validate with, so that what is declared and what is checked
// agree.
func declare(s *schema.Schema) (*schema.Schema, json.RawMessage, error) {
	if !rootIsObject(s.JSON()) {
		if !admitsObject(s) {
			return nil, nil, ErrNotObject
		}
		var err error
		if s, err = schema.MergeProperties(s); err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrNotObject, err)
		}
	}
	return s, json.RawMessage(s.JSON()), nil
}

// rootIsObject reports whether the schema document's root says
// "type": "object", as the MCP Go SDK checks it.
func rootIsObject(data []byte) bool {
	var root struct {
		Type any `json:"type"`
	}
	return json.Unmarshal(data, &root) == nil && root.Type == "object"
}

// admitsObject reports whether s's root type allows an object at all (no
// type stated allows one).
func admitsObject(s *schema.Schema) bool {
	types := s.Types()
	if len(types) == 0 {
		return true
	}
	for _, t := range types {
		if t == "object" {
			return true
		}
	}
	return false
}
