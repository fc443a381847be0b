package mcpagentio_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/mcpagentio"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// session connects a client to server over in-memory transports.
func session(ctx context.Context, server *mcp.Server) (*mcp.ClientSession, error) {
	return sessionWith(ctx, server, nil)
}

// sessionWith is session with the client's options.
func sessionWith(ctx context.Context, server *mcp.Server, opts *mcp.ClientOptions) (*mcp.ClientSession, error) {
	st, ct := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		return nil, err
	}
	return mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v1.0.0"}, opts).Connect(ctx, ct, nil)
}

// lookupTool is a tool whose output must be an object with a severity.
var lookupTool = &mcp.Tool{
	Name:        "lookup",
	InputSchema: json.RawMessage(`{"type": "object"}`),
	OutputSchema: json.RawMessage(`{"type": "object",
		"properties": {"severity": {"enum": ["low", "high"]}, "line": {"type": "integer", "minimum": 1}},
		"required": ["severity", "line"]}`),
}

// lookupBroken is a handler whose output breaks lookupTool's schema twice.
func lookupBroken(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{StructuredContent: map[string]any{"severity": "critical", "line": 0}}, nil
}

// A server that serves an agent and checks every tool's output, and a
// client that checks them again: in this process over in-memory
// transports, as it would be over stdio or HTTP.
func Example() {
	ctx := context.Background()
	bp, err := blueprint.Parse([]byte(`{
		"name": "reviewer",
		"parameters_schema": {"type": "object", "properties": {"language": {"type": "string"}}, "required": ["language"]},
		"output_schema": {"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := providertest.New(providertest.Text(`{"verdict": "approve"}`))
	server := mcp.NewServer(&mcp.Implementation{Name: "agents", Version: "v1.0.0"}, nil)

	// Never send a tool output that breaks the tool's own outputSchema.
	server.AddReceivingMiddleware(mcpagentio.ValidateOutputs)
	// Serve an agent as a tool: parameters_schema in, its output schema out.
	tool, handler, err := mcpagentio.AgentTool(bp, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	server.AddTool(tool, handler)

	cs, err := session(ctx, server)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	c := mcpagentio.NewClient(cs)

	// Arguments the agent's parameters_schema refuses: a tool error, no model call.
	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "Review PR 42."}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("isError:", res.IsError)

	// Client side: every violation of a tool's outputSchema, with its path.
	res, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "Review PR 42.", "language": "Go"}})
	var oe *mcpagentio.OutputError
	if errors.As(err, &oe) {
		fmt.Printf("%s broke its schema:\n%v\n", oe.Tool, oe.Violations)
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// isError: true
	// {"verdict": "approve"}
}

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
	// The model first answers outside the schema, and is re-asked.
	model := providertest.New(providertest.Text(`{"verdict": "maybe"}`), providertest.Text(`{"verdict": "approve"}`))
	tool, handler, err := mcpagentio.AgentTool(bp, model)
	if err != nil {
		fmt.Println(err)
		return
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "agents", Version: "v1.0.0"}, nil)
	server.AddTool(tool, handler)

	cs, err := session(ctx, server)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	res, err := mcpagentio.NewClient(cs).CallTool(ctx, &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "Review PR 42."}})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := json.Marshal(res.StructuredContent)
	fmt.Println(string(out), "after", len(model.Requests()), "model calls")
	// Output: {"verdict":"approve"} after 2 model calls
}

// A client catching a server's output that breaks the tool's own schema,
// with every violation and its path.
// A call with a progress token is streamed: the client hears of each
// attempt and of each part of the output as the model writes it.
func ExampleAgentTool_progress() {
	ctx := context.Background()
	bp, err := blueprint.Parse([]byte(`{
		"name": "reviewer",
		"output_schema": {"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	// The first reply is stopped at its verdict, before the rest is paid for.
	model := providertest.New(
		providertest.Chunked(6, `{"verdict": "maybe", "reasons": ["a long explanation the model was about to write"]}`),
		providertest.Chunked(6, `{"verdict": "approve", "reasons": ["small", "tested"]}`),
	)
	tool, handler, err := mcpagentio.AgentTool(bp, model)
	if err != nil {
		fmt.Println(err)
		return
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "agents", Version: "v1.0.0"}, nil)
	server.AddTool(tool, handler)

	progress := make(chan string, 100)
	cs, err := sessionWith(ctx, server, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress <- req.Params.Message
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	params := &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "Review PR 42."}}
	params.Meta = mcp.Meta{"progressToken": "review-42"}
	res, err := mcpagentio.NewClient(cs).CallTool(ctx, params)
	if err != nil {
		fmt.Println(err)
		return
	}
	for msg := range progress {
		fmt.Println(msg)
		if strings.HasSuffix(msg, ": valid") {
			break
		}
	}
	out, _ := json.Marshal(res.StructuredContent)
	fmt.Println(string(out))
	// Output:
	// attempt 1: invalid, stopped early: 1 violation, $.verdict: 'maybe' is not one of ['approve', 'reject']
	// attempt 2: writing $
	// attempt 2: writing $.reasons
	// attempt 2: valid
	// {"reasons":["small","tested"],"verdict":"approve"}
}

func ExampleClient_CallTool() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "unchecked", Version: "v1.0.0"}, nil)
	server.AddTool(lookupTool, lookupBroken) // the server sends what it gets
	cs, err := session(ctx, server)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	_, err = mcpagentio.NewClient(cs).CallTool(ctx, &mcp.CallToolParams{Name: "lookup"})
	var oe *mcpagentio.OutputError
	if errors.As(err, &oe) {
		for _, v := range oe.Violations {
			fmt.Printf("%s (%s): %s\n", v.Path, v.Keyword, v.Message)
		}
	}
	// Output:
	// $.line (minimum): 0 is less than the minimum of 1
	// $.severity (enum): 'critical' is not one of ['low', 'high']
}

// A server that refuses to send an output breaking its tool's schema: the
// caller gets a tool error listing the violations.
func ExampleValidateOutputs() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "checked", Version: "v1.0.0"}, nil)
	server.AddReceivingMiddleware(mcpagentio.ValidateOutputs)
	server.AddTool(lookupTool, lookupBroken)
	cs, err := session(ctx, server)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("isError:", res.IsError)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// isError: true
	// The output of tool "lookup" was withheld because it does not match the tool's outputSchema:
	// - $.severity: 'critical' is not one of ['low', 'high']
	// - $.line: 0 is less than the minimum of 1
}

// The per-tool form: the schema is compiled when the tool is added.
func ExampleAddTool() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "checked", Version: "v1.0.0"}, nil)
	if err := mcpagentio.AddTool(server, lookupTool, lookupBroken); err != nil {
		fmt.Println(err)
		return
	}
	cs, err := session(ctx, server)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("isError:", res.IsError, "structuredContent:", res.StructuredContent)
	// Output: isError: true structuredContent: <nil>
}

// A tool answered by a model under enforcement, from an output schema and a
// prompt function, without a blueprint.
func ExampleTaskTool() {
	ctx := context.Background()
	out, err := schema.Parse([]byte(`{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	in, err := schema.Parse([]byte(`{"type": "object", "properties": {"landmark": {"type": "string"}}, "required": ["landmark"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	model := providertest.New(providertest.Text(`{"city": "Paris"}`))
	tool, handler, err := mcpagentio.TaskTool(mcpagentio.Task{
		Name:   "locate",
		Input:  in,
		Output: out,
		Prompt: func(args map[string]any) (string, error) { return fmt.Sprintf("Where is %v?", args["landmark"]), nil },
	}, model)
	if err != nil {
		fmt.Println(err)
		return
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "v1.0.0"}, nil)
	server.AddTool(tool, handler)
	cs, err := session(ctx, server)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	res, err := mcpagentio.NewClient(cs).CallTool(ctx, &mcp.CallToolParams{Name: "locate", Arguments: map[string]any{"landmark": "the Eiffel Tower"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output: {"city": "Paris"}
}
