package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/golden"
)

// TestOutput runs the example as main does and checks what it prints
// against testdata/output.golden (go test ./examples/review -update
// rewrites it).
func TestOutput(t *testing.T) {
	golden.CheckOutput(t, "output", func(w io.Writer) error { return run(context.Background(), w) })
}

// TestContradictionReachesTheWriter checks the part the golden file shows
// only in passing: the contradiction is in the writer's prompt.
func TestContradictionReachesTheWriter(t *testing.T) {
	var b strings.Builder
	require.NoError(t, run(context.Background(), &b))
	out := b.String()
	assert.Contains(t, out, `"kind":"conflict","key":{"file":"server.go","line":42}`)
	assert.Contains(t, out, `"kind":"near"`)
	assert.Contains(t, out, "writer attempt 1: invalid")
	assert.Contains(t, out, "writer attempt 2: valid")
}
