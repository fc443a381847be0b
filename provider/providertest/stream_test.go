package providertest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

func collect(t *testing.T, p *providertest.Provider, ctx context.Context) ([]provider.Chunk, error) {
	t.Helper()
	var out []provider.Chunk
	for c, err := range p.Stream(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("hi")}}) {
		if err != nil {
			return out, err
		}
		out = append(out, c)
	}
	return out, nil
}

func TestStreamPieces(t *testing.T) {
	p := providertest.New(
		providertest.Pieces(`{"a"`, `: 1}`),
		providertest.Chunked(3, "abcdefg"),
		providertest.Reply{ToolCalls: []provider.ToolCall{{Name: "f", Arguments: []byte(`{"x": 1}`)}}, ChunkSize: 4},
		providertest.Text("whole"),
	)
	chunks, err := collect(t, p, context.Background())
	require.NoError(t, err)
	require.Len(t, chunks, 3)
	assert.Equal(t, []string{`{"a"`, `: 1}`}, []string{chunks[0].Text, chunks[1].Text})
	assert.Equal(t, `{"a": 1}`, chunks[2].Response.Text)

	chunks, err = collect(t, p, context.Background())
	require.NoError(t, err)
	assert.Equal(t, []string{"abc", "def", "g"}, []string{chunks[0].Text, chunks[1].Text, chunks[2].Text})

	chunks, err = collect(t, p, context.Background())
	require.NoError(t, err)
	require.Len(t, chunks, 3)
	assert.Equal(t, provider.ToolCallDelta{Index: 0, ID: "call_1", Name: "f", Arguments: `{"x"`}, *chunks[0].ToolCall)
	assert.Equal(t, provider.ToolCallDelta{Index: 0, Arguments: `: 1}`}, *chunks[1].ToolCall)
	assert.Equal(t, provider.StopToolUse, chunks[2].Response.StopReason)

	chunks, err = collect(t, p, context.Background())
	require.NoError(t, err)
	assert.Len(t, chunks, 2)
	assert.Equal(t, []int{3, 4, 3, 2}, p.Streamed())
	assert.Len(t, p.Requests(), 4)

	_, err = collect(t, p, context.Background())
	var ex *providertest.ExhaustedError
	require.ErrorAs(t, err, &ex)
}

func TestStreamCutOffAndFailure(t *testing.T) {
	boom := errors.New("connection reset")
	p := providertest.New(
		providertest.Reply{Text: "abcd", ChunkSize: 2, CutOff: true},
		providertest.Reply{Chunks: []string{"ab"}, Err: boom},
	)
	chunks, err := collect(t, p, context.Background())
	require.NoError(t, err)
	require.Len(t, chunks, 2, "no final chunk")
	chunks, err = collect(t, p, context.Background())
	require.ErrorIs(t, err, boom)
	assert.Len(t, chunks, 1)

	// Generate of a failing reply fails at once.
	p = providertest.New(providertest.Reply{Chunks: []string{"ab"}, Err: boom})
	_, err = p.Generate(context.Background(), &provider.Request{})
	require.ErrorIs(t, err, boom)
}

func TestStreamDelayAndCancel(t *testing.T) {
	p := providertest.New(providertest.Reply{Text: "abcdef", ChunkSize: 1, Delay: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	var err error
	for _, e := range p.Stream(ctx, &provider.Request{}) {
		if e != nil {
			err = e
			break
		}
		n++
		if n == 2 {
			cancel()
		}
	}
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []int{2}, p.Streamed())

	_, err = collect(t, providertest.New(providertest.Text("x")), ctx)
	require.ErrorIs(t, err, context.Canceled)
}

func TestStreamStopEarly(t *testing.T) {
	p := providertest.New(providertest.Chunked(1, "abcdef"))
	for range p.Stream(context.Background(), &provider.Request{}) {
		break
	}
	assert.Equal(t, []int{1}, p.Streamed())
}
