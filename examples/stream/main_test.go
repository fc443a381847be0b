package main

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/examples/internal/choose"
	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

func offline(t *testing.T) *providertest.Provider {
	t.Helper()
	p, _, err := choose.Model("openai", func(string) string { return "" }, scripted(0))
	require.NoError(t, err)
	return p.(*providertest.Provider)
}

// TestOutput runs the example offline and checks what it prints against
// testdata/output.golden (go test ./examples/stream -update rewrites it).
func TestOutput(t *testing.T) {
	golden.CheckOutput(t, "output", func(w io.Writer) error {
		return run(context.Background(), w, offline(t), "scripted")
	})
}

// TestStopsEarly checks what the golden file shows in passing: the first
// reply is read only up to its wrong severity.
func TestStopsEarly(t *testing.T) {
	p := offline(t)
	require.NoError(t, run(context.Background(), io.Discard, p, "scripted"))
	chunks := p.Streamed()
	require.Len(t, chunks, 2)
	assert.Less(t, chunks[0], (len(wrongReply)+23)/24, "the first reply was stopped before its end")
	assert.Equal(t, (len(goodReply)+23)/24+1, chunks[1])
}

// TestSDKAdapters: this example streams through the SDK adapters, read
// from the same variables as the other examples.
func TestSDKAdapters(t *testing.T) {
	for kind, env := range map[string]map[string]string{
		"openai":    {"OPENAI_API_KEY": "sk-test"},
		"anthropic": {"ANTHROPIC_API_KEY": "sk-ant-test"},
		"gemini":    {"GEMINI_API_KEY": "g-test"},
		"ollama":    {"OLLAMA_HOST": "127.0.0.1:11434"},
	} {
		p, name, err := sdkAdapters().Model(kind, func(k string) string { return env[k] }, scripted(0))
		if assert.NoError(t, err, kind) {
			assert.Contains(t, name, "(provider/"+kind+" adapter)")
			_, streams := p.(provider.Streamer)
			assert.True(t, streams, kind)
		}
	}
}
