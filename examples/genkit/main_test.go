package main

import (
	"context"
	"io"
	"testing"

	"github.com/agentio/agentio/internal/golden"
)

// TestOutput runs the example and checks what it prints against
// testdata/output.golden (go test . -update rewrites it).
func TestOutput(t *testing.T) {
	golden.CheckOutput(t, "output", func(w io.Writer) error { return run(context.Background(), w) })
}
