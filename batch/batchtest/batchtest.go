package batchtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/agentio/agentio/batch"
)

// Run runs the conformance tests as subtests of t. newStore must return a
// new, empty store each time it is called; it may use t.TempDir and
// t.Cleanup.
func Run(t *testing.T, newStore func(t *testing.T) batch.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, s batch.Store)
	}{
		{"empty", testEmpty},
		{"items round trip", testItems},
		{"replace", testReplace},
		{"batches", testBatches},
		{"delivered", testDelivered},
		{"one change at once", testChange},
		{"copies", testCopies},
		{"cancelled context", testCancelled},
		{"concurrent writers", testConcurrent},
		{"many items", testMany},
		{"logs", testLogs},
		{"filter", testFilter},
		{"save while iterating", testSaveWhileIterating},
		{"log before its record", testLogBeforeRecord},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newStore(t)) })
	}
}

var ctx = context.Background()

// items reads every record, sorted by ID.
func items(t *testing.T, s batch.Store) []batch.Record {
	t.Helper()
	return filtered(t, s, batch.Filter{})
}

// filtered reads the records f selects, sorted by ID.
func filtered(t *testing.T, s batch.Store, f batch.Filter) []batch.Record {
	t.Helper()
	var out []batch.Record
	for r, err := range s.Items(ctx, f) {
		if err != nil {
			t.Fatalf("Items: %v", err)
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// batches reads every batch record, sorted by key.
func batches(t *testing.T, s batch.Store) []batch.BatchRecord {
	t.Helper()
	var out []batch.BatchRecord
	for b, err := range s.Batches(ctx) {
		if err != nil {
			t.Fatalf("Batches: %v", err)
		}
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

func save(t *testing.T, s batch.Store, c batch.Update) {
	t.Helper()
	if err := s.Save(ctx, c); err != nil {
		t.Fatalf("Save: %v", err)
	}
}

func sameRecords(t *testing.T, want, got []batch.Record) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%d records, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.ID != g.ID || w.Status != g.Status || w.Attempt != g.Attempt || !bytes.Equal(w.Data, g.Data) {
			t.Errorf("record %d = {%s %s %d %q}, want {%s %s %d %q}", i, g.ID, g.Status, g.Attempt, g.Data, w.ID, w.Status, w.Attempt, w.Data)
		}
	}
}

func sameBatches(t *testing.T, want, got []batch.BatchRecord) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%d batch records, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.Key != g.Key || w.ID != g.ID || w.Round != g.Round || !slices.Equal(w.Requests, g.Requests) {
			t.Errorf("batch record %d = %+v, want %+v", i, g, w)
		}
	}
}

func testEmpty(t *testing.T, s batch.Store) {
	sameRecords(t, nil, items(t, s))
	sameBatches(t, nil, batches(t, s))
	save(t, s, batch.Update{})
	save(t, s, batch.Update{Closed: []string{"unknown"}, Delivered: []string{"unknown"}})
	sameRecords(t, nil, items(t, s))
}

func testItems(t *testing.T, s batch.Store) {
	want := []batch.Record{
		{ID: "a", Status: batch.StatusPending, Attempt: 1, Data: []byte(`{"state":{}}`)},
		{ID: "b", Status: batch.StatusSettled, Attempt: 3, Data: []byte{0, 1, 2, 0xff, '\'', '"'}},
		{ID: "c-d_E9", Status: batch.StatusDelivered, Attempt: 2, Data: nil},
	}
	save(t, s, batch.Update{Items: want})
	got := items(t, s)
	if len(got) == 3 && len(got[2].Data) == 0 {
		got[2].Data = nil
	}
	sameRecords(t, want, got)
}

func testReplace(t *testing.T, s batch.Store) {
	save(t, s, batch.Update{Items: []batch.Record{{ID: "a", Status: batch.StatusPending, Attempt: 1, Data: []byte("one")}}})
	save(t, s, batch.Update{Items: []batch.Record{{ID: "a", Status: batch.StatusPending, Attempt: 2, Data: []byte("two")}}})
	sameRecords(t, []batch.Record{{ID: "a", Status: batch.StatusPending, Attempt: 2, Data: []byte("two")}}, items(t, s))
	save(t, s, batch.Update{Items: []batch.Record{{ID: "a", Status: batch.StatusSettled, Attempt: 2, Data: []byte("done")}}})
	sameRecords(t, []batch.Record{{ID: "a", Status: batch.StatusSettled, Attempt: 2, Data: []byte("done")}}, items(t, s))
}

func testBatches(t *testing.T, s batch.Store) {
	b1 := batch.BatchRecord{Key: "k1", Round: 1, Requests: []string{"a-1", "b-1"}}
	b2 := batch.BatchRecord{Key: "k2", Round: 2, Requests: []string{"c-2"}}
	save(t, s, batch.Update{Batches: []batch.BatchRecord{b1, b2}})
	sameBatches(t, []batch.BatchRecord{b1, b2}, batches(t, s))
	b1.ID = "batch_123"
	save(t, s, batch.Update{Batches: []batch.BatchRecord{b1}})
	sameBatches(t, []batch.BatchRecord{b1, b2}, batches(t, s))
	save(t, s, batch.Update{Closed: []string{"k2"}})
	sameBatches(t, []batch.BatchRecord{b1}, batches(t, s))
}

func testDelivered(t *testing.T, s batch.Store) {
	save(t, s, batch.Update{Items: []batch.Record{
		{ID: "a", Status: batch.StatusSettled, Attempt: 1, Data: []byte("A")},
		{ID: "b", Status: batch.StatusSettled, Attempt: 1, Data: []byte("B")},
	}})
	save(t, s, batch.Update{Delivered: []string{"a", "zz"}})
	got := items(t, s)
	if len(got) != 2 || got[0].Status != batch.StatusDelivered || got[1].Status != batch.StatusSettled {
		t.Fatalf("after delivering a: %+v", got)
	}
	if got[0].Attempt != 1 {
		t.Errorf("delivering changed the attempt: %+v", got[0])
	}
}

func testChange(t *testing.T, s batch.Store) {
	save(t, s, batch.Update{
		Items:   []batch.Record{{ID: "a", Status: batch.StatusPending, Attempt: 1, Data: []byte("x")}},
		Batches: []batch.BatchRecord{{Key: "k", Round: 1, Requests: []string{"a-1"}}},
	})
	// One change: a settled item, its batch closed, another delivered.
	save(t, s, batch.Update{
		Items:     []batch.Record{{ID: "a", Status: batch.StatusSettled, Attempt: 1, Data: []byte("y")}},
		Closed:    []string{"k"},
		Delivered: []string{"a"},
	})
	got := items(t, s)
	if len(got) != 1 || got[0].Status != batch.StatusDelivered {
		t.Fatalf("items marked delivered in the change that writes them: %+v", got)
	}
	sameBatches(t, nil, batches(t, s))
}

func testCopies(t *testing.T, s batch.Store) {
	data := []byte("abc")
	reqs := []string{"a-1"}
	c := batch.Update{Items: []batch.Record{{ID: "a", Status: batch.StatusPending, Attempt: 1, Data: data}},
		Batches: []batch.BatchRecord{{Key: "k", Requests: reqs}}}
	save(t, s, c)
	got := items(t, s)
	got[0].Data[0] = 'X'
	bs := batches(t, s)
	bs[0].Requests[0] = "changed"
	sameRecords(t, []batch.Record{{ID: "a", Status: batch.StatusPending, Attempt: 1, Data: []byte("abc")}}, items(t, s))
	sameBatches(t, []batch.BatchRecord{{Key: "k", Requests: []string{"a-1"}}}, batches(t, s))
}

func testCancelled(t *testing.T, s batch.Store) {
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Save(cctx, batch.Update{Items: []batch.Record{{ID: "a", Status: batch.StatusPending, Attempt: 1}}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Save with a cancelled context = %v, want context.Canceled", err)
	}
	sameRecords(t, nil, items(t, s))
	for _, err := range s.Batches(cctx) {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Batches with a cancelled context = %v", err)
		}
	}
	for _, err := range s.Items(cctx, batch.Filter{}) {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Items with a cancelled context = %v", err)
		}
	}
}

func testConcurrent(t *testing.T, s batch.Store) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				id := fmt.Sprintf("g%d-%d", g, i)
				if err := s.Save(ctx, batch.Update{Items: []batch.Record{{ID: id, Status: batch.StatusPending, Attempt: 1, Data: []byte(id)}},
					Batches: []batch.BatchRecord{{Key: id, Requests: []string{id}}}}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent Save: %v", err)
	}
	if n := len(items(t, s)); n != 80 {
		t.Errorf("%d items after 80 concurrent saves", n)
	}
	if n := len(batches(t, s)); n != 80 {
		t.Errorf("%d batches after 80 concurrent saves", n)
	}
}

func testMany(t *testing.T, s batch.Store) {
	const n = 2000
	c := batch.Update{}
	for i := range n {
		c.Items = append(c.Items, batch.Record{ID: fmt.Sprintf("m%05d", i), Status: batch.StatusPending, Attempt: 1, Data: []byte(`{}`)})
	}
	save(t, s, c)
	got := items(t, s)
	if len(got) != n {
		t.Fatalf("%d items, want %d", len(got), n)
	}
	// Stopping the iteration early is allowed.
	for range s.Items(ctx, batch.Filter{}) {
		break
	}
}

func sameLog(t *testing.T, want [][]byte, got [][]byte) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("a log of %d entries, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if !bytes.Equal(want[i], got[i]) {
			t.Errorf("log entry %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func testLogs(t *testing.T, s batch.Store) {
	rec := batch.Record{ID: "a", Status: batch.StatusPending, Attempt: 1, Data: []byte("one")}
	save(t, s, batch.Update{Items: []batch.Record{rec}, Logs: []batch.LogEntry{{ID: "a", Data: []byte("first")}, {ID: "a", Data: []byte{0, 0xff}}}})
	save(t, s, batch.Update{Items: []batch.Record{{ID: "b", Status: batch.StatusPending, Attempt: 1, Data: []byte("b")}},
		Logs: []batch.LogEntry{{ID: "b", Data: []byte("b0")}}})
	// Rewriting the record keeps its log; entries append in order.
	rec.Attempt, rec.Data, rec.Log = 2, []byte("two"), [][]byte{[]byte("ignored")}
	save(t, s, batch.Update{Items: []batch.Record{rec}, Logs: []batch.LogEntry{{ID: "a", Data: []byte("third")}}})
	got := items(t, s)
	if len(got) != 2 {
		t.Fatalf("%d items, want 2", len(got))
	}
	if got[0].Attempt != 2 || string(got[0].Data) != "two" {
		t.Errorf("record a = %+v", got[0])
	}
	sameLog(t, [][]byte{[]byte("first"), {0, 0xff}, []byte("third")}, got[0].Log)
	sameLog(t, [][]byte{[]byte("b0")}, got[1].Log)
	// Settling and delivering keep the log (a store may drop a delivered
	// item's data and log only by an option of its own).
	rec.Status = batch.StatusSettled
	save(t, s, batch.Update{Items: []batch.Record{rec}, Logs: []batch.LogEntry{{ID: "a", Data: []byte("last")}}})
	sameLog(t, [][]byte{[]byte("first"), {0, 0xff}, []byte("third"), []byte("last")}, items(t, s)[0].Log)
	// A log entry is the caller's copy.
	got = items(t, s)
	got[0].Log[0][0] = 'X'
	sameLog(t, [][]byte{[]byte("first"), {0, 0xff}, []byte("third"), []byte("last")}, items(t, s)[0].Log)
}

func testFilter(t *testing.T, s batch.Store) {
	save(t, s, batch.Update{Items: []batch.Record{
		{ID: "p", Status: batch.StatusPending, Attempt: 1, Data: []byte("P")},
		{ID: "s", Status: batch.StatusSettled, Attempt: 2, Data: []byte("S")},
		{ID: "d", Status: batch.StatusSettled, Attempt: 3, Data: []byte("D")},
	}, Logs: []batch.LogEntry{{ID: "p", Data: []byte("p0")}, {ID: "s", Data: []byte("s0")}}, Delivered: []string{"d"}})
	ids := func(recs []batch.Record) []string {
		var out []string
		for _, r := range recs {
			out = append(out, r.ID)
		}
		return out
	}
	for _, tc := range []struct {
		statuses []batch.Status
		want     []string
	}{
		{nil, []string{"d", "p", "s"}},
		{[]batch.Status{batch.StatusPending}, []string{"p"}},
		{[]batch.Status{batch.StatusSettled}, []string{"s"}},
		{[]batch.Status{batch.StatusSettled, batch.StatusDelivered}, []string{"d", "s"}},
	} {
		got := filtered(t, s, batch.Filter{Statuses: tc.statuses})
		if !slices.Equal(ids(got), tc.want) {
			t.Errorf("Items(%v) = %v, want %v", tc.statuses, ids(got), tc.want)
		}
	}
	got := filtered(t, s, batch.Filter{Statuses: []batch.Status{batch.StatusPending}})
	sameLog(t, [][]byte{[]byte("p0")}, got[0].Log)
	got = filtered(t, s, batch.Filter{NoData: true})
	if len(got) != 3 {
		t.Fatalf("%d records without data, want 3", len(got))
	}
	for _, r := range got {
		if r.Data != nil || r.Log != nil || r.Attempt == 0 || r.Status == "" {
			t.Errorf("NoData record = %+v, want its ID, status and attempt only", r)
		}
	}
}

// testSaveWhileIterating writes from the loop bodies of Items and
// Batches, as the runner does: a store that held a cursor or lock across
// the body would deadlock (on a one-connection database) or fail.
func testSaveWhileIterating(t *testing.T, s batch.Store) {
	const n = 1200
	c := batch.Update{}
	for i := range n {
		id := fmt.Sprintf("w%05d", i)
		c.Items = append(c.Items, batch.Record{ID: id, Status: batch.StatusSettled, Attempt: 1, Data: []byte(id)})
		c.Logs = append(c.Logs, batch.LogEntry{ID: id, Data: []byte("log " + id)})
	}
	c.Batches = []batch.BatchRecord{{Key: "k1", Requests: []string{"a-1"}}, {Key: "k2", Requests: []string{"b-1"}}}
	save(t, s, c)
	seen := 0
	for r, err := range s.Items(ctx, batch.Filter{Statuses: []batch.Status{batch.StatusSettled}}) {
		if err != nil {
			t.Fatalf("Items: %v", err)
		}
		if len(r.Log) != 1 || string(r.Log[0]) != "log "+r.ID {
			t.Fatalf("record %s has log %q", r.ID, r.Log)
		}
		seen++
		save(t, s, batch.Update{Delivered: []string{r.ID}})
	}
	if seen != n {
		t.Errorf("%d records seen while delivering them, want %d", seen, n)
	}
	if got := filtered(t, s, batch.Filter{Statuses: []batch.Status{batch.StatusDelivered}, NoData: true}); len(got) != n {
		t.Errorf("%d delivered, want %d", len(got), n)
	}
	for b, err := range s.Batches(ctx) {
		if err != nil {
			t.Fatalf("Batches: %v", err)
		}
		save(t, s, batch.Update{Closed: []string{b.Key}})
	}
	sameBatches(t, nil, batches(t, s))
}

// testLogBeforeRecord: log entries saved before their item's record are
// read with it once it is written, and not before.
func testLogBeforeRecord(t *testing.T, s batch.Store) {
	save(t, s, batch.Update{Logs: []batch.LogEntry{{ID: "x", Data: []byte("early")}}})
	sameRecords(t, nil, items(t, s))
	save(t, s, batch.Update{Items: []batch.Record{{ID: "x", Status: batch.StatusPending, Attempt: 1, Data: []byte("X")}}})
	got := items(t, s)
	if len(got) != 1 {
		t.Fatalf("%d records, want 1", len(got))
	}
	sameLog(t, [][]byte{[]byte("early")}, got[0].Log)
}
