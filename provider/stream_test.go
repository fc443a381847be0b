package provider_test

import (
	"context"
	"errors"
	"iter"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
)

func TestCollector(t *testing.T) {
	var c provider.Collector
	c.Add(provider.Chunk{Text: "Hel"})
	c.Add(provider.Chunk{Text: "lo"})
	c.Add(provider.Chunk{ToolCall: &provider.ToolCallDelta{Index: 1, ID: "b", Name: "two", Arguments: `{"y"`}})
	c.Add(provider.Chunk{ToolCall: &provider.ToolCallDelta{Index: 0, ID: "a", Name: "one", Arguments: `{}`}})
	c.Add(provider.Chunk{ToolCall: &provider.ToolCallDelta{Index: 1, Arguments: `: 1}`}})
	c.Add(provider.Chunk{ToolCall: &provider.ToolCallDelta{Index: 1 << 30, Arguments: `ignored`}})
	assert.False(t, c.Done())
	resp := c.Response()
	assert.Equal(t, "Hello", resp.Text)
	assert.Equal(t, provider.StopLength, resp.StopReason, "a stream without its final chunk was cut off")
	assert.Equal(t, "stream_cut_off", resp.RawStopReason)
	require.Len(t, resp.ToolCalls, 2)
	assert.Equal(t, provider.ToolCall{ID: "a", Name: "one", Arguments: []byte(`{}`)}, resp.ToolCalls[0])
	assert.Equal(t, provider.ToolCall{ID: "b", Name: "two", Arguments: []byte(`{"y": 1}`)}, resp.ToolCalls[1])

	final := &provider.Response{Text: "Hello", StopReason: provider.StopEnd}
	c.Add(provider.Chunk{Response: final})
	assert.True(t, c.Done())
	assert.Same(t, final, c.Response())
}

func TestCollectAndChunks(t *testing.T) {
	resp := &provider.Response{Text: "hi", ToolCalls: []provider.ToolCall{{ID: "1", Name: "f", Arguments: []byte(`{}`)}}, StopReason: provider.StopToolUse}
	var chunks []provider.Chunk
	for c, err := range provider.Chunks(resp) {
		require.NoError(t, err)
		chunks = append(chunks, c)
	}
	require.Len(t, chunks, 3)
	assert.Equal(t, "hi", chunks[0].Text)
	assert.Equal(t, "f", chunks[1].ToolCall.Name)
	assert.Same(t, resp, chunks[2].Response)

	got, err := provider.Collect(provider.Chunks(resp))
	require.NoError(t, err)
	assert.Same(t, resp, got)

	for range provider.Chunks(resp) {
		break // stopping early is allowed
	}
	assert.Empty(t, slices(provider.Chunks(nil)))

	boom := errors.New("boom")
	failing := func(yield func(provider.Chunk, error) bool) {
		if yield(provider.Chunk{Text: "x"}, nil) {
			yield(provider.Chunk{}, boom)
		}
	}
	_, err = provider.Collect(failing)
	require.ErrorIs(t, err, boom)
}

func slices(seq iter.Seq2[provider.Chunk, error]) []provider.Chunk {
	var out []provider.Chunk
	for c := range seq {
		out = append(out, c)
	}
	return out
}

// streamer is a Streamer that sends one fixed reply.
type streamer struct{ provider.Func }

func (streamer) Stream(context.Context, *provider.Request) iter.Seq2[provider.Chunk, error] {
	return provider.Chunks(&provider.Response{Text: "{}", StopReason: provider.StopEnd})
}

func TestWithCapabilitiesKeepsStreaming(t *testing.T) {
	p := provider.WithCapabilities(streamer{}, provider.Capabilities{JSONMode: true})
	s, ok := p.(provider.Streamer)
	require.True(t, ok)
	assert.True(t, p.Capabilities().JSONMode)
	resp, err := provider.Collect(s.Stream(context.Background(), &provider.Request{}))
	require.NoError(t, err)
	assert.Equal(t, "{}", resp.Text)

	_, ok = provider.WithCapabilities(provider.Func(nil), provider.Capabilities{}).(provider.Streamer)
	assert.False(t, ok)
}
