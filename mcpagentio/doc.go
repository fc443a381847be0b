// Package mcpagentio brings agentio's schema enforcement to the Model
// Context Protocol, on the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk). It is a module of its own, so
// that the agentio module never depends on the SDK.
//
// It does three things:
//
//   - a [Client] calls a server's tools and checks each result's
//     structuredContent against the tool's declared outputSchema,
//     returning every violation with its path as an [*OutputError];
//   - on the server, [AddTool] (or [Guard], per tool) and the
//     [ValidateOutputs] middleware (for every tool) refuse to send a tool
//     output that breaks the tool's own outputSchema, answering with a tool
//     error that lists the violations instead;
//   - [AgentTool] serves an agent blueprint (agent.json) as a tool whose
//     input schema is the agent's parameters schema and whose output schema
//     is its output schema, enforced by agentio's loop; [TaskTool] does the
//     same for a [Task], an output schema and a prompt function without a
//     blueprint.
//
// To get started, serve an agent and call it:
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "agents", Version: "v1"}, nil)
//	server.AddReceivingMiddleware(mcpagentio.ValidateOutputs) // every tool's output checked
//	tool, handler, err := mcpagentio.AgentTool(bp, p)
//	if err != nil { ... }
//	server.AddTool(tool, handler)
//
//	c := mcpagentio.NewClient(session) // an *mcp.ClientSession
//	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "reviewer", Arguments: args})
//	var oe *mcpagentio.OutputError
//	if errors.As(err, &oe) { ... } // oe.Violations: every path and message
//
// # Progress
//
// A client that sends a progress token with its call to an [AgentTool] or
// a [TaskTool] gets a progress notification for each attempt of the
// enforcement loop and, from a provider that streams, for each part of the
// output completed while the model writes it, the value so far under
// [PartialMetaKey]. Such a call is streamed, so a reply whose finished part
// already breaks the schema is stopped there and re-asked.
//
// # Error results and tool errors
//
// MCP reports a tool's own failures inside its result (isError, with text
// for the model) and keeps JSON-RPC errors for requests that cannot be
// handled. This package follows that: a bad output refused by [Guard] or
// [ValidateOutputs], arguments that do not match an agent's parameters schema,
// and an agent run that never produced valid output are all error results
// whose text a model can act on (for the agent tools, the JSON of
// agentio's [blueprint.ParameterError] and [enforce.ValidationError]).
// Only a call whose context ended is a JSON-RPC error. On the client, an
// error result is returned as the SDK returns it; only successful results
// are checked, since only they promise structured output.
//
// # Schemas
//
// Schemas are compiled with agentio's schema package (draft 2020-12 and
// draft-07), which reports all violations in a stable order; a tool's
// schema is compiled once and kept (per session on the client, per tool
// registration on the server). MCP requires a tool's input and output
// schemas to have the root type "object"; [AgentTool] and [TaskTool]
// declare a schema that admits objects but says so differently rewritten
// to that type, and enforce the declared schema.
//
// # Version
//
// The module requires github.com/modelcontextprotocol/go-sdk v1.8.0, and
// Go 1.26 like the rest of agentio.
package mcpagentio
