package main

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReproducible generates the dataset and the recordings afresh and
// checks that they are the example's testdata, file for file: the
// committed data is what this program writes, and writing it again
// changes nothing.
func TestReproducible(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, run(context.Background(), dir, io.Discard))
	want := filepath.Join("..", "..", "testdata")
	n := 0
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		require.NoError(t, err)
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		committed, err := os.ReadFile(filepath.Join(want, rel))
		if assert.NoError(t, err, "%s is not in the testdata", rel) {
			assert.Equal(t, string(committed), string(got), rel)
		}
		n++
		return nil
	}))
	for _, sub := range []string{"recordings/model-a", "recordings/model-b"} {
		committed, err := os.ReadDir(filepath.Join(want, sub))
		require.NoError(t, err)
		fresh, err := os.ReadDir(filepath.Join(dir, sub))
		require.NoError(t, err)
		assert.Len(t, committed, len(fresh), "%s holds files the generator does not write", sub)
	}
	assert.Greater(t, n, 400)
}
