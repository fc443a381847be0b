// Package mcpagentio holds MCP tools to their declared output schemas with
// agentio's diagnostics, and serves agentio agents as MCP tools, on the
// official MCP Go SDK (github.com/modelcontextprotocol/go-sdk). It is a
// module of its own, so that the agentio module never depends on the SDK.
//
//   - On the client side, [Client.CallTool] calls a tool and checks its
//     structuredContent against the tool's outputSchema: a value that breaks
//     it is an [*OutputError] listing every violation with its path.
//   - On the server side, [Guard] wraps a tool handler so that an output
//     breaking the tool's own outputSchema is never sent: the caller gets a
//     tool error naming each violation instead.
//   - [AgentTool] makes an agent blueprint a tool: its parameters_schema is
//     the input schema, its output schema the output schema, and each call
//     runs the enforcement loop.
package mcpagentio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// ErrNoSuchTool matches the error of a call to a tool the server does not
// list.
var ErrNoSuchTool = errors.New("mcpagentio: no such tool")

// An OutputError reports a tool result whose structuredContent breaks the
// tool's outputSchema (or is missing although the tool declares one).
type OutputError struct {
	// Tool is the tool's name.
	Tool string
	// Violations are every way the output breaks the schema, with paths
	// into structuredContent.
	Violations []schema.Violation
}

// Error returns "mcpagentio: tool T: output does not match its outputSchema:
// $.a: ...; $.b: ...".
func (e *OutputError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.String()
	}
	return fmt.Sprintf("mcpagentio: tool %s: output does not match its outputSchema: %s", e.Tool, strings.Join(parts, "; "))
}

// compileSchema compiles a tool's schema as the SDK carries it (a
// *jsonschema.Schema, a map, raw JSON); nil for none.
func compileSchema(v any) (*schema.Schema, error) {
	if v == nil {
		return nil, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if string(data) == "null" {
		return nil, nil
	}
	return schema.Parse(data)
}

// check validates a tool result against s.
func check(tool string, s *schema.Schema, res *mcp.CallToolResult) error {
	if s == nil || res == nil || res.IsError {
		return nil
	}
	if res.StructuredContent == nil {
		return &OutputError{Tool: tool, Violations: []schema.Violation{{Path: "$", Message: "structuredContent is missing, but the tool declares an outputSchema"}}}
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return &OutputError{Tool: tool, Violations: []schema.Violation{{Path: "$", Message: "structuredContent cannot be encoded: " + err.Error()}}}
	}
	vs, err := s.ValidateJSON(data)
	if err != nil {
		return &OutputError{Tool: tool, Violations: []schema.Violation{{Path: "$", Message: err.Error()}}}
	}
	if len(vs) > 0 {
		return &OutputError{Tool: tool, Violations: vs}
	}
	return nil
}

// A Client calls the tools of one MCP session and checks their outputs.
// It learns each tool's outputSchema from tools/list once and compiles it
// once. It is safe for concurrent use.
type Client struct {
	session *mcp.ClientSession
	mu      sync.Mutex
	schemas map[string]*schema.Schema // nil: the tool declares none
}

// NewClient returns a Client for session.
func NewClient(session *mcp.ClientSession) *Client {
	return &Client{session: session}
}

// CallTool calls the tool as session.CallTool does and checks the result's
// structuredContent against the tool's outputSchema. The result is
// returned in every case; the error is the call's, an *OutputError for an
// output that breaks the schema, or one matching [ErrNoSuchTool]. A result
// with isError is a tool failure, returned without a check; a tool without
// an outputSchema is not checked.
func (c *Client) CallTool(ctx context.Context, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	if params == nil {
		return nil, errors.New("mcpagentio: nil CallToolParams")
	}
	s, err := c.schema(ctx, params.Name)
	if err != nil {
		return nil, err
	}
	res, err := c.session.CallTool(ctx, params)
	if err != nil {
		return res, err
	}
	return res, check(params.Name, s, res)
}

// schema returns the compiled outputSchema of the named tool, listing the
// tools when it is not known yet (again after a tool appears later).
func (c *Client) schema(ctx context.Context, name string) (*schema.Schema, error) {
	c.mu.Lock()
	s, known := c.schemas[name]
	c.mu.Unlock()
	if known {
		return s, nil
	}
	schemas := map[string]*schema.Schema{}
	for tool, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("mcpagentio: list tools: %w", err)
		}
		s, err := compileSchema(tool.OutputSchema)
		if err != nil {
			return nil, fmt.Errorf("mcpagentio: tool %s: outputSchema: %w", tool.Name, err)
		}
		schemas[tool.Name] = s
	}
	c.mu.Lock()
	c.schemas = schemas
	c.mu.Unlock()
	s, known = schemas[name]
	if !known {
		return nil, fmt.Errorf("%w: %s", ErrNoSuchTool, name)
	}
	return s, nil
}

// Guard returns h wrapped so that a result breaking tool's outputSchema is
// not sent: the caller receives instead a tool error (isError, as the MCP
// specification wants tool failures reported, so that the calling model
// sees it) whose text lists every violation with its path. A result with
// isError passes as it is. Without an outputSchema, h is returned as it is.
// The schema is compiled once, here: a bad one is an error.
func Guard(tool *mcp.Tool, h mcp.ToolHandler) (mcp.ToolHandler, error) {
	if tool == nil || h == nil {
		return nil, errors.New("mcpagentio: Guard needs a tool and a handler")
	}
	s, err := compileSchema(tool.OutputSchema)
	if err != nil {
		return nil, fmt.Errorf("mcpagentio: tool %s: outputSchema: %w", tool.Name, err)
	}
	if s == nil {
		return h, nil
	}
	name := tool.Name
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := h(ctx, req)
		if err != nil {
			return res, err
		}
		if err := check(name, s, res); err != nil {
			refused := &mcp.CallToolResult{IsError: true}
			refused.SetError(err)
			return refused, nil
		}
		return res, nil
	}, nil
}

// AddTool adds tool to server with its handler guarded by [Guard].
func AddTool(server *mcp.Server, tool *mcp.Tool, h mcp.ToolHandler) error {
	g, err := Guard(tool, h)
	if err != nil {
		return err
	}
	server.AddTool(tool, g)
	return nil
}

// AgentTool returns an MCP tool that runs the agent of b with the model p,
// and its handler. The tool is named after the agent and described by its
// description; its input schema is the agent's parameters schema ("prompt"
// included for an autonomous agent), its output schema the output schema
// the agent's runs use (default_output_schema, else output_schema). The
// handler validates the arguments (a mismatch is a tool error with the
// parameter_validation_failed JSON), runs blueprint.Run with opts, and
// returns the valid JSON as structuredContent and as text; a run that never
// produced valid output is a tool error with the
// OutputSchemaValidationError JSON. Add both to a server with
// server.AddTool.
func AgentTool(b *blueprint.Blueprint, p provider.Provider, opts ...blueprint.Option) (*mcp.Tool, mcp.ToolHandler, error) {
	if b == nil || p == nil {
		return nil, nil, errors.New("mcpagentio: AgentTool needs a blueprint and a provider")
	}
	if b.Type() != blueprint.TypeAutonomous {
		return nil, nil, fmt.Errorf("mcpagentio: agent %s: %w", b.Name(), blueprint.ErrNotAutonomous)
	}
	res, err := blueprint.ResolveOutputSchema(context.Background(), b, blueprint.RunSpec{}, nil)
	if err != nil {
		return nil, nil, err
	}
	if res.Schema == nil {
		return nil, nil, fmt.Errorf("mcpagentio: agent %s has no output schema: an MCP tool's output schema must describe an object", b.Name())
	}
	tool := &mcp.Tool{
		Name:         b.Name(),
		Description:  b.Description(),
		InputSchema:  json.RawMessage(b.EffectiveParametersSchema().JSON()),
		OutputSchema: json.RawMessage(res.Schema.JSON()),
	}
	handler := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		params := map[string]any{}
		if raw := req.Params.Arguments; len(raw) > 0 {
			if err := json.Unmarshal(raw, &params); err != nil {
				return toolError(fmt.Sprintf("the arguments are not a JSON object: %v", err)), nil
			}
		}
		out, err := blueprint.Run(ctx, b, p, params, blueprint.RunSpec{}, opts...)
		if err != nil {
			return failure(err)
		}
		data := out.Data()
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(data)}},
			StructuredContent: json.RawMessage(data),
		}, nil
	}
	return tool, handler, nil
}

// failure turns a run's error into the tool result the caller sees: the
// JSON shapes orchestrators report for parameter and output failures, the
// message otherwise. A cancelled context stays a protocol error.
func failure(err error) (*mcp.CallToolResult, error) {
	var pe *blueprint.ParameterError
	var ve *enforce.ValidationError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return nil, err
	case errors.As(err, &pe):
		return jsonError(pe)
	case errors.As(err, &ve):
		return jsonError(ve)
	default:
		return toolError(err.Error()), nil
	}
}

// jsonError is a tool error whose text is v's JSON.
func jsonError(v json.Marshaler) (*mcp.CallToolResult, error) {
	data, err := v.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return toolError(string(data)), nil
}

func toolError(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
