// Command batch runs 1,000 items through a provider's batch API with
// schema enforcement, offline against a scripted batch provider: the
// first round goes in four batches (the provider takes 300 requests a
// batch), the replies that fail the schema are re-asked in a second
// round, and while the process waits to poll that round's batch it gets
// SIGTERM, as on a deploy: it stops at once, leaving the batch it paid
// for running, and a new runner resumes the job from the store, without
// submitting anything twice or handing any item out twice.
//
//	go run ./examples/batch
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

const ticketSchema = `{
  "type": "object",
  "required": ["category", "urgency"],
  "properties": {
    "category": {"enum": ["billing", "bug", "feature", "other"]},
    "urgency": {"type": "integer", "minimum": 1, "maximum": 5}
  }
}`

const items = 1000

// firstPoll is the first process's time between polls: long, as in
// production (batch.DefaultPollInterval is 30 s), so that the SIGTERM
// comes while it waits.
const firstPoll = time.Minute

func main() {
	if err := run(os.Stdout, scriptedProvider(), hooks{term: terminate}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// terminate sends this process SIGTERM, as a deploy would.
func terminate() error {
	p, err := os.FindProcess(os.Getpid())
	if err != nil {
		return err
	}
	return p.Signal(syscall.SIGTERM)
}

// scriptedProvider answers like a model would: most tickets validly at
// once, every tenth with an urgency of "high" first, every fiftieth
// (from the 7th) never with JSON, and every 97th (from the 3rd) is rate
// limited once.
func scriptedProvider() *providertest.Batcher {
	return providertest.NewBatcher(func(item string, n int) providertest.Reply {
		var i int
		fmt.Sscanf(item, "ticket%d", &i)
		valid := providertest.Text(fmt.Sprintf(`{"category": %q, "urgency": %d}`, []string{"billing", "bug", "feature", "other"}[i%4], 1+i%5))
		switch {
		case i%97 == 3 && n == 0:
			return providertest.Failed(&provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429, Message: "slow down"})
		case i%50 == 7:
			return providertest.Text("I would say this is a billing question.")
		case i%10 == 0 && n == 0:
			return providertest.Text(`{"category": "bug", "urgency": "high"}`)
		}
		return valid
	}, &providertest.BatcherOptions{Polls: 2, Limits: provider.BatchLimits{MaxRequests: 300}})
}

// totals count the outcomes handed out.
type totals struct{ valid, reasked, failed int }

func (t *totals) add(s batch.Settled) {
	var ve *enforce.ValidationError
	switch {
	case s.Err == nil:
		t.valid++
		if len(s.Result.Attempts) > 1 {
			t.reasked++
		}
	case errors.As(s.Err, &ve):
		t.failed++
	default:
		t.failed++
	}
}

// hooks are what a test watches the run through.
type hooks struct {
	// term sends the first process SIGTERM, from outside its loop, while
	// it waits firstPoll to poll a running batch again (see terminating).
	term func() error
	// stopped, when not nil, gets the time the first runner took to stop
	// after the signal.
	stopped func(time.Duration)
	// handed, when not nil, gets every outcome handed out.
	handed func(batch.Settled)
}

// signalDelay is how long after the first process starts waiting on a
// running batch the SIGTERM comes: by then it waits firstPoll to poll
// again.
const signalDelay = 50 * time.Millisecond

// terminating is the first process's view of the provider. Before any
// outcome is handed out, the scripted batches run at once: a poll that
// finds one running polls again. After, the first poll that finds a
// batch still running arms a timer that sends SIGTERM signalDelay later,
// from outside the runner, as a deploy would while the runner waits to
// poll again.
type terminating struct {
	*providertest.Batcher
	handed *int
	term   func() error
	armed  bool
	sent   chan signalled // the timer's report, buffered
}

// signalled is when SIGTERM was sent, and whether sending it failed.
type signalled struct {
	at  time.Time
	err error
}

// Batch polls the provider, and arms the SIGTERM as terminating says.
func (t *terminating) Batch(ctx context.Context, id string) (*provider.Batch, error) {
	for {
		b, err := t.Batcher.Batch(ctx, id)
		switch {
		case err != nil || b.Status.Done():
			return b, err
		case *t.handed == 0:
			continue
		case !t.armed:
			t.armed = true
			time.AfterFunc(signalDelay, func() {
				at := time.Now()
				t.sent <- signalled{at, t.term()}
			})
		}
		return b, nil
	}
}

// run runs the job in two processes' worth of runners over one store.
// The first is sent SIGTERM by h.term while it waits to poll the batches
// still running.
func run(w io.Writer, b *providertest.Batcher, h hooks) error {
	s, err := schema.Parse([]byte(ticketSchema))
	if err != nil {
		return err
	}
	e, err := enforce.New(s, enforce.WithMaxRetries(1))
	if err != nil {
		return err
	}
	var its []batch.Item
	for i := range items {
		its = append(its, batch.Item{ID: fmt.Sprintf("ticket%d", i), Request: enforce.Request{
			System: "You triage support tickets.",
			Prompt: fmt.Sprintf("Ticket %d: my invoice shows the wrong amount.", i),
		}})
	}
	// The store outlives the runners: here in memory, in production
	// batch/sqlstore over SQLite or PostgreSQL.
	store := batch.NewMemory(&batch.MemoryOptions{DropDelivered: true})
	var t totals

	// The first process: SIGTERM while it waits to poll. Its context
	// ends, the runner stops at once and the loop gets the context's
	// error; the batch in flight keeps running at the provider.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	n := 0
	tb := &terminating{Batcher: b, handed: &n, term: h.term, sent: make(chan signalled, 1)}
	first, err := batch.New(tb, store, batch.WithEnforcer(e), batch.WithPollInterval(firstPoll))
	if err != nil {
		return err
	}
	shutDown := false
	for st, err := range first.Run(ctx, its) {
		if errors.Is(err, context.Canceled) {
			shutDown = true
			break // shut down: the next process resumes
		}
		if err != nil {
			return err
		}
		t.add(st)
		if h.handed != nil {
			h.handed(st)
		}
		n++
	}
	returned := time.Now()
	if !tb.armed {
		return errors.New("the first runner ended without SIGTERM")
	}
	sig := <-tb.sent // the timer reports once it has sent the signal
	if sig.err != nil {
		return sig.err
	}
	if !shutDown {
		return errors.New("the first runner ended before SIGTERM")
	}
	if h.stopped != nil {
		h.stopped(returned.Sub(sig.at))
	}
	stop()
	fmt.Fprintf(w, "first runner: %d outcomes, then SIGTERM before its next poll; %d batches submitted so far, %d cancelled\n", n, len(b.Submissions()), len(b.Canceled()))

	// The next process resumes from the store.
	ctx, stop = signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	second, err := batch.New(b, store, batch.WithEnforcer(e), batch.WithPollInterval(0))
	if err != nil {
		return err
	}
	m := 0
	for st, err := range second.Run(ctx, its) {
		if err != nil {
			return err
		}
		t.add(st)
		if h.handed != nil {
			h.handed(st)
		}
		m++
	}
	fmt.Fprintf(w, "second runner: %d outcomes\n", m)

	// Request IDs name the item and the attempt ("ticket7-2"): an ID
	// submitted again is a resubmission (here after a rate limit), not a
	// second copy of a batch the kill made the runner forget.
	requests, firsts, reasks, resubmitted := 0, 0, 0, 0
	for id, c := range b.Submitted() {
		requests += c
		resubmitted += c - 1
		if strings.HasSuffix(id, "-1") {
			firsts++
		} else {
			reasks++
		}
	}
	var sizes []int
	for _, sub := range b.Submissions() {
		sizes = append(sizes, len(sub.IDs))
	}
	fmt.Fprintf(w, "items: %d valid (%d after a re-ask), %d failed\n", t.valid, t.reasked, t.failed)
	fmt.Fprintf(w, "submissions: %d batches %v, %d requests: %d first attempts, %d re-asks, %d resubmitted after a rate limit\n",
		len(sizes), sizes, requests, firsts, reasks, resubmitted)
	return nil
}
