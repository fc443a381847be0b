package mcpagentio

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Guard returns h wrapped so that a successful result breaking tool's
// outputSchema is never sent: the caller receives a tool error instead,
// listing every violation with its path (see [ValidateOutputs] for the
// check, the refusal and why it is a tool error rather than a JSON-RPC
// error). Error results pass as they are. A tool without an outputSchema
// gets h back unchanged.
//
// The schema is compiled once, here: one the schema package cannot compile
// is an error (wrapping its [*schema.InvalidSchemaError]). Guard is the
// per-tool form of [ValidateOutputs]; use one or the other for a tool. The
// returned handler is safe for concurrent use when h is.
func Guard(tool *mcp.Tool, h mcp.ToolHandler) (mcp.ToolHandler, error) {
	if tool == nil || h == nil {
		return nil, errors.New("mcpagentio: Guard needs a tool and a handler")
	}
	s, err := compileDeclared(tool.OutputSchema)
	if err != nil {
		return nil, fmt.Errorf("mcpagentio: tool %q: outputSchema: %w", tool.Name, err)
	}
	if s == nil {
		return h, nil
	}
	name := tool.Name
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := h(ctx, req)
		if err != nil || res == nil || res.IsError {
			return res, err
		}
		if vs := checkResult(s, res); len(vs) > 0 {
			return refuse(&OutputError{Tool: name, Violations: vs}), nil
		}
		return res, nil
	}, nil
}

// AddTool adds tool to server with its handler guarded by [Guard]. Where
// [mcp.Server.AddTool] panics on a tool without an input schema, or with
// an input or output schema whose root type is not "object", AddTool
// returns an error matching [ErrNotObject] and adds nothing; so it does
// for an outputSchema that does not compile.
func AddTool(server *mcp.Server, tool *mcp.Tool, h mcp.ToolHandler) error {
	if server == nil || tool == nil || h == nil {
		return errors.New("mcpagentio: AddTool needs a server, a tool and a handler")
	}
	if tool.InputSchema == nil || !declaresObject(tool.InputSchema) {
		return fmt.Errorf("mcpagentio: tool %q: inputSchema: %w", tool.Name, ErrNotObject)
	}
	if tool.OutputSchema != nil && !declaresObject(tool.OutputSchema) {
		return fmt.Errorf("mcpagentio: tool %q: outputSchema: %w", tool.Name, ErrNotObject)
	}
	g, err := Guard(tool, h)
	if err != nil {
		return err
	}
	server.AddTool(tool, g)
	return nil
}

// declaresObject reports whether a schema held in an [mcp.Tool] has the
// root type "object", as the SDK's AddTool checks it.
func declaresObject(v any) bool {
	data, err := declaredJSON(v)
	return err == nil && rootIsObject(data)
}

// refuse is the error result sent instead of an output that breaks its
// tool's outputSchema: isError, no structuredContent (so that clients
// checking it do not reject the error itself), the violations as text for
// the model, and oe for the server's sending middleware.
func refuse(oe *OutputError) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(oe)
	res.Content = []mcp.Content{&mcp.TextContent{Text: oe.report()}}
	return &res
}
