package mcpagentio_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentio/agentio/blueprint"
	mcpagentio "github.com/agentio/agentio/mcp"
	"github.com/agentio/agentio/provider/providertest"
)

// An agent served as an MCP tool, and called by a client that checks what
// tools return against their output schemas.
func ExampleAgentTool() {
	ctx := context.Background()
	bp, err := blueprint.Parse([]byte(`{
		"name": "reviewer",
		"output_schema": {"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	model := providertest.New(providertest.Text(`{"verdict": "approve"}`))
	tool, handler, err := mcpagentio.AgentTool(bp, model)
	if err != nil {
		fmt.Println(err)
		return
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "agents", Version: "v1.0.0"}, nil)
	server.AddTool(tool, handler)

	st, ct := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		fmt.Println(err)
		return
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v1.0.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer session.Close()

	res, err := mcpagentio.NewClient(session).CallTool(ctx, &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "Review PR 42."}})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := json.Marshal(res.StructuredContent)
	fmt.Println(string(out))
	// Output: {"verdict":"approve"}
}
