package blueprint_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
)

func TestLoadFileOrFolder(t *testing.T) {
	dir := filepath.Join("testdata", "agents", "summarizer")
	fromDir, err := blueprint.Load(dir)
	require.NoError(t, err)
	fromFile, err := blueprint.Load(filepath.Join(dir, "agent.json"))
	require.NoError(t, err)
	assert.Equal(t, fromDir.Name(), fromFile.Name())
	assert.Equal(t, fromDir.Path(), fromFile.Path())
}

func TestLoadMissing(t *testing.T) {
	_, err := blueprint.Load(filepath.Join("testdata", "nowhere", "agent.json"))
	var le *blueprint.LoadError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, filepath.Join("testdata", "nowhere", "agent.json"), le.Path)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, le.Path+": no such file or directory", err.Error(), "the path is said once")
}

func TestLoadPromptFile(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		prompt  string
		file    string // written as the agent file's name
		want    string
		wantErr string
	}{
		{name: "file only", json: `{"name":"a"}`, prompt: "Be brief.\n", file: "agent.json", want: "Be brief.\n"},
		{name: "null in json", json: `{"name":"a","system_prompt":null}`, prompt: "Be brief.", file: "agent.json", want: "Be brief."},
		{name: "both", json: `{"name":"a","system_prompt":"x"}`, prompt: "y", file: "agent.json", wantErr: "system_prompt: is set both"},
		{name: "other file name ignores it", json: `{"name":"a","system_prompt":"x"}`, prompt: "y", file: "a.json", want: "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.json), 0o600))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "agent.system-prompt.md"), []byte(tt.prompt), 0o600))
			b, err := blueprint.Load(filepath.Join(dir, tt.file))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, b.Instructions())
		})
	}
}

func TestLoadDirSeedAgents(t *testing.T) {
	bps, err := blueprint.LoadDir(filepath.Join("testdata", "agents"))
	require.NoError(t, err)
	var names []string
	for _, b := range bps {
		names = append(names, b.Name())
	}
	assert.Equal(t, exampleAgents, names, "sorted by name")
}

func TestLoadDirReportsEachBadOne(t *testing.T) {
	bps, err := blueprint.LoadDir(filepath.Join("testdata", "broken"))
	require.Len(t, bps, 1, "the good agent still loads")
	assert.Equal(t, "good-agent", bps[0].Name())
	require.Error(t, err)

	joined, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok)
	got := map[string]error{}
	for _, e := range joined.Unwrap() {
		var le *blueprint.LoadError
		require.ErrorAs(t, e, &le)
		got[filepath.Base(filepath.Dir(le.Path))] = le.Err
	}
	require.Len(t, got, 3, "the hidden folder is skipped")
	var fe *blueprint.FieldError
	require.ErrorAs(t, got["badschema"], &fe)
	assert.Equal(t, "output_schema", fe.Field)
	assert.ErrorIs(t, got["notobject"], blueprint.ErrOutputNotObject)
	assert.ErrorIs(t, got["second"], blueprint.ErrDuplicateName)
	assert.Contains(t, got["second"].Error(), filepath.Join("broken", "good", "agent.json"), "names the first definition")
	assert.Contains(t, err.Error(), filepath.Join("testdata", "broken", "notobject", "agent.json")+": blueprint: output_schema:")
}

func TestLoadDirMissing(t *testing.T) {
	bps, err := blueprint.LoadDir(filepath.Join("testdata", "nowhere"))
	assert.Nil(t, bps)
	assert.True(t, errors.Is(err, fs.ErrNotExist))
}
