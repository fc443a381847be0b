package sqltest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/batch/sqlstore"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// A job's state in SQLite: the runner writes every step to the database,
// so that a process killed mid-way resumes from it.
func ExampleNew() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "sqlstore")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "jobs.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	store, err := sqlstore.New(db, &sqlstore.Options{Job: "labels"})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := store.Migrate(ctx); err != nil {
		fmt.Println(err)
		return
	}

	s, err := schema.Parse([]byte(`{"type": "object", "required": ["label"], "properties": {"label": {"enum": ["spam", "ham"]}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := enforce.New(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	b := providertest.NewBatcher(providertest.Replies(map[string][]providertest.Reply{
		"a": {providertest.Text(`{"label": "spam"}`)},
		"b": {providertest.Text(`{"label": "eggs"}`), providertest.Text(`{"label": "ham"}`)},
	}), nil)
	r, err := batch.New(b, store, batch.WithEnforcer(e), batch.WithPollInterval(0))
	if err != nil {
		fmt.Println(err)
		return
	}
	items := []batch.Item{{ID: "a", Request: enforce.Request{Prompt: "Label a."}}, {ID: "b", Request: enforce.Request{Prompt: "Label b."}}}
	for st, err := range r.Run(ctx, items) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(st.ID, string(st.Result.JSON), len(st.Result.Attempts), "attempt(s)")
	}
	// Output:
	// a {"label": "spam"} 1 attempt(s)
	// b {"label": "ham"} 2 attempt(s)
}
