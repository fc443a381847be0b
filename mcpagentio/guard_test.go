package mcpagentio_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/mcpagentio"
	"github.com/agentio/agentio/schema"
)

// badReport is the text a model receives instead of the "bad" tool's output.
const badReport = `The output of tool "bad" was withheld because it does not match the tool's outputSchema:
- $.severity: 'critical' is not one of ['low', 'high']
- $.line: 'line' is a required property`

// serverTests are the checks both server-side forms (Guard and the
// middleware) must pass, over a raw client session.
func serverTests(t *testing.T, cs *mcp.ClientSession) {
	ctx := context.Background()
	tests := []struct {
		name    string
		tool    string
		isError bool
		text    string // the text content, "" for not checked
		content string // the structuredContent's JSON, "" for none
	}{
		{name: "good output passes", tool: "good", content: `{"severity":"low","line":9}`, text: `{"severity": "low", "line": 9}`},
		{name: "bad output refused", tool: "bad", isError: true, text: badReport},
		{name: "missing structuredContent refused", tool: "missing", isError: true, text: `The output of tool "missing" was withheld because it does not match the tool's outputSchema:
- $: the result has no structuredContent, but the tool declares an outputSchema, so it must have one`},
		{name: "tool error passes", tool: "failing", isError: true, text: "disk on fire"},
		{name: "no outputSchema passes", tool: "free", content: `{"anything":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool})
			require.NoError(t, err, "never a JSON-RPC error")
			assert.Equal(t, tt.isError, res.IsError)
			if tt.text != "" {
				assert.Equal(t, tt.text, text(t, res))
			}
			if tt.content == "" {
				assert.Nil(t, res.StructuredContent, "a refused output is not sent")
			} else {
				assert.JSONEq(t, tt.content, structuredJSON(t, res))
			}
		})
	}
}

func TestAddToolRefusesBadOutputs(t *testing.T) {
	server := newServer()
	for name, h := range map[string]mcp.ToolHandler{
		"good":    fixed(`{"severity": "low", "line": 9}`),
		"bad":     fixed(`{"severity": "critical"}`),
		"missing": fixed(""),
		"failing": failing,
	} {
		require.NoError(t, mcpagentio.AddTool(server, tool(name), h))
	}
	require.NoError(t, mcpagentio.AddTool(server, &mcp.Tool{Name: "free", InputSchema: json.RawMessage(`{"type":"object"}`)}, fixed(`{"anything": true}`)))
	serverTests(t, connect(t, server))
}

func TestValidateOutputsRefusesBadOutputs(t *testing.T) {
	server := newServer()
	server.AddReceivingMiddleware(mcpagentio.ValidateOutputs)
	server.AddTool(tool("good"), fixed(`{"severity": "low", "line": 9}`))
	server.AddTool(tool("bad"), fixed(`{"severity": "critical"}`))
	server.AddTool(tool("missing"), fixed(""))
	server.AddTool(tool("failing"), failing)
	server.AddTool(&mcp.Tool{Name: "free", InputSchema: json.RawMessage(`{"type":"object"}`)}, fixed(`{"anything": true}`))
	serverTests(t, connect(t, server))
}

// TestRefusalReachesSendingMiddleware checks that the server's own
// middleware can read the *OutputError behind a refusal.
func TestRefusalReachesSendingMiddleware(t *testing.T) {
	for _, guard := range []string{"AddTool", "ValidateOutputs"} {
		t.Run(guard, func(t *testing.T) {
			server := newServer()
			var (
				mu   sync.Mutex
				seen error
			)
			// The middleware added last is the outermost: the observer
			// goes after the guard, as logging would.
			if guard == "AddTool" {
				require.NoError(t, mcpagentio.AddTool(server, tool("bad"), fixed(`{"severity": "critical", "line": 2}`)))
			} else {
				server.AddReceivingMiddleware(mcpagentio.ValidateOutputs)
				server.AddTool(tool("bad"), fixed(`{"severity": "critical", "line": 2}`))
			}
			server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
					res, err := next(ctx, method, req)
					if r, ok := res.(*mcp.CallToolResult); ok {
						mu.Lock()
						seen = r.GetError()
						mu.Unlock()
					}
					return res, err
				}
			})
			_, err := connect(t, server).CallTool(context.Background(), &mcp.CallToolParams{Name: "bad"})
			require.NoError(t, err)
			mu.Lock()
			defer mu.Unlock()
			var oe *mcpagentio.OutputError
			require.ErrorAs(t, seen, &oe)
			assert.Equal(t, schema.Violations{{Path: "$.severity", Pointer: "/severity", Keyword: "enum", SchemaPath: "/properties/severity/enum", Message: "'critical' is not one of ['low', 'high']"}}, oe.Violations)
		})
	}
}

// TestValidateOutputsFollowsTheServer checks that the middleware sees tools
// added and replaced after it, and lists them across pages.
func TestValidateOutputsFollowsTheServer(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "paged", Version: "v0.0.1"}, &mcp.ServerOptions{PageSize: 2})
	server.AddReceivingMiddleware(mcpagentio.ValidateOutputs)
	for _, name := range []string{"a", "b", "c", "d"} {
		server.AddTool(tool(name), fixed(`{"severity": "low", "line": 1}`))
	}
	server.AddTool(tool("z"), fixed(`{"severity": "low"}`))
	cs := connect(t, server)
	ctx := context.Background()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "z"})
	require.NoError(t, err)
	assert.True(t, res.IsError, "found on the third page")

	// Replace z with a tool whose schema its output meets.
	server.AddTool(&mcp.Tool{
		Name:         "z",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type": "object", "required": ["severity"]}`),
	}, fixed(`{"severity": "low"}`))
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "z"})
	require.NoError(t, err)
	assert.False(t, res.IsError, "the replacement's schema is used")

	server.AddTool(&mcp.Tool{
		Name:         "broken",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type": "object", "properties": {"a": {"minLength": -1}}}`),
	}, fixed(`{"a": "x"}`))
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "broken"})
	require.NoError(t, err)
	require.True(t, res.IsError, "an output that cannot be checked is not sent")
	assert.Contains(t, text(t, res), `mcpagentio: tool "broken": cannot check the output: outputSchema:`)

	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "a"})
			if assert.NoError(t, err) {
				assert.False(t, res.IsError)
			}
		}()
	}
	wg.Wait()
}

// TestValidateOutputsPassesProtocolErrors checks that JSON-RPC errors (an
// unknown tool, a handler's own error) and other methods pass unchanged.
func TestValidateOutputsPassesProtocolErrors(t *testing.T) {
	server := newServer()
	server.AddReceivingMiddleware(mcpagentio.ValidateOutputs)
	server.AddTool(tool("crash"), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("handler crashed")
	})
	cs := connect(t, server)
	ctx := context.Background()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"})
	assert.ErrorContains(t, err, `unknown tool "nope"`)
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "crash"})
	assert.ErrorContains(t, err, "handler crashed")
	require.NoError(t, cs.Ping(ctx, nil))
}

func TestAddToolErrors(t *testing.T) {
	server := newServer()
	h := fixed(`{}`)
	tests := []struct {
		name string
		tool *mcp.Tool
		is   error
	}{
		{name: "no input schema", tool: &mcp.Tool{Name: "x"}, is: mcpagentio.ErrNotObject},
		{name: "input not an object", tool: &mcp.Tool{Name: "x", InputSchema: json.RawMessage(`{"type": "string"}`)}, is: mcpagentio.ErrNotObject},
		{name: "output type list", tool: &mcp.Tool{Name: "x", InputSchema: json.RawMessage(`{"type": "object"}`), OutputSchema: json.RawMessage(`{"type": ["object", "null"]}`)}, is: mcpagentio.ErrNotObject},
		{name: "output does not compile", tool: &mcp.Tool{Name: "x", InputSchema: json.RawMessage(`{"type": "object"}`), OutputSchema: json.RawMessage(`{"type": "object", "properties": {"a": {"type": "strin"}}}`)}},
		{name: "nil tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := mcpagentio.AddTool(server, tt.tool, h)
			require.Error(t, err, "an error, not the SDK's panic")
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
		})
	}
	_, err := mcpagentio.Guard(&mcp.Tool{Name: "x", OutputSchema: json.RawMessage(`{"type": "strin"}`)}, h)
	var ise *schema.InvalidSchemaError
	require.ErrorAs(t, err, &ise, "a bad outputSchema is refused when the tool is added")
	g, err := mcpagentio.Guard(&mcp.Tool{Name: "free"}, h)
	require.NoError(t, err)
	assert.NotNil(t, g, "a tool without outputSchema keeps its handler")
}
