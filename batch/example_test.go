package batch_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// exampleEnforcer returns the Enforcer of the examples: a label and a
// score.
func exampleEnforcer() *enforce.Enforcer {
	s, err := schema.Parse([]byte(labelSchema))
	if err != nil {
		panic(err) // a constant schema: cannot fail
	}
	e, err := enforce.New(s, enforce.WithMaxRetries(1))
	if err != nil {
		panic(err)
	}
	return e
}

// Three items in one batch: one valid at once, one re-asked in a second
// batch, one that never conforms.
func ExampleRunner_Run() {
	ctx := context.Background()
	b := providertest.NewBatcher(providertest.Replies(map[string][]providertest.Reply{
		"a": {providertest.Text(`{"label": "spam", "score": 9}`)},
		"b": {providertest.Text(`{"label": "ham", "score": "high"}`), providertest.Text(`{"label": "ham", "score": 2}`)},
		"c": {providertest.Text(`no idea`), providertest.Text(`still no idea`)},
	}), nil)
	r, err := batch.New(b, batch.NewMemory(nil), batch.WithEnforcer(exampleEnforcer()), batch.WithPollInterval(0))
	if err != nil {
		fmt.Println(err)
		return
	}
	items := []batch.Item{
		{ID: "a", Request: enforce.Request{Prompt: "Label message a."}},
		{ID: "b", Request: enforce.Request{Prompt: "Label message b."}},
		{ID: "c", Request: enforce.Request{Prompt: "Label message c."}},
	}
	for s, err := range r.Run(ctx, items) {
		if err != nil {
			fmt.Println("stopped:", err) // run again to resume
			return
		}
		var ve *enforce.ValidationError
		switch {
		case s.Err == nil:
			fmt.Printf("%s: %s after %d attempt(s)\n", s.ID, s.Result.JSON, len(s.Result.Attempts))
		case errors.As(s.Err, &ve):
			fmt.Printf("%s: %v\n", s.ID, ve)
		}
	}
	fmt.Println(len(b.Submissions()), "batches submitted")
	// Output:
	// a: {"label": "spam", "score": 9} after 1 attempt(s)
	// b: {"label": "ham", "score": 2} after 2 attempt(s)
	// c: output validation failed after 1 retry: $: No JSON output found but output_schema requires structured output
	// 2 batches submitted
}

// New takes the Batcher, the store and the default Enforcer; a Runner
// over the same store resumes the job where a killed one stopped.
func ExampleNew() {
	b := providertest.NewBatcher(nil, nil)
	r, err := batch.New(b, batch.NewMemory(nil), batch.WithEnforcer(exampleEnforcer()), batch.WithMaxResubmits(5))
	fmt.Println(r != nil, err)
	_, err = batch.New(b, batch.NewMemory(nil), batch.WithPollInterval(-1))
	fmt.Println(err)
	// Output:
	// true <nil>
	// batch: invalid option: negative poll interval -1ns
}

// Results lists every outcome the store keeps, handed out or not: here
// after the caller stopped reading at the first.
func ExampleRunner_Results() {
	ctx := context.Background()
	b := providertest.NewBatcher(func(item string, n int) providertest.Reply {
		return providertest.Text(`{"label": "ham", "score": 1}`)
	}, nil)
	store := batch.NewMemory(nil)
	r, err := batch.New(b, store, batch.WithEnforcer(exampleEnforcer()), batch.WithPollInterval(0))
	if err != nil {
		fmt.Println(err)
		return
	}
	items := []batch.Item{{ID: "x", Request: enforce.Request{Prompt: "Label x."}}, {ID: "y", Request: enforce.Request{Prompt: "Label y."}}}
	for s, err := range r.Run(ctx, items) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("handed out", s.ID)
		break
	}
	var ids []string
	for s, err := range r.Results(ctx) {
		if err != nil {
			fmt.Println(err)
			return
		}
		ids = append(ids, s.ID+"="+string(s.Result.JSON))
	}
	sort.Strings(ids)
	fmt.Println(ids)
	// Output:
	// handed out x
	// [x={"label": "ham", "score": 1} y={"label": "ham", "score": 1}]
}

// A Memory store that drops what was handed out keeps a few bytes per
// delivered item, so a long job's memory does not grow with its results.
func ExampleNewMemory() {
	ctx := context.Background()
	store := batch.NewMemory(&batch.MemoryOptions{DropDelivered: true})
	b := providertest.NewBatcher(func(string, int) providertest.Reply {
		return providertest.Text(`{"label": "spam", "score": 7}`)
	}, nil)
	r, err := batch.New(b, store, batch.WithEnforcer(exampleEnforcer()), batch.WithPollInterval(0))
	if err != nil {
		fmt.Println(err)
		return
	}
	n := 0
	for _, err := range r.Run(ctx, []batch.Item{{ID: "a", Request: enforce.Request{Prompt: "Label a."}}}) {
		if err != nil {
			fmt.Println(err)
			return
		}
		n++
	}
	listed := 0
	for range r.Results(ctx) {
		listed++
	}
	fmt.Println(n, "handed out,", store.Len(), "record kept,", listed, "listed")
	// Output:
	// 1 handed out, 1 record kept, 0 listed
}

// A shutdown (ctx ending) leaves the batch running at the provider; the
// next run takes it up. To abandon the job's remote work instead, cancel
// its batches, under a context with a deadline.
func ExampleRunner_CancelBatches() {
	ctx, shutdown := context.WithCancel(context.Background())
	defer shutdown()
	b := providertest.NewBatcher(func(string, int) providertest.Reply {
		return providertest.Text(`{"label": "ham", "score": 1}`)
	}, &providertest.BatcherOptions{Polls: 10, Hook: func(e providertest.BatchEvent) error {
		if e.Op == providertest.OpPoll {
			shutdown() // as a SIGTERM would, while the batch runs
		}
		return nil
	}})
	store := batch.NewMemory(nil)
	r, err := batch.New(b, store, batch.WithEnforcer(exampleEnforcer()), batch.WithPollInterval(0))
	if err != nil {
		fmt.Println(err)
		return
	}
	items := []batch.Item{{ID: "a", Request: enforce.Request{Prompt: "Label message a."}}}
	for _, err := range r.Run(ctx, items) {
		fmt.Println("stopped:", err)
	}
	fmt.Println("cancelled by the shutdown:", len(b.Canceled()))

	cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.CancelBatches(cctx); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("cancelled by CancelBatches:", len(b.Canceled()))
	// Output:
	// stopped: context canceled
	// cancelled by the shutdown: 0
	// cancelled by CancelBatches: 1
}
