package sqltest_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite"

	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/registry/sqlregistry"
	"github.com/agentio/agentio/schema"
)

// Example stores a named schema in SQLite, reads it back and updates it
// with optimistic concurrency.
func Example() {
	dir, err := os.MkdirTemp("", "registry")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "agents.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	ctx := context.Background()
	reg, err := sqlregistry.New(db, nil) // SQLite, table output_schemas
	if err != nil {
		log.Fatal(err)
	}
	if err := reg.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	s, err := schema.Parse([]byte(`{"type":"object","required":["summary"],"properties":{"summary":{"type":"string"}}}`))
	if err != nil {
		log.Fatal(err)
	}
	if err := reg.Put(ctx, &registry.Entry{Name: "incident-summary", Description: "One-paragraph summary", Schema: s}); err != nil {
		log.Fatal(err)
	}

	e, err := reg.Get(ctx, "incident-summary")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Name, "-", e.Description)
	vs, _ := e.Schema.ValidateJSON([]byte(`{}`))
	fmt.Println(vs[0].Path, vs[0].Message)

	// Write back only if nobody changed it since we read it.
	e.Description = "Summary of an incident"
	fmt.Println("first update:", reg.PutIf(ctx, e, e.ModifiedAt))
	err = reg.PutIf(ctx, e, e.ModifiedAt) // the version we read is stale now
	fmt.Println("second update is stale:", errors.Is(err, registry.ErrModified))
	// Output:
	// incident-summary - One-paragraph summary
	// $.summary 'summary' is a required property
	// first update: <nil>
	// second update is stale: true
}
