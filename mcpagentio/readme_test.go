package mcpagentio_test

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/mcpagentio"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// readmeMCP is the README's MCP snippet (internal/readme checks that the
// README shows it as it is here).
func readmeMCP(ctx context.Context, server *mcp.Server, session *mcp.ClientSession, bp *blueprint.Blueprint, p provider.Provider, lookup *mcp.Tool, find mcp.ToolHandler) (*mcp.CallToolResult, error) {
	// snippet: mcp
	// Serve an agent as a tool: parameters_schema in, its output schema out.
	tool, handler, err := mcpagentio.AgentTool(bp, p)
	if err != nil {
		return nil, err
	}
	server.AddTool(tool, handler)
	// Never send an output that breaks a tool's own outputSchema.
	if err := mcpagentio.AddTool(server, lookup, find); err != nil {
		return nil, err
	}
	// Client side: every violation of a tool's outputSchema, with its path.
	res, err := mcpagentio.NewClient(session).CallTool(ctx, &mcp.CallToolParams{Name: "lookup"})
	var oe *mcpagentio.OutputError
	if errors.As(err, &oe) {
		log.Printf("%s broke its schema: %v", oe.Tool, oe.Violations)
	}
	// end snippet
	return res, err
}

func TestREADMESnippet(t *testing.T) {
	bp, err := blueprint.Parse([]byte(reviewerAgent))
	require.NoError(t, err)
	server := newServer()
	cs := connect(t, server)
	res, err := readmeMCP(context.Background(), server, cs, bp, providertest.New(), tool("lookup"), fixed(`{"severity": "high", "line": 1}`))
	require.NoError(t, err)
	got, _ := json.Marshal(res.StructuredContent)
	require.JSONEq(t, `{"severity": "high", "line": 1}`, string(got))
}
