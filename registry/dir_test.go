package registry

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

func newTestDir(t *testing.T, dir string, opts *DirOptions) *Dir {
	t.Helper()
	r, err := NewDir(dir, opts)
	require.NoError(t, err)
	r.now = (&regClock{}).now
	return r
}

func TestDirFileFormat(t *testing.T) {
	dir := t.TempDir()
	r := newTestDir(t, dir, nil)
	ctx := context.Background()
	src := "{\n  \"type\": \"object\",\n  \"properties\": {\"b\": {}, \"a\": {}}\n}\n"
	require.NoError(t, r.Put(ctx, &Entry{Name: "code-analysis-result", Description: `Standard "format" <x>`, Schema: regSchema(t, src)}))
	require.NoError(t, r.Put(ctx, &Entry{Name: "code-analysis-result", Description: `Standard "format" <x>`, Schema: regSchema(t, src)}))

	data, err := os.ReadFile(filepath.Join(dir, "code-analysis-result.json"))
	require.NoError(t, err)
	want := `{
  "name": "code-analysis-result",
  "description": "Standard \"format\" <x>",
  "schema": {
  "type": "object",
  "properties": {"b": {}, "a": {}}
},
  "created_at": "2026-01-05T10:00:01Z",
  "modified_at": "2026-01-05T10:00:02Z"
}
`
	assert.Equal(t, want, string(data))

	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, files, 1, "no temporary file is left behind")

	got, err := r.Get(ctx, "code-analysis-result")
	require.NoError(t, err)
	assert.Equal(t, "{\n  \"type\": \"object\",\n  \"properties\": {\"b\": {}, \"a\": {}}\n}", string(got.Schema.JSON()))
	assert.Equal(t, []string{"b", "a"}, got.Schema.PropertyOrder())
}

func TestDirHandWritten(t *testing.T) {
	r := newTestDir(t, filepath.Join("testdata", "registry", "good"), nil)
	ctx := context.Background()

	list, err := r.List(ctx)
	require.NoError(t, err)
	require.Len(t, list, 2, "notes.md, the temporary file and Not_A_Name.json are ignored")
	assert.Equal(t, "code-analysis-result", list[0].Name)
	assert.Equal(t, "file-count", list[1].Name)

	e, err := r.Get(ctx, "code-analysis-result")
	require.NoError(t, err)
	assert.Equal(t, "Standard format for code analysis output", e.Description)
	assert.Equal(t, time.Date(2026, 1, 5, 10, 0, 0, 0, time.UTC), e.CreatedAt)
	assert.Equal(t, time.Date(2026, 2, 1, 8, 30, 0, 5e8, time.UTC), e.ModifiedAt)
	violations, err := e.Schema.ValidateJSON([]byte(`{"summary":"ok","issues":[{"file":"a.go","severity":"critical"}]}`))
	require.NoError(t, err)
	assert.NotEmpty(t, violations)

	e, err = r.Get(ctx, "file-count")
	require.NoError(t, err)
	assert.Empty(t, e.Description)
	assert.True(t, e.CreatedAt.IsZero(), "a file without timestamps has zero ones")
}

func TestDirCorruptFiles(t *testing.T) {
	dir := filepath.Join("testdata", "registry", "corrupt")
	r := newTestDir(t, dir, nil)
	ctx := context.Background()

	tests := []struct {
		name    string
		message string
		schema  bool // the cause is an *schema.InvalidSchemaError
	}{
		{name: "not-json", message: "unexpected end of JSON input"},
		{name: "no-schema", message: "no schema"},
		{name: "bad-schema", message: "invalid schema at $.type", schema: true},
		{name: "wrong-name", message: `name "other-name" does not match the file name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.Get(ctx, tt.name)
			var ce *CorruptEntryError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, filepath.Join(dir, tt.name+".json"), ce.Path)
			assert.Contains(t, err.Error(), "registry: corrupt registry file "+ce.Path+": ")
			assert.Contains(t, err.Error(), tt.message)
			var ise *schema.InvalidSchemaError
			assert.Equal(t, tt.schema, errors.As(err, &ise))
		})
	}

	list, err := r.List(ctx)
	require.Len(t, list, 1, "the good entry comes with the error")
	assert.Equal(t, "ok", list[0].Name)
	var paths []string
	var joined interface{ Unwrap() []error }
	require.ErrorAs(t, err, &joined)
	for _, e := range joined.Unwrap() {
		var ce *CorruptEntryError
		require.ErrorAs(t, e, &ce)
		paths = append(paths, filepath.Base(ce.Path))
	}
	assert.Equal(t, []string{"bad-schema.json", "no-schema.json", "not-json.json", "wrong-name.json"}, paths)
}

func TestDirPutRepairsCorruptFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s.json"), []byte(`{"name":"s","schema":`), 0o666))
	r := newTestDir(t, dir, nil)
	ctx := context.Background()
	require.NoError(t, r.Put(ctx, &Entry{Name: "s", Schema: regSchema(t, `{}`)}))
	got, err := r.Get(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, regAt(1), got.CreatedAt)
}

func TestDirRemoteRef(t *testing.T) {
	loader := func(uri string) ([]byte, error) { return []byte(`{"type":"string"}`), nil }
	s, err := schema.ParseWith([]byte(`{"$ref":"https://example.com/s.json"}`), &schema.ParseOptions{Loader: loader})
	require.NoError(t, err)
	ctx := context.Background()

	plain := newTestDir(t, t.TempDir(), nil)
	err = plain.Put(ctx, &Entry{Name: "remote", Schema: s})
	var ise *schema.InvalidSchemaError
	require.ErrorAs(t, err, &ise)
	assert.ErrorIs(t, err, schema.ErrRemoteRef)

	withLoader := newTestDir(t, t.TempDir(), &DirOptions{Loader: loader})
	require.NoError(t, withLoader.Put(ctx, &Entry{Name: "remote", Schema: s}))
	got, err := withLoader.Get(ctx, "remote")
	require.NoError(t, err)
	violations, err := got.Schema.ValidateJSON([]byte(`5`))
	require.NoError(t, err)
	assert.NotEmpty(t, violations)
}

func TestNewDir(t *testing.T) {
	base := t.TempDir()
	nested := filepath.Join(base, "a", "schemas")
	r, err := NewDir(nested, nil)
	require.NoError(t, err)
	assert.Equal(t, nested, r.Dir())
	info, err := os.Stat(nested)
	require.NoError(t, err)
	assert.True(t, info.IsDir())

	file := filepath.Join(base, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o666))
	_, err = NewDir(file, nil)
	assert.Error(t, err)

	_, err = NewDir("", nil)
	assert.ErrorIs(t, err, fs.ErrInvalid)
}

func TestDirZeroValue(t *testing.T) {
	var r Dir
	ctx := context.Background()
	_, err := r.Get(ctx, "a")
	assert.ErrorIs(t, err, fs.ErrInvalid)
	assert.ErrorIs(t, r.Put(ctx, &Entry{Name: "a", Schema: regSchema(t, `{}`)}), fs.ErrInvalid)
	_, err = r.List(ctx)
	assert.ErrorIs(t, err, fs.ErrInvalid)
	assert.ErrorIs(t, r.Delete(ctx, "a"), fs.ErrInvalid)
}

func TestDirDirectoryGone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "schemas")
	r := newTestDir(t, dir, nil)
	require.NoError(t, os.Remove(dir))
	ctx := context.Background()

	_, err := r.List(ctx)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	err = r.Put(ctx, &Entry{Name: "a", Schema: regSchema(t, `{}`)})
	assert.ErrorIs(t, err, fs.ErrNotExist)
	_, err = r.Get(ctx, "a")
	assert.ErrorIs(t, err, ErrNotFound)
}
