package main

import (
	"context"
	"io"
	"testing"

	"github.com/agentio/agentio/internal/golden"
)

// TestOutput runs the demo as `go run ./examples/registry-server -demo`
// does and checks what it prints against testdata/output.golden
// (go test . -update rewrites it).
func TestOutput(t *testing.T) {
	golden.CheckOutput(t, "output", func(w io.Writer) error { return runDemo(context.Background(), w) })
}
