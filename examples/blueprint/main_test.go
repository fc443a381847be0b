package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/golden"
)

// TestOutput runs the example as main does and checks what it prints against
// testdata/output.golden (go test ./examples/blueprint -update rewrites it).
func TestOutput(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(context.Background(), &out, "agents"))
	golden.Check(t, "output", out.String())
}
