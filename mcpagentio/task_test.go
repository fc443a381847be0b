package mcpagentio_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/mcpagentio"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

func mustSchema(t *testing.T, doc string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(doc))
	require.NoError(t, err)
	return s
}

func serveTask(t *testing.T, task mcpagentio.Task, p *providertest.Provider) *mcpagentio.Client {
	t.Helper()
	tl, h, err := mcpagentio.TaskTool(task, p)
	require.NoError(t, err)
	server := newServer()
	server.AddTool(tl, h)
	return mcpagentio.NewClient(connect(t, server))
}

func TestTaskTool(t *testing.T) {
	ctx := context.Background()
	p := providertest.New(providertest.Text(`{"city": "Paris"}`), providertest.Text(`{"city": "Paris", "country": "FR"}`))
	c := serveTask(t, mcpagentio.Task{
		Name:        "locate",
		Description: "Finds where a landmark is.",
		Input:       mustSchema(t, `{"type": "object", "properties": {"landmark": {"type": "string"}}, "required": ["landmark"]}`),
		Output:      mustSchema(t, `{"type": "object", "properties": {"city": {"type": "string"}, "country": {"type": "string", "pattern": "^[A-Z]{2}$"}}, "required": ["city", "country"]}`),
		System:      "Answer with JSON.",
		Prompt: func(args map[string]any) (string, error) {
			return fmt.Sprintf("Where is %v?", args["landmark"]), nil
		},
	}, p)

	tl := listed(t, c.Session())
	assert.Equal(t, "Finds where a landmark is.", tl.Description)
	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "locate", Arguments: map[string]any{"landmark": "the Eiffel Tower"}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"city": "Paris", "country": "FR"}`, structuredJSON(t, res))
	assert.JSONEq(t, `{"city": "Paris", "country": "FR"}`, text(t, res))
	reqs := p.Requests()
	require.Len(t, reqs, 2, "re-asked for the missing country")
	assert.Contains(t, reqs[0].Messages[0].Content, "Where is the Eiffel Tower?")
	assert.Contains(t, reqs[0].System, "Answer with JSON.")

	res, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "locate", Arguments: map[string]any{"place": "x"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.JSONEq(t, `{"error": "parameter_validation_failed", "message": "Parameters do not match agent's parameters_schema", "agent_name": "locate",
		"validation_errors": [{"path": "$.landmark", "message": "'landmark' is a required property", "schema_path": "required"}],
		"parameters_schema": {"type": "object", "properties": {"landmark": {"type": "string"}}, "required": ["landmark"]}}`, text(t, res))
	assert.Len(t, p.Requests(), 2, "no model call for bad arguments")
}

func TestTaskToolDefaults(t *testing.T) {
	ctx := context.Background()
	p := providertest.New(providertest.Text(`{"title": "Hello"}`))
	c := serveTask(t, mcpagentio.Task{
		Name:   "title",
		Output: mustSchema(t, `{"properties": {"title": {"type": "string"}}, "required": ["title"]}`),
	}, p)
	tl := listed(t, c.Session())
	in, err := json.Marshal(tl.InputSchema)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type": "object", "properties": {"prompt": {"type": "string", "minLength": 1}}, "required": ["prompt"]}`, string(in), "a bare prompt by default")
	out, err := json.Marshal(tl.OutputSchema)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}`, string(out), "declared with the type MCP requires")

	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "title", Arguments: map[string]any{"prompt": "Title this."}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"title": "Hello"}`, structuredJSON(t, res))
	assert.True(t, strings.HasPrefix(p.Requests()[0].Messages[0].Content, "Title this."), "inputs.Format renders the bare prompt")
}

func TestTaskToolFailures(t *testing.T) {
	ctx := context.Background()
	out := `{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}`

	p := providertest.New(providertest.Text(`{"n": "one"}`))
	c := serveTask(t, mcpagentio.Task{Name: "count", Output: mustSchema(t, out), Options: []enforce.Option{enforce.WithMaxRetries(0)}}, p)
	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"prompt": "Count."}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.JSONEq(t, `{"error": "OutputSchemaValidationError", "message": "Output validation failed after 0 retries", "errors": [{"path": "$.n", "message": "expected integer, got string \"one\""}]}`, text(t, res))

	c = serveTask(t, mcpagentio.Task{Name: "count", Output: mustSchema(t, out), Prompt: func(map[string]any) (string, error) {
		return "", errors.New("no template for that")
	}}, providertest.New())
	res, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"prompt": "Count."}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Equal(t, `mcpagentio: task "count": prompt: no template for that`, text(t, res))
}

func TestTaskToolErrors(t *testing.T) {
	p := providertest.New()
	out := mustSchema(t, `{"type": "object"}`)
	tests := []struct {
		name string
		task mcpagentio.Task
		is   error
	}{
		{name: "no name", task: mcpagentio.Task{Output: out}},
		{name: "no output", task: mcpagentio.Task{Name: "x"}},
		{name: "output not an object", task: mcpagentio.Task{Name: "x", Output: mustSchema(t, `{"type": "array"}`)}, is: mcpagentio.ErrNotObject},
		{name: "input not an object", task: mcpagentio.Task{Name: "x", Input: mustSchema(t, `{"type": "string"}`), Output: out}, is: mcpagentio.ErrNotObject},
		{name: "bad option", task: mcpagentio.Task{Name: "x", Output: out, Options: []enforce.Option{enforce.WithMaxRetries(-1)}}, is: enforce.ErrInvalidOption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := mcpagentio.TaskTool(tt.task, p)
			require.Error(t, err)
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
		})
	}
	_, _, err := mcpagentio.TaskTool(mcpagentio.Task{Name: "x", Output: out}, nil)
	assert.Error(t, err)
}
