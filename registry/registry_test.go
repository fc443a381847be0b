package registry

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

// regClock is a fake clock for registry tests: each call returns the next
// second after regEpoch.
type regClock struct {
	mu sync.Mutex
	n  int
}

var regEpoch = time.Date(2026, 1, 5, 10, 0, 0, 0, time.UTC)

func (c *regClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return regEpoch.Add(time.Duration(c.n) * time.Second)
}

// regAt is the time the n-th call of a regClock returns.
func regAt(n int) time.Time { return regEpoch.Add(time.Duration(n) * time.Second) }

func regSchema(t testing.TB, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

// registryFactories build each Registry implementation with a fake clock,
// so that every behaviour of the interface is tested on both.
func registryFactories() map[string]func(t *testing.T) Registry {
	return map[string]func(t *testing.T) Registry{
		"memory": func(t *testing.T) Registry {
			r := NewMemory()
			r.now = (&regClock{}).now
			return r
		},
		"dir": func(t *testing.T) Registry {
			r, err := NewDir(t.TempDir(), nil)
			require.NoError(t, err)
			r.now = (&regClock{}).now
			return r
		},
	}
}

func TestRegistry(t *testing.T) {
	for impl, newRegistry := range registryFactories() {
		t.Run(impl, func(t *testing.T) {
			t.Run("put get", func(t *testing.T) { testRegistryPutGet(t, newRegistry(t)) })
			t.Run("replace keeps created_at", func(t *testing.T) { testRegistryReplace(t, newRegistry(t)) })
			t.Run("get returns copies", func(t *testing.T) { testRegistryCopies(t, newRegistry(t)) })
			t.Run("not found", func(t *testing.T) { testRegistryNotFound(t, newRegistry(t)) })
			t.Run("names", func(t *testing.T) { testRegistryNames(t, newRegistry(t)) })
			t.Run("bad entries", func(t *testing.T) { testRegistryBadEntries(t, newRegistry(t)) })
			t.Run("list and delete", func(t *testing.T) { testRegistryListDelete(t, newRegistry(t)) })
			t.Run("cancelled context", func(t *testing.T) { testRegistryCancelled(t, newRegistry(t)) })
			t.Run("concurrent use", func(t *testing.T) { testRegistryConcurrent(t, newRegistry(t)) })
		})
	}
}

func testRegistryPutGet(t *testing.T, r Registry) {
	ctx := context.Background()
	src := "{\n  \"type\": \"object\",\n  \"required\": [\"summary\"],\n  \"properties\": {\"summary\": {\"type\": \"string\"}}\n}"
	in := &Entry{Name: "code-analysis-result", Description: "Standard <format> & more", Schema: regSchema(t, src)}
	require.NoError(t, r.Put(ctx, in))
	assert.Equal(t, &Entry{Name: "code-analysis-result", Description: "Standard <format> & more", Schema: in.Schema}, in, "Put modified its argument")

	got, err := r.Get(ctx, "code-analysis-result")
	require.NoError(t, err)
	assert.Equal(t, "code-analysis-result", got.Name)
	assert.Equal(t, "Standard <format> & more", got.Description)
	assert.Equal(t, src, string(got.Schema.JSON()), "the author's bytes are kept")
	assert.Equal(t, regAt(1), got.CreatedAt)
	assert.Equal(t, regAt(1), got.ModifiedAt)

	violations, err := got.Schema.ValidateJSON([]byte(`{}`))
	require.NoError(t, err)
	assert.NotEmpty(t, violations, "the stored schema is compiled")
}

func testRegistryReplace(t *testing.T, r Registry) {
	ctx := context.Background()
	require.NoError(t, r.Put(ctx, &Entry{Name: "s", Description: "v1", Schema: regSchema(t, `{"type":"string"}`)}))
	require.NoError(t, r.Put(ctx, &Entry{
		Name: "s", Description: "v2", Schema: regSchema(t, `{"type":"integer"}`),
		CreatedAt: regAt(99), ModifiedAt: regAt(99), // ignored
	}))
	got, err := r.Get(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, "v2", got.Description)
	assert.Equal(t, `{"type":"integer"}`, string(got.Schema.JSON()))
	assert.Equal(t, regAt(1), got.CreatedAt)
	assert.Equal(t, regAt(2), got.ModifiedAt)

	// A name put again after Delete is new.
	require.NoError(t, r.Delete(ctx, "s"))
	require.NoError(t, r.Put(ctx, &Entry{Name: "s", Schema: regSchema(t, `{}`)}))
	got, err = r.Get(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, regAt(3), got.CreatedAt)
	assert.Equal(t, regAt(3), got.ModifiedAt)
}

func testRegistryCopies(t *testing.T, r Registry) {
	ctx := context.Background()
	require.NoError(t, r.Put(ctx, &Entry{Name: "s", Description: "kept", Schema: regSchema(t, `{}`)}))
	got, err := r.Get(ctx, "s")
	require.NoError(t, err)
	got.Description = "changed"
	got.Name = "other"
	list, err := r.List(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	list[0].Description = "changed too"

	again, err := r.Get(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, "s", again.Name)
	assert.Equal(t, "kept", again.Description)
}

func testRegistryNotFound(t *testing.T, r Registry) {
	ctx := context.Background()
	_, err := r.Get(ctx, "missing")
	require.ErrorIs(t, err, ErrNotFound)
	assert.Equal(t, `registry: schema not found: "missing"`, err.Error())
	assert.ErrorIs(t, r.Delete(ctx, "missing"), ErrNotFound)
}

func testRegistryNames(t *testing.T, r Registry) {
	ctx := context.Background()
	invalid := []struct {
		name string
		in   string
	}{
		{name: "empty", in: ""},
		{name: "parent", in: ".."},
		{name: "traversal", in: "../etc/passwd"},
		{name: "slash", in: "a/b"},
		{name: "backslash", in: `a\b`},
		{name: "hidden", in: ".hidden"},
		{name: "trailing dot", in: "x."},
		{name: "upper case", in: "Report"},
		{name: "space", in: "a b"},
		{name: "colon", in: "c:x"},
		{name: "nul byte", in: "a\x00b"},
		{name: "non-ascii", in: "café"},
		{name: "windows device", in: "con"},
		{name: "windows device with extension", in: "nul.v1"},
		{name: "too long", in: strings.Repeat("a", 129)},
	}
	for _, tt := range invalid {
		t.Run("invalid "+tt.name, func(t *testing.T) {
			_, err := r.Get(ctx, tt.in)
			assert.ErrorIs(t, err, ErrInvalidName)
			assert.ErrorIs(t, r.Put(ctx, &Entry{Name: tt.in, Schema: regSchema(t, `{}`)}), ErrInvalidName)
			assert.ErrorIs(t, r.Delete(ctx, tt.in), ErrInvalidName)
		})
	}
	valid := []struct {
		name string
		in   string
	}{
		{name: "one letter", in: "a"},
		{name: "digit first", in: "1st"},
		{name: "kebab", in: "code-analysis-result"},
		{name: "dots and underscores", in: "review_v1.2"},
		{name: "device name inside", in: "console"},
		{name: "longest", in: strings.Repeat("b", 128)},
	}
	for _, tt := range valid {
		t.Run("valid "+tt.name, func(t *testing.T) {
			require.NoError(t, r.Put(ctx, &Entry{Name: tt.in, Schema: regSchema(t, `{}`)}))
			got, err := r.Get(ctx, tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.in, got.Name)
		})
	}
}

func TestCheckNameMessage(t *testing.T) {
	assert.EqualError(t, checkName("../x"), `registry: invalid schema name "../x": must start with a-z or 0-9`)
	assert.EqualError(t, checkName("a/b"), `registry: invalid schema name "a/b": character '/' not allowed (only a-z, 0-9, '-', '_' and '.')`)
	assert.EqualError(t, checkName(strings.Repeat("x", 200)), `registry: invalid schema name "`+strings.Repeat("x", 64)+`...": longer than 128 characters`)
	// A long name is cut between characters, never inside one.
	assert.EqualError(t, checkName("x"+strings.Repeat("é", 40)), `registry: invalid schema name "x`+strings.Repeat("é", 31)+`...": character 'é' not allowed (only a-z, 0-9, '-', '_' and '.')`)
}

func testRegistryBadEntries(t *testing.T, r Registry) {
	ctx := context.Background()
	assert.ErrorIs(t, r.Put(ctx, nil), ErrInvalidName)

	err := r.Put(ctx, &Entry{Name: "no-schema"})
	var ise *schema.InvalidSchemaError
	require.ErrorAs(t, err, &ise)
	assert.Equal(t, `schema: invalid schema at $: entry "no-schema" has no schema`, err.Error())

	_, err = r.Get(ctx, "no-schema")
	assert.ErrorIs(t, err, ErrNotFound, "a refused entry is not stored")
}

func testRegistryListDelete(t *testing.T, r Registry) {
	ctx := context.Background()
	list, err := r.List(ctx)
	require.NoError(t, err)
	assert.Empty(t, list)

	for _, name := range []string{"gamma", "alpha.x", "alpha", "beta", "alpha-2"} {
		require.NoError(t, r.Put(ctx, &Entry{Name: name, Description: name + "!", Schema: regSchema(t, `{}`)}))
	}
	list, err = r.List(ctx)
	require.NoError(t, err)
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
		assert.Equal(t, e.Name+"!", e.Description)
		assert.NotNil(t, e.Schema)
	}
	assert.Equal(t, []string{"alpha", "alpha-2", "alpha.x", "beta", "gamma"}, names)

	require.NoError(t, r.Delete(ctx, "beta"))
	_, err = r.Get(ctx, "beta")
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorIs(t, r.Delete(ctx, "beta"), ErrNotFound)
	list, err = r.List(ctx)
	require.NoError(t, err)
	require.Len(t, list, 4)
	assert.Equal(t, "alpha", list[0].Name)
	assert.Equal(t, "gamma", list[3].Name)
}

func testRegistryCancelled(t *testing.T, r Registry) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := r.Get(ctx, "a")
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, r.Put(ctx, &Entry{Name: "a", Schema: regSchema(t, `{}`)}), context.Canceled)
	_, err = r.List(ctx)
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, r.Delete(ctx, "a"), context.Canceled)

	_, err = r.Get(context.Background(), "a")
	assert.ErrorIs(t, err, ErrNotFound, "nothing was stored")
}

// testRegistryConcurrent runs Put, Get, List and Delete from many
// goroutines on a few names; run it with -race. Every call must succeed or
// report ErrNotFound, and every entry read must be whole.
func testRegistryConcurrent(t *testing.T, r Registry) {
	ctx := context.Background()
	names := []string{"n0", "n1", "n2"}
	schemas := map[string]*schema.Schema{}
	for _, n := range names {
		schemas[n] = regSchema(t, fmt.Sprintf(`{"title":%q}`, n))
	}
	check := func(e *Entry) error {
		if want := fmt.Sprintf(`{"title":%q}`, e.Name); string(e.Schema.JSON()) != want || e.Description != "d-"+e.Name {
			return fmt.Errorf("torn entry %+v", e)
		}
		return nil
	}
	const workers, rounds = 8, 40
	errs := make(chan error, workers*rounds)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				name := names[(w+i)%len(names)]
				var err error
				switch (w + i) % 4 {
				case 0:
					err = r.Put(ctx, &Entry{Name: name, Description: "d-" + name, Schema: schemas[name]})
				case 1:
					var e *Entry
					if e, err = r.Get(ctx, name); err == nil {
						err = check(e)
					}
				case 2:
					var list []*Entry
					list, err = r.List(ctx)
					for _, e := range list {
						if err == nil {
							err = check(e)
						}
					}
				case 3:
					err = r.Delete(ctx, name)
				}
				if err != nil && !errors.Is(err, ErrNotFound) {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestMemoryZeroValue(t *testing.T) {
	var r Memory
	ctx := context.Background()
	list, err := r.List(ctx)
	require.NoError(t, err)
	assert.Empty(t, list)
	require.NoError(t, r.Put(ctx, &Entry{Name: "a", Schema: regSchema(t, `{}`)}))
	got, err := r.Get(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, time.UTC, got.CreatedAt.Location())
	assert.False(t, got.CreatedAt.IsZero())
}

func TestMemoryKeepsLoadedSchema(t *testing.T) {
	loader := func(uri string) ([]byte, error) { return []byte(`{"type":"string"}`), nil }
	s, err := schema.ParseWith([]byte(`{"$ref":"https://example.com/s.json"}`), &schema.ParseOptions{Loader: loader})
	require.NoError(t, err)
	r := NewMemory()
	require.NoError(t, r.Put(context.Background(), &Entry{Name: "remote", Schema: s}))
	got, err := r.Get(context.Background(), "remote")
	require.NoError(t, err)
	assert.Same(t, s, got.Schema)
}

// FuzzCheckName checks that every name checkName accepts stays one file in
// the registry's directory, and is lower case.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"a", "code-analysis-result", "..", "../x", "a/b", `a\b`, "C:x", "con", "x.", ".x", "ä"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if checkName(name) != nil {
			return
		}
		p := filepath.Join("reg", name+".json")
		assert.Equal(t, "reg", filepath.Dir(p))
		assert.Equal(t, name+".json", filepath.Base(p))
		assert.Equal(t, strings.ToLower(name), name)
		assert.LessOrEqual(t, len(name), maxNameLen)
	})
}
