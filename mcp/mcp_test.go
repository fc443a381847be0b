package mcpagentio_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	mcpagentio "github.com/agentio/agentio/mcp"
	"github.com/agentio/agentio/provider/providertest"
)

var findingSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"severity": {"enum": ["low", "high"]},
		"line": {"type": "integer", "minimum": 1}
	},
	"required": ["severity", "line"]
}`)

// connect serves server over in-memory transports and returns a client
// session to it.
func connect(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0.0.1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// fixed is a handler returning the structured content v.
func fixed(v string) mcp.ToolHandler {
	return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: v}}}
		if v != "" {
			res.StructuredContent = json.RawMessage(v)
		}
		return res, nil
	}
}

func newServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "v0.0.1"}, nil)
}

func tool(name string) *mcp.Tool {
	return &mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: findingSchema}
}

func TestClientChecksOutputs(t *testing.T) {
	server := newServer()
	// A server without the guard, sending what its handlers return.
	server.AddTool(tool("good"), fixed(`{"severity": "high", "line": 3}`))
	server.AddTool(tool("bad"), fixed(`{"severity": "critical", "line": 0}`))
	server.AddTool(tool("missing"), fixed(""))
	server.AddTool(&mcp.Tool{Name: "free", InputSchema: json.RawMessage(`{"type":"object"}`)}, fixed(`{"anything": true}`))
	server.AddTool(tool("failing"), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "disk on fire"}}}, nil
	})
	c := mcpagentio.NewClient(connect(t, server))
	ctx := context.Background()

	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "good"})
	require.NoError(t, err)
	assert.False(t, res.IsError)

	res, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "bad"})
	var oe *mcpagentio.OutputError
	require.ErrorAs(t, err, &oe)
	assert.NotNil(t, res, "the result comes back beside the error")
	assert.Equal(t, "bad", oe.Tool)
	var paths []string
	for _, v := range oe.Violations {
		paths = append(paths, v.Path)
	}
	assert.ElementsMatch(t, []string{"$.severity", "$.line"}, paths, "every violation, with its path")

	_, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "missing"})
	require.ErrorAs(t, err, &oe)
	assert.Contains(t, oe.Error(), "structuredContent is missing")

	_, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "free"})
	require.NoError(t, err, "a tool without an outputSchema is not checked")

	res, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "failing"})
	require.NoError(t, err, "a tool error is the tool's answer, not checked")
	assert.True(t, res.IsError)

	_, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "nope"})
	require.ErrorIs(t, err, mcpagentio.ErrNoSuchTool)
}

func TestGuardRefusesBadOutputs(t *testing.T) {
	server := newServer()
	require.NoError(t, mcpagentio.AddTool(server, tool("good"), fixed(`{"severity": "low", "line": 9}`)))
	require.NoError(t, mcpagentio.AddTool(server, tool("bad"), fixed(`{"severity": "critical"}`)))
	cs := connect(t, server)
	ctx := context.Background()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "good"})
	require.NoError(t, err)
	assert.False(t, res.IsError)

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "bad"})
	require.NoError(t, err)
	require.True(t, res.IsError, "the broken output was not sent")
	assert.Nil(t, res.StructuredContent)
	text := res.Content[0].(*mcp.TextContent).Text
	assert.Contains(t, text, "$.severity: 'critical' is not one of ['low', 'high']")
	assert.Contains(t, text, "$.line: 'line' is a required property")

	_, err = mcpagentio.Guard(&mcp.Tool{Name: "x", OutputSchema: json.RawMessage(`{"type": "strin"}`)}, fixed("{}"))
	require.Error(t, err, "a bad outputSchema is refused when the tool is added")
}

const reviewerAgent = `{
	"name": "reviewer",
	"description": "Reviews a diff.",
	"parameters_schema": {"type": "object", "properties": {"language": {"type": "string"}}, "required": ["language"]},
	"output_schema": {"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}
}`

func TestAgentTool(t *testing.T) {
	bp, err := blueprint.Parse([]byte(reviewerAgent))
	require.NoError(t, err)
	p := providertest.New(providertest.Text(`{"verdict": "maybe"}`), providertest.Text(`{"verdict": "approve"}`))
	tl, h, err := mcpagentio.AgentTool(bp, p)
	require.NoError(t, err)
	server := newServer()
	server.AddTool(tl, h)
	cs := connect(t, server)
	ctx := context.Background()

	var listed *mcp.Tool
	for tool, err := range cs.Tools(ctx, nil) {
		require.NoError(t, err)
		listed = tool
	}
	require.NotNil(t, listed)
	assert.Equal(t, "reviewer", listed.Name)
	in, _ := json.Marshal(listed.InputSchema)
	assert.Contains(t, string(in), `"prompt"`, "an autonomous agent's parameters include its prompt")
	out, _ := json.Marshal(listed.OutputSchema)
	assert.Contains(t, string(out), `"verdict"`)

	c := mcpagentio.NewClient(cs)
	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "Review PR 42.", "language": "Go"}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	got, _ := json.Marshal(res.StructuredContent)
	assert.JSONEq(t, `{"verdict": "approve"}`, string(got))
	require.Len(t, p.Requests(), 2, "the agent was re-asked once")
	assert.Contains(t, p.Requests()[0].Messages[0].Content, "Review PR 42.")

	res, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "Review."}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	text := res.Content[0].(*mcp.TextContent).Text
	assert.True(t, strings.Contains(text, "parameter_validation_failed"), text)
	assert.Contains(t, text, "language")
	assert.Len(t, p.Requests(), 2, "no model call for bad parameters")
}

func TestAgentToolFailures(t *testing.T) {
	bp, err := blueprint.Parse([]byte(reviewerAgent))
	require.NoError(t, err)
	p := providertest.New(providertest.Text(`nothing`), providertest.Text(`still nothing`), providertest.Text(`no`))
	tl, h, err := mcpagentio.AgentTool(bp, p)
	require.NoError(t, err)
	server := newServer()
	server.AddTool(tl, h)
	res, err := connect(t, server).CallTool(context.Background(), &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "x", "language": "Go"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "OutputSchemaValidationError")

	free, err := blueprint.Parse([]byte(`{"name": "chat"}`))
	require.NoError(t, err)
	_, _, err = mcpagentio.AgentTool(free, p)
	require.Error(t, err, "an agent without an output schema has no MCP output schema")
	_, _, err = mcpagentio.AgentTool(nil, p)
	require.Error(t, err)
}
