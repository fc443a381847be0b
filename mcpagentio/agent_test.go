package mcpagentio_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/mcpagentio"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// serveAgent serves the agent of doc with the model p, behind the output
// middleware, and returns a checking client for it.
func serveAgent(t *testing.T, doc string, p provider.Provider, opts ...blueprint.Option) *mcpagentio.Client {
	t.Helper()
	bp, err := blueprint.Parse([]byte(doc))
	require.NoError(t, err)
	tl, h, err := mcpagentio.AgentTool(bp, p, opts...)
	require.NoError(t, err)
	server := newServer()
	server.AddReceivingMiddleware(mcpagentio.ValidateOutputs)
	server.AddTool(tl, h)
	return mcpagentio.NewClient(connect(t, server))
}

// listed returns the one tool a session lists.
func listed(t *testing.T, cs *mcp.ClientSession) *mcp.Tool {
	t.Helper()
	var tools []*mcp.Tool
	for tl, err := range cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		tools = append(tools, tl)
	}
	require.Len(t, tools, 1)
	return tools[0]
}

func TestAgentToolEndToEnd(t *testing.T) {
	p := providertest.New(providertest.Text(`{"verdict": "maybe"}`), providertest.Text(`{"verdict": "approve"}`))
	c := serveAgent(t, reviewerAgent, p)
	ctx := context.Background()

	tl := listed(t, c.Session())
	assert.Equal(t, "reviewer", tl.Name)
	assert.Equal(t, "Reviews a diff.", tl.Description)
	in, err := json.Marshal(tl.InputSchema)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type": "object", "properties": {"language": {"type": "string"}, "prompt": {"type": "string", "minLength": 1}}, "required": ["language", "prompt"]}`, string(in),
		"the parameters_schema with the agent's prompt")
	out, err := json.Marshal(tl.OutputSchema)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}`, string(out))

	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "Review PR 42.", "language": "Go"}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	assert.JSONEq(t, `{"verdict": "approve"}`, structuredJSON(t, res))
	assert.JSONEq(t, `{"verdict": "approve"}`, text(t, res), "a text copy for clients that read only text")

	reqs := p.Requests()
	require.Len(t, reqs, 2, "the agent was re-asked once")
	first := reqs[0].Messages[0].Content
	assert.Contains(t, first, "language: Go")
	assert.Contains(t, first, "Review PR 42.")
	reask := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	assert.Contains(t, reask, "$.verdict: 'maybe' is not one of ['approve', 'reject']", "the re-ask names the violation")
}

func TestAgentToolParameterErrors(t *testing.T) {
	p := providertest.New()
	c := serveAgent(t, reviewerAgent, p)
	ctx := context.Background()
	tests := []struct {
		name string
		args any
		want string // the error result's JSON
	}{
		{
			name: "missing and mistyped",
			args: map[string]any{"language": 7},
			want: `{"error": "parameter_validation_failed", "message": "Parameters do not match agent's parameters_schema", "agent_name": "reviewer",
				"validation_errors": [
					{"path": "$.language", "message": "expected string, got integer 7", "schema_path": "properties.language.type"},
					{"path": "$.prompt", "message": "'prompt' is a required property", "schema_path": "required"}],
				"parameters_schema": {"type": "object", "properties": {"language": {"type": "string"}, "prompt": {"type": "string", "minLength": 1}}, "required": ["language", "prompt"]}}`,
		},
		{
			name: "not an object",
			args: []int{1, 2},
			want: `{"error": "parameter_validation_failed", "message": "Parameters do not match agent's parameters_schema", "agent_name": "reviewer",
				"validation_errors": [{"path": "$", "message": "the arguments are not a JSON object", "schema_path": ""}],
				"parameters_schema": {"type": "object", "properties": {"language": {"type": "string"}, "prompt": {"type": "string", "minLength": 1}}, "required": ["language", "prompt"]}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "reviewer", Arguments: tt.args})
			require.NoError(t, err, "a tool error, for the model to correct its arguments")
			require.True(t, res.IsError)
			assert.Nil(t, res.StructuredContent)
			assert.JSONEq(t, tt.want, text(t, res))
		})
	}
	assert.Empty(t, p.Requests(), "no model call for bad parameters")
}

func TestAgentToolRunFailures(t *testing.T) {
	ctx := context.Background()
	args := map[string]any{"prompt": "Review.", "language": "Go"}
	tests := []struct {
		name    string
		replies []providertest.Reply
		want    string // the error result's text
		isJSON  bool
	}{
		{
			name:    "never valid",
			replies: []providertest.Reply{providertest.Text(`{"verdict": "maybe"}`), providertest.Text(`{"verdict": "perhaps"}`)},
			want:    `{"error": "OutputSchemaValidationError", "message": "Output validation failed after 1 retry", "errors": [{"path": "$.verdict", "message": "'perhaps' is not one of ['approve', 'reject']"}]}`,
			isJSON:  true,
		},
		{
			name:    "refused",
			replies: []providertest.Reply{providertest.Refused("I cannot review this.")},
			want:    "I cannot review this.",
		},
		{
			name:    "provider failure",
			replies: []providertest.Reply{providertest.Failed(errors.New("503 overloaded"))},
			want:    "503 overloaded",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := providertest.New(tt.replies...)
			c := serveAgent(t, reviewerAgent, p, blueprint.WithEnforceOptions(enforce.WithMaxRetries(1)))
			res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "reviewer", Arguments: args})
			require.NoError(t, err)
			require.True(t, res.IsError)
			if tt.isJSON {
				assert.JSONEq(t, tt.want, text(t, res))
			} else {
				assert.Contains(t, text(t, res), tt.want)
			}
		})
	}
}

func TestAgentToolCancelled(t *testing.T) {
	bp, err := blueprint.Parse([]byte(reviewerAgent))
	require.NoError(t, err)
	_, h, err := mcpagentio.AgentTool(bp, providertest.New(providertest.Text(`{"verdict": "approve"}`)))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := h(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "reviewer", Arguments: json.RawMessage(`{"prompt": "x", "language": "Go"}`)}})
	assert.ErrorIs(t, err, context.Canceled, "a call whose context ended is a JSON-RPC error")
	assert.Nil(t, res)
}

func TestAgentToolShapes(t *testing.T) {
	ctx := context.Background()

	t.Run("free text", func(t *testing.T) {
		p := providertest.New(providertest.Text("Looks good to me."))
		c := serveAgent(t, `{"name": "chat", "system_prompt": "Be brief."}`, p)
		tl := listed(t, c.Session())
		assert.Nil(t, tl.OutputSchema, "no output schema, none declared")
		res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "chat", Arguments: map[string]any{"prompt": "Hi"}})
		require.NoError(t, err)
		assert.False(t, res.IsError)
		assert.Equal(t, "Looks good to me.", text(t, res))
		assert.Nil(t, res.StructuredContent)
	})

	t.Run("root type list declared as object", func(t *testing.T) {
		p := providertest.New(providertest.Text(`{"n": 1}`))
		c := serveAgent(t, `{"name": "counter", "output_schema": {"type": ["object", "null"], "properties": {"n": {"type": "integer"}}, "required": ["n"]}}`, p)
		out, err := json.Marshal(listed(t, c.Session()).OutputSchema)
		require.NoError(t, err)
		assert.JSONEq(t, `{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}`, string(out))
		res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "counter", Arguments: map[string]any{"prompt": "Count."}})
		require.NoError(t, err)
		assert.JSONEq(t, `{"n": 1}`, structuredJSON(t, res))
	})

	t.Run("large numbers keep their digits", func(t *testing.T) {
		p := providertest.New(providertest.Text(`{"ok": true}`))
		c := serveAgent(t, `{"name": "big", "parameters_schema": {"type": "object", "properties": {"id": {"type": "integer"}}},
			"output_schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`, p)
		_, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "big", Arguments: json.RawMessage(`{"prompt": "Look up.", "id": 12345678901234567890}`)})
		require.NoError(t, err)
		require.Len(t, p.Requests(), 1)
		assert.Contains(t, p.Requests()[0].Messages[0].Content, "id: 12345678901234567890")
	})
}

func TestAgentToolErrors(t *testing.T) {
	p := providertest.New()
	procedural, err := blueprint.Parse([]byte(`{"name": "script", "type": "procedural"}`))
	require.NoError(t, err)
	_, _, err = mcpagentio.AgentTool(procedural, p)
	assert.ErrorIs(t, err, blueprint.ErrNotAutonomous)
	_, _, err = mcpagentio.AgentTool(nil, p)
	assert.Error(t, err)
	bp, err := blueprint.Parse([]byte(reviewerAgent))
	require.NoError(t, err)
	_, _, err = mcpagentio.AgentTool(bp, nil)
	assert.Error(t, err)
}
