package record_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/record"
	"github.com/agentio/agentio/schema"
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
	rec, err := record.New(model, dir, record.Record, &record.Options{Model: "gpt-4.1"})
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

	replay, err := record.New(nil, dir, record.Replay, &record.Options{Model: "gpt-4.1"})
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

// RecordMissing calls the model only for requests the store has no
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
	p, err := record.New(model, dir, record.RecordMissing, nil)
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
	rec, err := record.New(providertest.New(providertest.Text("ok")), dir, record.Record, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = rec.Generate(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("Summarise the report.")}})
	if err != nil {
		fmt.Println(err)
		return
	}

	replay, err := record.New(nil, dir, record.Replay, nil)
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
	rec, err := record.New(providertest.New(providertest.Text("No.")), dir, record.Record, opts)
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

	replay, err := record.New(nil, dir, record.Replay, opts)
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

// A batch job recorded once, with a Batcher (here a scripted one), then
// replayed offline, without one: the submissions, polls and results come
// from the store, and the runner settles the same outcomes.
func ExampleNew_batch() {
	dir, err := os.MkdirTemp("", "batches")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
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
	items := []batch.Item{{ID: "a", Request: enforce.Request{Prompt: "Label a."}}, {ID: "b", Request: enforce.Request{Prompt: "Label b."}}}
	job := func(b provider.Provider) {
		r, err := batch.New(b.(provider.Batcher), batch.NewMemory(nil), batch.WithEnforcer(e), batch.WithPollInterval(0))
		if err != nil {
			fmt.Println(err)
			return
		}
		var lines []string
		for st, err := range r.Run(context.Background(), items) {
			if err != nil {
				fmt.Println(err)
				return
			}
			lines = append(lines, fmt.Sprintf("%s %s after %d attempt(s)", st.ID, st.Result.JSON, len(st.Result.Attempts)))
		}
		slices.Sort(lines)
		fmt.Println(strings.Join(lines, "; "))
	}

	model := providertest.NewBatcher(providertest.Replies(map[string][]providertest.Reply{
		"a": {providertest.Text(`{"label": "spam"}`)},
		"b": {providertest.Text(`{"label": "eggs"}`), providertest.Text(`{"label": "ham"}`)},
	}), &providertest.BatcherOptions{Polls: 1})
	rec, err := record.New(model, dir, record.Record, &record.Options{Model: "gpt-4.1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	job(rec)

	replay, err := record.New(nil, dir, record.Replay, &record.Options{Model: "gpt-4.1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	job(replay)
	// Output:
	// a {"label": "spam"} after 1 attempt(s); b {"label": "ham"} after 2 attempt(s)
	// a {"label": "spam"} after 1 attempt(s); b {"label": "ham"} after 2 attempt(s)
}
