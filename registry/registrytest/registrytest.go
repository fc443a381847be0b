package registrytest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/schema"
)

// Run runs the conformance tests as subtests of t. newRegistry must return
// a new, empty registry each time it is called; it may use t.TempDir and
// t.Cleanup.
func Run(t *testing.T, newRegistry func(t *testing.T) registry.Registry) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, r registry.Registry)
	}{
		{"put get", testPutGet},
		{"replace keeps created_at", testReplace},
		{"returns copies", testCopies},
		{"not found", testNotFound},
		{"names", testNames},
		{"bad entries", testBadEntries},
		{"list and delete", testListDelete},
		{"cancelled context", testCancelled},
		{"concurrent writers", testConcurrent},
		{"conditional writes", testConditional},
		{"concurrent conditional writers", testConditionalRace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newRegistry(t)) })
	}
}

func mustParse(t *testing.T, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	if err != nil {
		t.Fatalf("parse %s: %v", src, err)
	}
	return s
}

func mustGet(t *testing.T, r registry.Registry, name string) *registry.Entry {
	t.Helper()
	e, err := r.Get(context.Background(), name)
	if err != nil {
		t.Fatalf("Get(%q): %v", name, err)
	}
	return e
}

func must(t *testing.T, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func wantIs(t *testing.T, err, target error, what string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: got error %v, want one matching %v", what, err, target)
	}
}

func checkTimes(t *testing.T, e *registry.Entry) {
	t.Helper()
	if e.CreatedAt.IsZero() || e.ModifiedAt.IsZero() {
		t.Errorf("%q: zero timestamps: created %v, modified %v", e.Name, e.CreatedAt, e.ModifiedAt)
	}
	if e.CreatedAt.Location() != time.UTC || e.ModifiedAt.Location() != time.UTC {
		t.Errorf("%q: timestamps not in UTC: %v, %v", e.Name, e.CreatedAt, e.ModifiedAt)
	}
	if e.ModifiedAt.Before(e.CreatedAt) {
		t.Errorf("%q: modified %v before created %v", e.Name, e.ModifiedAt, e.CreatedAt)
	}
}

func testPutGet(t *testing.T, r registry.Registry) {
	ctx := context.Background()
	src := "{\n  \"type\": \"object\",\n  \"required\": [\"summary\"],\n  \"properties\": {\"summary\": {\"type\": \"string\"}}\n}"
	s := mustParse(t, src)
	in := &registry.Entry{Name: "code-analysis-result", Description: "Standard <format> & \"more\"", Schema: s}
	must(t, r.Put(ctx, in), "Put")
	if in.Name != "code-analysis-result" || in.Description != "Standard <format> & \"more\"" || in.Schema != s ||
		!in.CreatedAt.IsZero() || !in.ModifiedAt.IsZero() {
		t.Errorf("Put modified its argument: %+v", in)
	}
	got := mustGet(t, r, "code-analysis-result")
	if got.Name != in.Name || got.Description != in.Description {
		t.Errorf("Get = %q %q, want %q %q", got.Name, got.Description, in.Name, in.Description)
	}
	if string(got.Schema.JSON()) != src {
		t.Errorf("the author's bytes are not kept: got %s", got.Schema.JSON())
	}
	checkTimes(t, got)
	if !got.CreatedAt.Equal(got.ModifiedAt) {
		t.Errorf("a new entry has created %v != modified %v", got.CreatedAt, got.ModifiedAt)
	}
	vs, err := got.Schema.ValidateJSON([]byte(`{}`))
	must(t, err, "ValidateJSON")
	if len(vs) == 0 {
		t.Error("the stored schema does not validate: {} lacks the required summary")
	}
}

func testReplace(t *testing.T, r registry.Registry) {
	ctx := context.Background()
	must(t, r.Put(ctx, &registry.Entry{Name: "s", Description: "v1", Schema: mustParse(t, `{"type":"string"}`)}), "Put v1")
	first := mustGet(t, r, "s")
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	must(t, r.Put(ctx, &registry.Entry{Name: "s", Description: "v2", Schema: mustParse(t, `{"type":"integer"}`),
		CreatedAt: old, ModifiedAt: old}), "Put v2")
	second := mustGet(t, r, "s")
	if second.Description != "v2" || string(second.Schema.JSON()) != `{"type":"integer"}` {
		t.Errorf("replaced entry = %q %s, want v2 {\"type\":\"integer\"}", second.Description, second.Schema.JSON())
	}
	if !second.CreatedAt.Equal(first.CreatedAt) {
		t.Errorf("created_at changed on replace: %v, was %v", second.CreatedAt, first.CreatedAt)
	}
	if _, ok := r.(registry.ConditionalRegistry); ok && !second.ModifiedAt.After(first.ModifiedAt) {
		t.Errorf("modified_at did not increase: %v, was %v", second.ModifiedAt, first.ModifiedAt)
	} else if second.ModifiedAt.Before(first.ModifiedAt) {
		t.Errorf("modified_at went back: %v, was %v", second.ModifiedAt, first.ModifiedAt)
	}
	must(t, r.Delete(ctx, "s"), "Delete")
	must(t, r.Put(ctx, &registry.Entry{Name: "s", Schema: mustParse(t, `{}`)}), "Put after Delete")
	third := mustGet(t, r, "s")
	if third.CreatedAt.Before(second.ModifiedAt) || !third.CreatedAt.Equal(third.ModifiedAt) {
		t.Errorf("a name put again after Delete is not new: created %v, modified %v", third.CreatedAt, third.ModifiedAt)
	}
}

func testCopies(t *testing.T, r registry.Registry) {
	ctx := context.Background()
	must(t, r.Put(ctx, &registry.Entry{Name: "s", Description: "kept", Schema: mustParse(t, `{}`)}), "Put")
	got := mustGet(t, r, "s")
	got.Description, got.Name = "changed", "other"
	list, err := r.List(ctx)
	must(t, err, "List")
	if len(list) != 1 {
		t.Fatalf("List returned %d entries, want 1", len(list))
	}
	list[0].Description = "changed too"
	again := mustGet(t, r, "s")
	if again.Name != "s" || again.Description != "kept" {
		t.Errorf("the registry handed out an entry it keeps: now %q %q", again.Name, again.Description)
	}
}

func testNotFound(t *testing.T, r registry.Registry) {
	ctx := context.Background()
	_, err := r.Get(ctx, "missing")
	wantIs(t, err, registry.ErrNotFound, "Get of a missing name")
	if err != nil && !strings.Contains(err.Error(), `"missing"`) {
		t.Errorf("the error does not name the schema: %v", err)
	}
	wantIs(t, r.Delete(ctx, "missing"), registry.ErrNotFound, "Delete of a missing name")
}

// invalidNames and validNames are the rules of registry.Entry.Name.
var (
	invalidNames = []string{"", "..", "../etc/passwd", "a/b", `a\b`, ".hidden", "x.", "Report", "a b", "c:x", "a\x00b",
		"café", "con", "nul.v1", "'; DROP TABLE output_schemas; --", strings.Repeat("a", 129)}
	validNames = []string{"a", "1st", "code-analysis-result", "review_v1.2", "console", strings.Repeat("b", 128)}
)

func testNames(t *testing.T, r registry.Registry) {
	ctx := context.Background()
	for _, name := range invalidNames {
		_, err := r.Get(ctx, name)
		wantIs(t, err, registry.ErrInvalidName, fmt.Sprintf("Get(%q)", name))
		wantIs(t, r.Put(ctx, &registry.Entry{Name: name, Schema: mustParse(t, `{}`)}), registry.ErrInvalidName, fmt.Sprintf("Put(%q)", name))
		wantIs(t, r.Delete(ctx, name), registry.ErrInvalidName, fmt.Sprintf("Delete(%q)", name))
	}
	for _, name := range validNames {
		must(t, r.Put(ctx, &registry.Entry{Name: name, Schema: mustParse(t, `{}`)}), fmt.Sprintf("Put(%q)", name))
		if got := mustGet(t, r, name); got.Name != name {
			t.Errorf("Get(%q).Name = %q", name, got.Name)
		}
	}
}

func testBadEntries(t *testing.T, r registry.Registry) {
	ctx := context.Background()
	wantIs(t, r.Put(ctx, nil), registry.ErrInvalidName, "Put(nil)")
	err := r.Put(ctx, &registry.Entry{Name: "no-schema"})
	var ie *schema.InvalidSchemaError
	if !errors.As(err, &ie) {
		t.Errorf("Put of an entry without a schema: got %v, want an *InvalidSchemaError", err)
	}
	if _, err := r.Get(ctx, "no-schema"); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("a refused entry was stored: Get returned %v", err)
	}
}

func testListDelete(t *testing.T, r registry.Registry) {
	ctx := context.Background()
	list, err := r.List(ctx)
	must(t, err, "List of an empty registry")
	if len(list) != 0 {
		t.Errorf("an empty registry lists %d entries", len(list))
	}
	for _, name := range []string{"b", "a.json", "a-b", "a"} {
		must(t, r.Put(ctx, &registry.Entry{Name: name, Schema: mustParse(t, `{"title":"`+name+`"}`)}), "Put "+name)
	}
	list, err = r.List(ctx)
	must(t, err, "List")
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
		checkTimes(t, e)
		if want := `{"title":"` + e.Name + `"}`; string(e.Schema.JSON()) != want {
			t.Errorf("List: %q has schema %s, want %s", e.Name, e.Schema.JSON(), want)
		}
	}
	if got := strings.Join(names, " "); got != "a a-b a.json b" {
		t.Errorf("List order = %q, want sorted by name: a a-b a.json b", got)
	}
	must(t, r.Delete(ctx, "a-b"), "Delete")
	if _, err := r.Get(ctx, "a-b"); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("Get after Delete: %v, want ErrNotFound", err)
	}
	list, err = r.List(ctx)
	must(t, err, "List after Delete")
	if len(list) != 3 {
		t.Errorf("List after Delete has %d entries, want 3", len(list))
	}
}

func testCancelled(t *testing.T, r registry.Registry) {
	ctx, cancel := context.WithCancel(context.Background())
	must(t, r.Put(context.Background(), &registry.Entry{Name: "s", Schema: mustParse(t, `{}`)}), "Put")
	cancel()
	_, err := r.Get(ctx, "s")
	wantIs(t, err, context.Canceled, "Get with a cancelled context")
	wantIs(t, r.Put(ctx, &registry.Entry{Name: "t", Schema: mustParse(t, `{}`)}), context.Canceled, "Put with a cancelled context")
	_, err = r.List(ctx)
	wantIs(t, err, context.Canceled, "List with a cancelled context")
	wantIs(t, r.Delete(ctx, "s"), context.Canceled, "Delete with a cancelled context")
	if _, err := r.Get(context.Background(), "t"); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("Put with a cancelled context stored the entry: %v", err)
	}
	mustGet(t, r, "s")
}

func testConcurrent(t *testing.T, r registry.Registry) {
	ctx := context.Background()
	const writers, rounds = 8, 10
	s := mustParse(t, `{"type":"object"}`)
	var wg sync.WaitGroup
	errs := make(chan error, writers*rounds*3)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				name := fmt.Sprintf("w%d", w)
				if err := r.Put(ctx, &registry.Entry{Name: name, Description: fmt.Sprint(i), Schema: s}); err != nil {
					errs <- fmt.Errorf("put %s: %w", name, err)
				}
				if err := r.Put(ctx, &registry.Entry{Name: "shared", Description: name, Schema: s}); err != nil {
					errs <- fmt.Errorf("put shared: %w", err)
				}
				if _, err := r.List(ctx); err != nil {
					errs <- fmt.Errorf("list: %w", err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	list, err := r.List(ctx)
	must(t, err, "List")
	if len(list) != writers+1 {
		t.Errorf("List has %d entries, want %d", len(list), writers+1)
	}
	for _, e := range list {
		if e.Name != "shared" && e.Description != fmt.Sprint(rounds-1) {
			t.Errorf("%s: last write lost: description %q", e.Name, e.Description)
		}
		checkTimes(t, e)
	}
}

func testConditional(t *testing.T, r registry.Registry) {
	cr, ok := r.(registry.ConditionalRegistry)
	if !ok {
		t.Skip("not a registry.ConditionalRegistry")
	}
	ctx := context.Background()
	e := &registry.Entry{Name: "s", Description: "v1", Schema: mustParse(t, `{}`)}
	must(t, cr.PutIf(ctx, e, time.Time{}), "PutIf(zero) of a new name")
	wantIs(t, cr.PutIf(ctx, e, time.Time{}), registry.ErrModified, "PutIf(zero) of a stored name")
	v1 := mustGet(t, r, "s")

	e.Description = "v2"
	must(t, cr.PutIf(ctx, e, v1.ModifiedAt), "PutIf(current version)")
	v2 := mustGet(t, r, "s")
	if v2.Description != "v2" || !v2.ModifiedAt.After(v1.ModifiedAt) || !v2.CreatedAt.Equal(v1.CreatedAt) {
		t.Errorf("after PutIf: %q modified %v created %v; before: modified %v created %v",
			v2.Description, v2.ModifiedAt, v2.CreatedAt, v1.ModifiedAt, v1.CreatedAt)
	}

	e.Description = "stale"
	err := cr.PutIf(ctx, e, v1.ModifiedAt)
	wantIs(t, err, registry.ErrModified, "PutIf(stale version)")
	if got := mustGet(t, r, "s"); got.Description != "v2" {
		t.Errorf("a refused PutIf wrote: description %q", got.Description)
	}
	wantIs(t, cr.PutIf(ctx, &registry.Entry{Name: "new", Schema: mustParse(t, `{}`)}, v1.ModifiedAt), registry.ErrModified, "PutIf(a version) of a missing name")

	wantIs(t, cr.DeleteIf(ctx, "s", v1.ModifiedAt), registry.ErrModified, "DeleteIf(stale version)")
	mustGet(t, r, "s")
	must(t, cr.DeleteIf(ctx, "s", v2.ModifiedAt), "DeleteIf(current version)")
	wantIs(t, cr.DeleteIf(ctx, "s", v2.ModifiedAt), registry.ErrNotFound, "DeleteIf of a missing name")
	wantIs(t, cr.PutIf(ctx, &registry.Entry{Name: "Bad"}, time.Time{}), registry.ErrInvalidName, "PutIf with a bad name")
	wantIs(t, cr.DeleteIf(ctx, "Bad", time.Time{}), registry.ErrInvalidName, "DeleteIf with a bad name")
}

// testConditionalRace checks optimistic concurrency: of many writers that
// read the same version and write it back conditionally, exactly one wins.
func testConditionalRace(t *testing.T, r registry.Registry) {
	cr, ok := r.(registry.ConditionalRegistry)
	if !ok {
		t.Skip("not a registry.ConditionalRegistry")
	}
	ctx := context.Background()
	s := mustParse(t, `{}`)
	must(t, r.Put(ctx, &registry.Entry{Name: "s", Schema: s}), "Put")
	v := mustGet(t, r, "s").ModifiedAt
	const writers = 8
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		wins []string
	)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprint("writer-", w)
			err := cr.PutIf(ctx, &registry.Entry{Name: "s", Description: name, Schema: s}, v)
			switch {
			case err == nil:
				mu.Lock()
				wins = append(wins, name)
				mu.Unlock()
			case !errors.Is(err, registry.ErrModified):
				t.Errorf("%s: %v", name, err)
			}
		}()
	}
	wg.Wait()
	if len(wins) != 1 {
		t.Fatalf("%d conditional writers won (%v), want exactly 1", len(wins), wins)
	}
	if got := mustGet(t, r, "s"); got.Description != wins[0] {
		t.Errorf("stored description %q, want the winner's %q", got.Description, wins[0])
	}
}
