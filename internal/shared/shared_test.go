package shared_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/shared"
)

// TestMissingData runs this test binary again, as a user's clone and as
// CI would, in a directory that holds a go.work and no data: without the
// variable the lookups skip with the hint; with AGENTIO_CONFORMANCE=required
// they fail, saying so.
func TestMissingData(t *testing.T) {
	if os.Getenv("SHARED_LOOKUP_CHILD") != "" {
		t.Run("suite", func(t *testing.T) { shared.Suite(t) })
		t.Run("corpus", func(t *testing.T) { shared.Corpus(t, "repair.jsonl") })
		return
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.work"), []byte("go 1.26.0\n"), 0o644))
	run := func(required bool) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingData$", "-test.v")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "SHARED_LOOKUP_CHILD=1", shared.EnvRequired+"=")
		if required {
			cmd.Env = append(cmd.Env, shared.EnvRequired+"=required")
		}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run(false)
	require.NoError(t, err, out)
	assert.Contains(t, out, "--- SKIP: TestMissingData/suite")
	assert.Contains(t, out, "run `make conformance-data` to clone it at 44401e0c0467")
	assert.Contains(t, out, "--- SKIP: TestMissingData/corpus")

	out, err = run(true)
	require.Error(t, err, "with the data required, missing data fails")
	assert.Contains(t, out, "--- FAIL: TestMissingData/suite")
	assert.Contains(t, out, "--- FAIL: TestMissingData/corpus")
	assert.Contains(t, out, "AGENTIO_CONFORMANCE=required makes this a failure")
}

// TestFound finds the data where this repository's CI lays it, when it is
// there.
func TestFound(t *testing.T) {
	d := shared.Suite(t)
	assert.DirExists(t, filepath.Join(d, "tests", "draft2020-12"))
	assert.FileExists(t, shared.Corpus(t, "repair.jsonl"))
}
