package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/provider/providertest"
)

// TestOutput runs the example as main does and checks what it prints against
// testdata/output.golden (go test ./examples/orchestrator -update rewrites it).
func TestOutput(t *testing.T) {
	golden.CheckOutput(t, "output", func(w io.Writer) error { return run(context.Background(), w, scriptedModel()) })
}

// TestRunFails: an agent that never conforms gets its two resume runs, then
// the run fails and the session result carries the OutputSchemaValidationError.
func TestRunFails(t *testing.T) {
	wrong := providertest.Text(`{"summary": "?", "files_analyzed": -1, "issues": []}`)
	model := providertest.New(wrong, wrong, wrong)
	var out strings.Builder
	require.NoError(t, run(context.Background(), &out, model))
	assert.Equal(t, 3, strings.Count(out.String(), "checked run_"), "the first run and two resume runs")
	assert.Contains(t, out.String(), "created run_3 for ses_1 (attempt 3)")
	assert.NotContains(t, out.String(), "run_4")
	assert.Contains(t, out.String(), `"valid": false`)
	assert.Contains(t, out.String(), `"error": "OutputSchemaValidationError"`)
	assert.Contains(t, out.String(), `"retry_count": 2`)
	assert.Zero(t, model.Remaining())
}
