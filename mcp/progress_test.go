package mcpagentio_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	mcpagentio "github.com/agentio/agentio/mcp"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// notes collects the progress notifications a client receives.
type notes struct {
	mu   sync.Mutex
	list []*mcp.ProgressNotificationParams
}

func (n *notes) handle(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, req.Params)
}

// await returns the notifications once there are want of them.
func (n *notes) await(t *testing.T, want int) []*mcp.ProgressNotificationParams {
	t.Helper()
	require.Eventually(t, func() bool {
		n.mu.Lock()
		defer n.mu.Unlock()
		return len(n.list) >= want
	}, 5*time.Second, time.Millisecond)
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]*mcp.ProgressNotificationParams(nil), n.list...)
}

// replies are a wrong reply, stopped at its verdict, and a valid one, both
// streamed in small pieces.
func replies() *providertest.Provider {
	return providertest.New(
		providertest.Chunked(4, `{"verdict": "maybe", "reasons": ["the tests do not cover the new branch", "the name is unclear"]}`),
		providertest.Chunked(4, `{"verdict": "approve", "reasons": ["small", "tested"]}`),
	)
}

// wantProgress are the notifications of a call answered by replies.
var wantProgress = []string{
	"attempt 1: invalid, stopped early: 1 violation, $.verdict: 'maybe' is not one of ['approve', 'reject']",
	"attempt 2: writing $",
	"attempt 2: writing $.reasons",
	"attempt 2: writing $.reasons",
	"attempt 2: valid",
}

func checkProgress(t *testing.T, got []*mcp.ProgressNotificationParams) {
	t.Helper()
	var msgs []string
	for i, n := range got {
		msgs = append(msgs, n.Message)
		assert.Equal(t, "tok-1", n.ProgressToken)
		assert.Equal(t, float64(i+1), n.Progress, "progress grows by one a notification")
	}
	assert.Equal(t, wantProgress, msgs)
	part, err := json.Marshal(got[1].Meta[mcpagentio.PartialMetaKey])
	require.NoError(t, err)
	assert.JSONEq(t, `{"attempt": 2, "value": {"verdict": "approve"}, "open": ["$"]}`, string(part))
	assert.Nil(t, got[0].Meta[mcpagentio.PartialMetaKey], "an attempt carries no value")
}

func TestAgentToolProgress(t *testing.T) {
	bp, err := blueprint.Parse([]byte(reviewerAgent))
	require.NoError(t, err)
	p := replies()
	tl, h, err := mcpagentio.AgentTool(bp, p)
	require.NoError(t, err)
	server := newServer()
	server.AddTool(tl, h)
	var n notes
	c := mcpagentio.NewClient(connectWith(t, server, &mcp.ClientOptions{ProgressNotificationHandler: n.handle}))

	params := &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "Review PR 42.", "language": "Go"}}
	params.Meta = mcp.Meta{"progressToken": "tok-1"} // SetProgressToken drops a token into a nil Meta
	res, err := c.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.False(t, res.IsError)
	assert.JSONEq(t, `{"verdict": "approve", "reasons": ["small", "tested"]}`, structuredJSON(t, res))
	checkProgress(t, n.await(t, len(wantProgress)))
	streamed := p.Streamed()
	require.Len(t, streamed, 2)
	assert.Less(t, streamed[0], 10, "the wrong reply was stopped at its verdict")

	// Without a progress token: no notification, and no stream.
	p = replies()
	tl, h, err = mcpagentio.AgentTool(bp, p)
	require.NoError(t, err)
	server = newServer()
	server.AddTool(tl, h)
	var none notes
	c = mcpagentio.NewClient(connectWith(t, server, &mcp.ClientOptions{ProgressNotificationHandler: none.handle}))
	res, err = c.CallTool(context.Background(), &mcp.CallToolParams{Name: "reviewer", Arguments: map[string]any{"prompt": "Review PR 42.", "language": "Go"}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	assert.Empty(t, p.Streamed())
	assert.Empty(t, none.list)
}

func TestTaskToolProgress(t *testing.T) {
	out, err := schema.Parse([]byte(`{"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}`))
	require.NoError(t, err)
	p := replies()
	tl, h, err := mcpagentio.TaskTool(mcpagentio.Task{Name: "review", Output: out}, p)
	require.NoError(t, err)
	server := newServer()
	server.AddTool(tl, h)
	var n notes
	c := mcpagentio.NewClient(connectWith(t, server, &mcp.ClientOptions{ProgressNotificationHandler: n.handle}))

	params := &mcp.CallToolParams{Name: "review", Arguments: map[string]any{"prompt": "Review PR 42."}}
	params.Meta = mcp.Meta{"progressToken": "tok-1"} // SetProgressToken drops a token into a nil Meta
	res, err := c.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.False(t, res.IsError)
	assert.JSONEq(t, `{"verdict": "approve", "reasons": ["small", "tested"]}`, structuredJSON(t, res))
	checkProgress(t, n.await(t, len(wantProgress)))
	assert.Len(t, p.Streamed(), 2)
}
