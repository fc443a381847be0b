package record_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/record"
)

// TestCapabilitiesRetried: a capabilities file that cannot be written
// fails the call that tried, and the next call tries again, so a replay
// reports the capabilities recorded and asks in the recorded mode.
func TestCapabilitiesRetried(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	caps := provider.Capabilities{NativeSchema: true, StrictSchema: true, Dialect: "openai"}
	// A directory in the file's place makes its write fail.
	blocker := filepath.Join(dir, "capabilities.json")
	require.NoError(t, os.Mkdir(blocker, 0o755))
	sp := provider.WithCapabilities(providertest.New(providertest.Text("one"), providertest.Text("two")), caps)
	rec := newRecorder(t, sp, dir, record.Record, nil)
	_, err := rec.Generate(ctx, ask("One."))
	require.Error(t, err, "the failed write is the caller's to see")
	require.NoError(t, os.Remove(blocker))

	_, err = rec.Generate(ctx, ask("Two."))
	require.NoError(t, err)
	rep := newRecorder(t, nil, dir, record.Replay, nil)
	assert.Equal(t, caps, rep.Capabilities(), "written by the second call")
}

// TestMalformedCapabilities: a capabilities file that does not parse is a
// *FileError from New, not a text-only provider that asks in another mode
// and misses.
func TestMalformedCapabilities(t *testing.T) {
	for _, content := range []string{`{"Tools": "yes"}`, `{"Unknown": true}`, `{`, `{} {}`} {
		t.Run(content, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "capabilities.json"), []byte(content), 0o644))
			_, err := record.New(nil, dir, record.Replay, nil)
			var fe *record.FileError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, filepath.Join(dir, "capabilities.json"), fe.Path)
		})
	}
	t.Run("absent", func(t *testing.T) {
		rep, err := record.New(nil, t.TempDir(), record.Replay, nil)
		require.NoError(t, err)
		assert.Equal(t, provider.Capabilities{}, rep.Capabilities(), "a store without the file: text only")
	})
}

// blockRecording makes the recording of req in dir impossible to write,
// by putting a directory in its file's place.
func blockRecording(t *testing.T, dir string, req *provider.Request, reply providertest.Reply) {
	t.Helper()
	probe := t.TempDir()
	_, err := providertest.Chunks(newRecorder(t, providertest.New(reply), probe, record.Record, nil).(provider.Streamer).Stream(context.Background(), req))
	require.NoError(t, err)
	files := storeFiles(t, probe)
	require.Len(t, files, 1)
	require.NoError(t, os.Mkdir(filepath.Join(dir, filepath.Base(files[0])), 0o755))
}

// TestStreamWriteErrors: a stream whose recording cannot be written tells
// its caller when the caller is still reading (a cut-off stream), and the
// logger when the caller had stopped.
func TestStreamWriteErrors(t *testing.T) {
	ctx := context.Background()
	req := ask("Review.")
	t.Run("cut off", func(t *testing.T) {
		reply := providertest.Reply{Chunks: []string{`{"a": `, `1`}, CutOff: true}
		dir := t.TempDir()
		blockRecording(t, dir, req, reply)
		rec := newRecorder(t, providertest.New(reply), dir, record.Record, nil)
		chunks, err := providertest.Chunks(rec.(provider.Streamer).Stream(ctx, req))
		require.Error(t, err, "the write error reaches the caller")
		assert.NotEmpty(t, chunks)
	})
	t.Run("caller stopped", func(t *testing.T) {
		reply := providertest.Pieces(`{"a": `, `1, `, `"b": 2}`)
		dir := t.TempDir()
		probe := t.TempDir()
		probeRec := newRecorder(t, providertest.New(reply), probe, record.Record, nil)
		for range probeRec.(provider.Streamer).Stream(ctx, req) {
			break
		}
		files := storeFiles(t, probe)
		require.Len(t, files, 1)
		require.NoError(t, os.Mkdir(filepath.Join(dir, filepath.Base(files[0])), 0o755))
		var log bytes.Buffer
		rec := newRecorder(t, providertest.New(reply), dir, record.Record, &record.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
		for _, err := range rec.(provider.Streamer).Stream(ctx, req) {
			require.NoError(t, err)
			break
		}
		assert.Contains(t, log.String(), "not written", "no caller is left to tell: the logger is")
	})
}
