package mcpagentio_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// findingSchema is the outputSchema of the test tools.
var findingSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"severity": {"enum": ["low", "high"]},
		"line": {"type": "integer", "minimum": 1},
		"tags": {"type": "array", "items": {"type": "string"}}
	},
	"required": ["severity", "line"]
}`)

// reviewerAgent is an autonomous agent with a parameter besides its prompt
// and an output schema.
const reviewerAgent = `{
	"name": "reviewer",
	"description": "Reviews a diff.",
	"parameters_schema": {"type": "object", "properties": {"language": {"type": "string"}}, "required": ["language"]},
	"output_schema": {"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}
}`

func newServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "v0.0.1"}, nil)
}

// connect serves server over in-memory transports and returns a client
// session to it; both are closed when the test ends.
func connect(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	return connectWith(t, server, nil)
}

// connectWith is connect with the client's options.
func connectWith(t *testing.T, server *mcp.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0.0.1"}, opts).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// tool is a tool taking any object and declaring findingSchema.
func tool(name string) *mcp.Tool {
	return &mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: findingSchema}
}

// fixed is a handler answering with the structured content v (and v as
// text); "" answers with text only.
func fixed(v string) mcp.ToolHandler {
	return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: v}}}
		if v != "" {
			res.StructuredContent = json.RawMessage(v)
		}
		return res, nil
	}
}

// failing is a handler answering with a tool error.
func failing(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "disk on fire"}}}, nil
}

// text returns the text of a result's only content.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "content is %T", res.Content[0])
	return tc.Text
}

// structuredJSON returns a result's structuredContent as JSON text.
func structuredJSON(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	data, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	return string(data)
}
