package provider_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
)

func TestRequestClone(t *testing.T) {
	orig := &provider.Request{
		System: "sys",
		Messages: []provider.Message{
			provider.UserMessage("hi"),
			{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "t", Arguments: json.RawMessage(`{"a":1}`)}}},
			{Role: provider.RoleTool, ToolCallID: "c1", Content: "bad", IsError: true},
		},
		Output:     &provider.OutputSpec{Name: "out", Schema: json.RawMessage(`{"type":"object"}`), Strict: true},
		Tools:      []provider.Tool{{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "t"},
		MaxTokens:  100,
	}
	c := orig.Clone()
	require.Equal(t, orig, c)

	c.Messages[0].Content = "changed"
	c.Messages[1].ToolCalls[0].Arguments[0] = '['
	c.Output.Schema[0] = '['
	c.Output.Name = "other"
	c.Tools[0].InputSchema[0] = '['
	assert.Equal(t, "hi", orig.Messages[0].Content)
	assert.JSONEq(t, `{"a":1}`, string(orig.Messages[1].ToolCalls[0].Arguments))
	assert.JSONEq(t, `{"type":"object"}`, string(orig.Output.Schema))
	assert.Equal(t, "out", orig.Output.Name)
	assert.JSONEq(t, `{"type":"object"}`, string(orig.Tools[0].InputSchema))

	assert.Nil(t, (*provider.Request)(nil).Clone())
	assert.Equal(t, &provider.Request{}, (&provider.Request{}).Clone(), "nil slices stay nil")
}

func TestResponseClone(t *testing.T) {
	orig := &provider.Response{Text: "t", ToolCalls: []provider.ToolCall{{ID: "c", Arguments: json.RawMessage(`{}`)}}, StopReason: provider.StopToolUse}
	c := orig.Clone()
	require.Equal(t, orig, c)
	c.ToolCalls[0].Arguments[0] = '['
	assert.JSONEq(t, `{}`, string(orig.ToolCalls[0].Arguments))
	assert.Nil(t, (*provider.Response)(nil).Clone())
}
