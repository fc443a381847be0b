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
// against testdata/output.golden (go test ./examples/grounding -update
// rewrites it).
func TestOutput(t *testing.T) {
	golden.CheckOutput(t, "output", func(w io.Writer) error { return run(context.Background(), w) })
}

// TestFabricationReasked checks what the golden file shows: each invention
// is named on the first attempt, the re-ask says what to do, the second
// attempt passes.
func TestFabricationReasked(t *testing.T) {
	var b strings.Builder
	require.NoError(t, run(context.Background(), &b))
	out := b.String()
	assert.Contains(t, out, "attempt 1: invalid")
	assert.Contains(t, out, "$.evidence[0]")
	assert.Contains(t, out, "quote the inputs exactly, or leave the quote out")
	assert.Contains(t, out, "'LEGAL-999' is not among")
	assert.Contains(t, out, "'John Doe' is a placeholder")
	assert.NotContains(t, out, "'N/A' is a placeholder")
	assert.Contains(t, out, "attempt 2: valid")
}
