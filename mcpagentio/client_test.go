package mcpagentio_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/mcpagentio"
	"github.com/agentio/agentio/schema"
)

// uncheckedServer sends whatever its handlers return: no guard, no
// middleware.
func uncheckedServer() *mcp.Server {
	server := newServer()
	server.AddTool(tool("good"), fixed(`{"severity": "high", "line": 3, "tags": ["sql"]}`))
	server.AddTool(tool("bad"), fixed(`{"severity": "critical", "line": 0, "tags": ["ok", 7], "extra": true}`))
	server.AddTool(tool("missing"), fixed(""))
	server.AddTool(tool("null"), fixed("null"))
	server.AddTool(tool("failing"), failing)
	server.AddTool(&mcp.Tool{Name: "free", InputSchema: json.RawMessage(`{"type":"object"}`)}, fixed(`{"anything": true}`))
	server.AddTool(&mcp.Tool{
		Name:         "broken-schema",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type": "object", "properties": {"a": {"type": "strin"}}}`),
	}, fixed(`{"a": "x"}`))
	return server
}

func TestClientCallTool(t *testing.T) {
	c := mcpagentio.NewClient(connect(t, uncheckedServer()))
	ctx := context.Background()
	tests := []struct {
		name       string
		tool       string
		violations []schema.Violation // nil: no OutputError
		isError    bool
	}{
		{name: "valid output", tool: "good"},
		{name: "every violation with its path", tool: "bad", violations: []schema.Violation{
			{Path: "$.line", Pointer: "/line", Keyword: "minimum", SchemaPath: "/properties/line/minimum", Message: "0 is less than the minimum of 1"},
			{Path: "$.severity", Pointer: "/severity", Keyword: "enum", SchemaPath: "/properties/severity/enum", Message: "'critical' is not one of ['low', 'high']"},
			{Path: "$.tags[1]", Pointer: "/tags/1", Keyword: "type", SchemaPath: "/properties/tags/items/type", Message: "expected string, got integer 7"},
		}},
		{name: "missing structuredContent", tool: "missing", violations: []schema.Violation{
			{Path: "$", Message: "the result has no structuredContent, but the tool declares an outputSchema, so it must have one"},
		}},
		{name: "null structuredContent is missing", tool: "null", violations: []schema.Violation{
			{Path: "$", Message: "the result has no structuredContent, but the tool declares an outputSchema, so it must have one"},
		}},
		{name: "a tool error is not checked", tool: "failing", isError: true},
		{name: "no outputSchema, no check", tool: "free"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool})
			require.NotNil(t, res, "the result comes back in every case")
			assert.Equal(t, tt.isError, res.IsError)
			if tt.violations == nil {
				require.NoError(t, err)
				return
			}
			var oe *mcpagentio.OutputError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, tt.tool, oe.Tool)
			assert.Equal(t, schema.Violations(tt.violations), oe.Violations)
		})
	}
}

func TestClientErrors(t *testing.T) {
	c := mcpagentio.NewClient(connect(t, uncheckedServer()))
	ctx := context.Background()

	_, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "nope"})
	require.ErrorIs(t, err, mcpagentio.ErrNoSuchTool)
	assert.EqualError(t, err, "mcpagentio: no such tool: nope")

	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "broken-schema"})
	var ise *schema.InvalidSchemaError
	require.ErrorAs(t, err, &ise, "an outputSchema that does not compile cannot check anything")
	assert.Nil(t, res, "the tool was not called")

	_, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "good"})
	require.NoError(t, err, "one tool's broken schema does not stop the others")

	_, err = c.CallTool(ctx, nil)
	require.Error(t, err)
}

func TestOutputErrorText(t *testing.T) {
	c := mcpagentio.NewClient(connect(t, uncheckedServer()))
	_, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: "bad"})
	assert.EqualError(t, err, `mcpagentio: tool "bad": output does not match its outputSchema: $.line: 0 is less than the minimum of 1 (and 2 more)`)
	_, err = c.CallTool(context.Background(), &mcp.CallToolParams{Name: "missing"})
	assert.EqualError(t, err, `mcpagentio: tool "missing": output does not match its outputSchema: $: the result has no structuredContent, but the tool declares an outputSchema, so it must have one`)
}

// TestClientSchemaCache checks that tools are listed once and that a tool
// added later, or replaced after a Reset, is seen.
func TestClientSchemaCache(t *testing.T) {
	server := newServer()
	server.AddTool(tool("first"), fixed(`{"severity": "low", "line": 1}`))
	lists := 0
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				lists++
			}
			return next(ctx, method, req)
		}
	})
	c := mcpagentio.NewClient(connect(t, server))
	ctx := context.Background()
	for range 3 {
		_, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "first"})
		require.NoError(t, err)
	}
	assert.Equal(t, 1, lists, "listed once")

	server.AddTool(tool("second"), fixed(`{"severity": "low"}`))
	_, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "second"})
	var oe *mcpagentio.OutputError
	require.ErrorAs(t, err, &oe, "a tool not seen yet makes the client list again")
	assert.Equal(t, 2, lists)

	// Replace "first" with a tool without an outputSchema.
	server.AddTool(&mcp.Tool{Name: "first", InputSchema: json.RawMessage(`{"type":"object"}`)}, fixed(`{"severity": "none"}`))
	_, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "first"})
	require.ErrorAs(t, err, &oe, "the cached schema is used until Reset")
	c.Reset()
	s, err := c.OutputSchema(ctx, "first")
	require.NoError(t, err)
	assert.Nil(t, s)
	_, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "first"})
	require.NoError(t, err)
	assert.Equal(t, 3, lists)
	assert.Same(t, c.Session(), c.Session())
}

func TestClientConcurrent(t *testing.T) {
	c := mcpagentio.NewClient(connect(t, uncheckedServer()))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := "good"
			if i%2 == 1 {
				name = "bad"
			}
			_, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: name})
			if name == "good" {
				assert.NoError(t, err)
			} else {
				var oe *mcpagentio.OutputError
				assert.ErrorAs(t, err, &oe)
			}
			if i == 4 {
				c.Reset()
			}
		}()
	}
	wg.Wait()
}
