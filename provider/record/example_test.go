package record_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/record"
)

// Record a call once against the model (here a scripted one), then replay
// it with no provider at all.
func ExampleNew() {
	dir, err := os.MkdirTemp("", "calls")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	req := &provider.Request{Messages: []provider.Message{provider.UserMessage("What is 6 x 7?")}}

	model := providertest.New(providertest.Text(`{"answer": 42}`))
	rec, err := record.New(model, dir, record.ModeRecord, &record.Options{Model: "gpt-4.1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := rec.Generate(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("recorded:", resp.Text)

	replay, err := record.New(nil, dir, record.ModeReplay, &record.Options{Model: "gpt-4.1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err = replay.Generate(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("replayed:", resp.Text)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		if filepath.Base(f) == "capabilities.json" {
			fmt.Println("capabilities of the provider recorded")
		} else {
			fmt.Println("a recording")
		}
	}
	// Unordered output:
	// recorded: {"answer": 42}
	// replayed: {"answer": 42}
	// a recording
	// capabilities of the provider recorded
}

// ModeRecordMissing calls the model only for requests the store has no
// recording of.
func ExampleNew_recordMissing() {
	dir, err := os.MkdirTemp("", "calls")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	model := providertest.New(providertest.Text("Paris"))
	p, err := record.New(model, dir, record.ModeRecordMissing, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	req := &provider.Request{Messages: []provider.Message{provider.UserMessage("Capital of France?")}}
	for range 3 {
		resp, err := p.Generate(ctx, req)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(resp.Text)
	}
	fmt.Println("model calls:", len(model.Requests()))
	// Output:
	// Paris
	// Paris
	// Paris
	// model calls: 1
}

// A replay that has no recording says where the request differs from the
// nearest one it has.
func ExampleMissError() {
	dir, err := os.MkdirTemp("", "calls")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	rec, err := record.New(providertest.New(providertest.Text("ok")), dir, record.ModeRecord, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = rec.Generate(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("Summarise the report.")}})
	if err != nil {
		fmt.Println(err)
		return
	}

	replay, err := record.New(nil, dir, record.ModeReplay, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = replay.Generate(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("Summarise the reports.")}})
	var miss *record.MissError
	if errors.As(err, &miss) {
		fmt.Println(errors.Is(err, record.ErrMiss))
		fmt.Println(miss.Field)
		fmt.Println(miss.Recorded, "vs", miss.Requested)
	}
	// Output:
	// true
	// $.messages[0].content
	// "Summarise the report." vs "Summarise the reports."
}

// Secrets never reach the store, wherever they occur; the request still
// replays, because its key is taken after redaction.
func ExampleOptions() {
	dir, err := os.MkdirTemp("", "calls")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	const apiKey = "sk-live-0123456789"
	opts := &record.Options{Secrets: []string{apiKey}, Redact: []string{"$.system"}}
	req := &provider.Request{
		System:   "Internal routing notes.",
		Messages: []provider.Message{provider.UserMessage("Is " + apiKey + " a valid key?")},
	}
	rec, err := record.New(providertest.New(providertest.Text("No.")), dir, record.ModeRecord, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := rec.Generate(ctx, req); err != nil {
		fmt.Println(err)
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	data, _ := os.ReadFile(files[0])
	fmt.Println("key in store:", strings.Contains(string(data), apiKey))
	fmt.Println("system in store:", strings.Contains(string(data), "routing"))

	replay, err := record.New(nil, dir, record.ModeReplay, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := replay.Generate(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Text)
	// Output:
	// key in store: false
	// system in store: false
	// No.
}
