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
	"github.com/agentio/agentio/mcpagentio"
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

// replies are, twice, a wrong reply, stopped at its verdict when
// streamed, and a valid one, both streamed in small pieces.
func replies() *providertest.Provider {
	wrong := providertest.Chunked(4, `{"verdict": "maybe", "reasons": ["the tests do not cover the new branch", "the name is unclear"]}`)
	valid := providertest.Chunked(4, `{"verdict": "approve", "reasons": ["small", "tested"]}`)
	return providertest.New(wrong, valid, wrong, valid)
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

// checkToolProgress serves tool, calls it twice with args, first without
// a progress token, then with one, and checks what its client heard: the
// notifications of the second call only, and a stream for it only.
func checkToolProgress(t *testing.T, tl *mcp.Tool, h mcp.ToolHandler, p *providertest.Provider, args map[string]any) {
	t.Helper()
	server := newServer()
	server.AddTool(tl, h)
	var n notes
	c := mcpagentio.NewClient(connectWith(t, server, &mcp.ClientOptions{ProgressNotificationHandler: n.handle}))
	for _, token := range []string{"", "tok-1"} {
		params := &mcp.CallToolParams{Name: tl.Name, Arguments: args}
		if token != "" {
			params.Meta = mcp.Meta{"progressToken": token} // SetProgressToken drops a token into a nil Meta
		}
		res, err := c.CallTool(context.Background(), params)
		require.NoError(t, err)
		require.False(t, res.IsError)
		assert.JSONEq(t, `{"verdict": "approve", "reasons": ["small", "tested"]}`, structuredJSON(t, res))
	}
	// A notification of the first call would come before the second's.
	checkProgress(t, n.await(t, len(wantProgress)))
	streamed := p.Streamed()
	require.Len(t, streamed, 2, "only the call with a token streams")
	assert.Less(t, streamed[0], 10, "the wrong reply was stopped at its verdict")
}

func TestAgentToolProgress(t *testing.T) {
	bp, err := blueprint.Parse([]byte(reviewerAgent))
	require.NoError(t, err)
	p := replies()
	tl, h, err := mcpagentio.AgentTool(bp, p)
	require.NoError(t, err)
	checkToolProgress(t, tl, h, p, map[string]any{"prompt": "Review PR 42.", "language": "Go"})
}

func TestTaskToolProgress(t *testing.T) {
	out, err := schema.Parse([]byte(`{"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}`))
	require.NoError(t, err)
	p := replies()
	tl, h, err := mcpagentio.TaskTool(mcpagentio.Task{Name: "review", Output: out}, p)
	require.NoError(t, err)
	checkToolProgress(t, tl, h, p, map[string]any{"prompt": "Review PR 42."})
}
