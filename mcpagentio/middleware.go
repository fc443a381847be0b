package mcpagentio

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentio/agentio/schema"
)

// ValidateOutputs is a receiving middleware for an [mcp.Server] that
// refuses to send a tool output that breaks the tool's own outputSchema:
//
//	server.AddReceivingMiddleware(mcpagentio.ValidateOutputs)
//
// It watches "tools/call". A successful result of a tool that declares an
// outputSchema is checked with the schema package (every violation, with
// its path); a result without structuredContent is a violation too, since
// the MCP specification requires a conforming structured result whenever
// an outputSchema is declared. A result that passes is sent unchanged; so
// are error results (isError), results of tools without an outputSchema,
// and every other method.
//
// # Refusing
//
// A result that fails is replaced by a tool error result: isError set, no
// structuredContent, and one text content listing every violation in words
// a model can act on; its error ([mcp.CallToolResult.GetError], visible to
// the server's sending middleware) is an [*OutputError]. It is a tool
// error, not a JSON-RPC error, on purpose. The request was well formed and
// the tool ran: the fault lies in the tool's output, which is what the MCP
// specification reports inside the result, so that the model calling the
// tool sees it and can act on it (call again with other arguments, choose
// another tool, tell the user). A JSON-RPC error is for a request the
// server cannot handle at all; hosts commonly treat it as a failed
// connection, hide it from the model and cannot tell it from a crashed
// server. Dropping structuredContent keeps clients that check it from
// rejecting the error result itself. (The SDK's typed [mcp.AddTool]
// validates its tools' outputs itself and answers a bad one with a
// JSON-RPC error, which this middleware passes on; it is for the tools
// added with [mcp.Server.AddTool], such as those of [AgentTool] and
// [TaskTool], whose outputs the SDK does not check.)
//
// A declared outputSchema that the schema package cannot compile cannot
// vouch for any output, so the tool's successful results are refused the
// same way, the text saying why.
//
// # Finding the schema
//
// The middleware learns a tool's outputSchema from the server itself: on
// each checked call it lists the tools through the handler it wraps (a
// "tools/list" request on the caller's session, every page), so tools
// added, replaced or removed at any time are seen as they are now. Each
// schema is compiled once per registration of its tool and kept. Add this
// middleware before any other (it is then the innermost), so that the
// others, such as logging or authentication, see only the client's
// requests and the checked results.
//
// [Guard] and [AddTool] do the same for one tool, with its schema compiled
// when the tool is added. The returned handler is safe for concurrent use.
func ValidateOutputs(next mcp.MethodHandler) mcp.MethodHandler {
	g := &guard{next: next, tools: make(map[string]guardEntry)}
	return g.handle
}

// A guard is the state of one ValidateOutputs middleware: the compiled
// output schemas by tool name, each with the registration it came from.
type guard struct {
	next  mcp.MethodHandler
	mu    sync.Mutex
	tools map[string]guardEntry
}

// A guardEntry is a tool's compiled outputSchema (nil for none) or the
// error compiling it, valid while the server holds the same *mcp.Tool.
type guardEntry struct {
	tool   *mcp.Tool
	schema *schema.Schema
	err    error
}

func (g *guard) handle(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
	res, err := g.next(ctx, method, req)
	if err != nil || method != "tools/call" {
		return res, err
	}
	call, ok := req.(*mcp.CallToolRequest)
	out, ok2 := res.(*mcp.CallToolResult)
	if !ok || !ok2 || out == nil || out.IsError || call.Params == nil {
		return res, err
	}
	name := call.Params.Name
	s, lerr := g.outputSchema(ctx, call)
	if lerr != nil {
		var refused mcp.CallToolResult
		refused.SetError(fmt.Errorf("mcpagentio: tool %q: cannot check the output: %w", name, lerr))
		return &refused, nil
	}
	if s == nil {
		return res, nil
	}
	vs := checkResult(s, out)
	if len(vs) == 0 {
		return res, nil
	}
	return refuse(&OutputError{Tool: name, Violations: vs}), nil
}

// outputSchema returns the compiled outputSchema of the called tool as the
// server lists it now, nil when it declares none or is not listed.
func (g *guard) outputSchema(ctx context.Context, call *mcp.CallToolRequest) (*schema.Schema, error) {
	tool, err := g.find(ctx, call)
	if err != nil || tool == nil {
		return nil, err
	}
	name := tool.Name
	g.mu.Lock()
	e, ok := g.tools[name]
	g.mu.Unlock()
	if ok && e.tool == tool {
		return e.schema, e.err
	}
	e = guardEntry{tool: tool}
	if e.schema, e.err = compileDeclared(tool.OutputSchema); e.err != nil {
		e.err = fmt.Errorf("outputSchema: %w", e.err)
	}
	g.mu.Lock()
	g.tools[name] = e
	g.mu.Unlock()
	return e.schema, e.err
}

// find lists the server's tools through the wrapped handler, page by page,
// and returns the called one, nil when it is not listed.
func (g *guard) find(ctx context.Context, call *mcp.CallToolRequest) (*mcp.Tool, error) {
	params := &mcp.ListToolsParams{}
	for {
		res, err := g.next(ctx, "tools/list", &mcp.ListToolsRequest{Session: call.Session, Params: params, Extra: call.Extra})
		if err != nil {
			return nil, fmt.Errorf("list tools: %w", err)
		}
		list, ok := res.(*mcp.ListToolsResult)
		if !ok || list == nil {
			return nil, fmt.Errorf("list tools: unexpected result %T", res)
		}
		for _, t := range list.Tools {
			if t != nil && t.Name == call.Params.Name {
				return t, nil
			}
		}
		if list.NextCursor == "" || list.NextCursor == params.Cursor {
			return nil, nil
		}
		params = &mcp.ListToolsParams{Cursor: list.NextCursor}
	}
}
