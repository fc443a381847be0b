package mcpagentio_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/mcpagentio"
	"github.com/agentio/agentio/provider/providertest"
)

// FuzzAgentToolArguments feeds an agent tool arbitrary argument bytes: it
// never panics and never answers with a JSON-RPC error; arguments that
// are not an object are a parameter error without a model call.
func FuzzAgentToolArguments(f *testing.F) {
	for _, seed := range []string{``, `null`, `{}`, `{"prompt": "x", "language": "Go"}`, `[1]`, `"s"`, `{"prompt": 1e400}`, `{} {}`, `{"a":`, `{"prompt": "x", "language": "Go", "n": 123456789012345678901234567890}`} {
		f.Add([]byte(seed))
	}
	bp, err := blueprint.Parse([]byte(reviewerAgent))
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, args []byte) {
		p := providertest.New(providertest.Text(`{"verdict": "approve"}`))
		_, h, err := mcpagentio.AgentTool(bp, p)
		require.NoError(t, err)
		res, err := h(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "reviewer", Arguments: json.RawMessage(args)}})
		require.NoError(t, err)
		require.NotNil(t, res)
		var obj map[string]any
		if json.Unmarshal(args, &obj) != nil || obj == nil {
			if len(args) > 0 && string(args) != "null" {
				assert.True(t, res.IsError, "%q is not an object", args)
			}
		}
		if !res.IsError {
			assert.JSONEq(t, `{"verdict": "approve"}`, string(res.StructuredContent.(json.RawMessage)))
		}
	})
}

// FuzzGuard feeds a guarded tool arbitrary structuredContent bytes: it
// never panics, and an output it sends is valid against the schema.
func FuzzGuard(f *testing.F) {
	for _, seed := range []string{`{"severity": "low", "line": 1}`, `{"severity": "critical"}`, `null`, ``, `[]`, `{"line": 1e400, "severity": "low"}`, `not json`, `{"tags": [1, {"a": []}]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		h, err := mcpagentio.Guard(tool("t"), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: json.RawMessage(content)}, nil
		})
		require.NoError(t, err)
		res, err := h(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "t"}})
		require.NoError(t, err)
		if res.IsError {
			assert.Nil(t, res.StructuredContent)
			var oe *mcpagentio.OutputError
			require.ErrorAs(t, res.GetError(), &oe)
			assert.NotEmpty(t, oe.Violations)
			return
		}
		var v struct {
			Severity string  `json:"severity"`
			Line     float64 `json:"line"`
		}
		require.NoError(t, json.Unmarshal(content, &v), "a sent output is JSON")
		assert.Contains(t, []string{"low", "high"}, v.Severity)
		assert.GreaterOrEqual(t, v.Line, 1.0)
	})
}
