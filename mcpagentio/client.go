package mcpagentio

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentio/agentio/schema"
)

// A Client calls the tools of one MCP session and checks each successful
// result's structuredContent against the outputSchema the tool declares,
// reporting every violation rather than the first. It is safe for
// concurrent use.
//
// The tools' schemas come from the session's tools/list, read the first
// time a tool is called (every page) and again whenever a tool not seen yet
// is called; each is compiled once with [schema.Parse]. Call [Client.Reset]
// when the server announces that its tools changed (from
// [mcp.ClientOptions].ToolListChangedHandler).
//
// Violations come in the schema package's stable order, which follows the
// schema's property order; the SDK hands a client each listed schema as a
// decoded map, so that order is alphabetical here, whatever the server's
// author wrote.
type Client struct {
	session *mcp.ClientSession

	mu    sync.Mutex
	tools map[string]clientEntry // by name; nil until listed
}

// A clientEntry is a listed tool's compiled outputSchema, nil when it
// declares none, or the error compiling it.
type clientEntry struct {
	schema *schema.Schema
	err    error
}

// NewClient returns a Client calling the tools of cs, which must not be
// nil. The session stays the caller's: closing it is theirs too.
func NewClient(cs *mcp.ClientSession) *Client {
	return &Client{session: cs}
}

// Session returns the session c calls.
func (c *Client) Session() *mcp.ClientSession { return c.session }

// CallTool calls a tool as [mcp.ClientSession.CallTool] does, then checks
// the result:
//
//   - a tool that declares an outputSchema must answer a successful call
//     with structuredContent that matches it; otherwise CallTool returns the
//     result beside an [*OutputError] listing every violation with its
//     path (a missing structuredContent is one violation at "$");
//   - an error result (IsError) is returned as it is, with a nil error, as
//     the SDK returns it: MCP promises structured output only for
//     successful calls, and the error text is for the caller (or its model)
//     to read;
//   - a tool that declares no outputSchema has nothing to check against:
//     its result is returned as it is.
//
// Before calling, CallTool reads the tool's schema (see [Client]), and
// returns an error without calling the tool when its output could not be
// checked: one matching [ErrNoSuchTool] when the server does not list the
// tool, the listing's error, or one wrapping the schema package's
// [*schema.InvalidSchemaError] when the declared outputSchema does not
// compile. A failed call returns the SDK's error. A nil params is refused.
func (c *Client) CallTool(ctx context.Context, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	if params == nil {
		return nil, errors.New("mcpagentio: CallTool needs params")
	}
	name := params.Name
	s, err := c.OutputSchema(ctx, name)
	if err != nil {
		return nil, err
	}
	res, err := c.session.CallTool(ctx, params)
	if err != nil || res == nil || res.IsError || s == nil {
		return res, err
	}
	if vs := checkResult(s, res); len(vs) > 0 {
		return res, &OutputError{Tool: name, Violations: vs}
	}
	return res, nil
}

// OutputSchema returns the compiled outputSchema the named tool declares,
// nil (and no error) when it declares none. The error matches
// [ErrNoSuchTool] when the server does not list the tool; it is the
// listing's error, or wraps the [*schema.InvalidSchemaError] of a declared
// schema that does not compile.
func (c *Client) OutputSchema(ctx context.Context, name string) (*schema.Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.tools[name]
	if !ok {
		tools, err := c.list(ctx)
		if err != nil {
			return nil, err
		}
		c.tools = tools
		if e, ok = tools[name]; !ok {
			return nil, fmt.Errorf("%w: %s", ErrNoSuchTool, name)
		}
	}
	if e.err != nil {
		return nil, fmt.Errorf("mcpagentio: tool %q: outputSchema: %w", name, e.err)
	}
	return e.schema, nil
}

// Reset forgets the tools' schemas; the next call lists them again.
func (c *Client) Reset() {
	c.mu.Lock()
	c.tools = nil
	c.mu.Unlock()
}

// list reads every page of the session's tools and compiles their output
// schemas.
func (c *Client) list(ctx context.Context) (map[string]clientEntry, error) {
	tools := make(map[string]clientEntry)
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("mcpagentio: list tools: %w", err)
		}
		var e clientEntry
		e.schema, e.err = compileDeclared(t.OutputSchema)
		tools[t.Name] = e
	}
	return tools, nil
}
