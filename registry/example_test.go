package registry_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/schema"
)

func ExampleNewMemory() {
	ctx := context.Background()
	reg := registry.NewMemory()

	s, err := schema.Parse([]byte(`{"type":"object","required":["files","loc"],"properties":{"files":{"type":"integer"},"loc":{"type":"integer"}}}`))
	if err != nil {
		log.Fatal(err)
	}
	if err := reg.Put(ctx, &registry.Entry{Name: "file-count", Description: "How big the change is", Schema: s}); err != nil {
		log.Fatal(err)
	}

	e, err := reg.Get(ctx, "file-count")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Name+":", e.Description)

	_, err = reg.Get(ctx, "no-such-schema")
	fmt.Println(errors.Is(err, registry.ErrNotFound))

	err = reg.Put(ctx, &registry.Entry{Name: "../escape", Schema: s})
	fmt.Println(errors.Is(err, registry.ErrInvalidName))
	// Output:
	// file-count: How big the change is
	// true
	// true
}

func ExampleNewDir() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "schemas")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	reg, err := registry.NewDir(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"security-scan-result", "code-analysis-result"} {
		s, err := schema.Parse([]byte(`{"type":"object","required":["summary"]}`))
		if err != nil {
			log.Fatal(err)
		}
		if err := reg.Put(ctx, &registry.Entry{Name: name, Schema: s}); err != nil {
			log.Fatal(err)
		}
	}

	list, err := reg.List(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range list {
		fmt.Println(e.Name, string(e.Schema.JSON()))
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range files {
		fmt.Println(f.Name())
	}
	// Output:
	// code-analysis-result {"type":"object","required":["summary"]}
	// security-scan-result {"type":"object","required":["summary"]}
	// code-analysis-result.json
	// security-scan-result.json
}
