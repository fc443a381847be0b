package batch

import (
	"encoding/json"
	"testing"
)

// FuzzReadItem feeds readItem, which reads the records a store gives
// back, arbitrary data and log bytes: it must not panic, and what it
// accepts as pending has a request to send and one attempt logged per
// attempt counted, what it accepts as settled an outcome whose JSON is
// valid, and restores without panicking.
func FuzzReadItem(f *testing.F) {
	f.Add([]byte(`{"state":{"attempts":0}}`), []byte(`{"first":{"Messages":[{"role":"user","content":"hi"}]}}`), []byte(nil), "pending")
	f.Add([]byte(`{"state":{"attempts":1}}`), []byte(`{"first":{"Messages":[{"role":"user","content":"hi"}]}}`),
		[]byte(`{"attempt":{"number":1,"response":{"text":"x"}},"next":{"keep":1,"add":[{"role":"user","content":"again"}]}}`), "pending")
	f.Add([]byte(`{"state":{"attempts":1},"outcome":{"valid":true,"started":true}}`), []byte(`{"first":{}}`),
		[]byte(`{"attempt":{"number":1,"json":"{\"a\":1}"}}`), "settled")
	f.Add([]byte(`{"outcome":{"json":"{\"a\":1}","error":{"class":"validation","message":"m","causes":["no_json"]}}}`), []byte(nil), []byte(nil), "settled")
	f.Add([]byte(`{"outcome":{"json":"{"}}`), []byte(nil), []byte(nil), "delivered")
	f.Add([]byte(`null`), []byte(`{"next":{"keep":5}}`), []byte(nil), "pending")
	f.Add([]byte(`{"state":{"attempts":1}}`), []byte(`{"first":{"Messages":[{"role":"assistant","tool_calls":[{"id":"c","name":"n","arguments":null}]}]},"raw_args":{"first.0.0":"{,"}}`),
		[]byte(`{"attempt":{"response":{"tool_calls":[{"id":"c","name":"n","arguments":null}]}},"raw_args":{"response.0":"{","response.1":"x","add.0.0":""}}`), "pending")
	f.Add([]byte(`{"state":{"attempts":1},"outcome":{"valid":true,"started":true}}`), []byte(`{"first":{}}`),
		[]byte(`{"attempt":{"response":{"tool_calls":[{"id":"c","name":"n","arguments":null}]},"call":1},"next":{"keep":0,"add":[{"role":"assistant","tool_calls":[{"id":"c","name":"n","arguments":null}]}]},"raw_args":{"add.0.0":"{\"a\": 1}"},"raw_same":{"response.0":"add.0.0"}}`), "settled")
	f.Add([]byte(`{"state":{"attempts":1}}`), []byte(`{"first":{}}`),
		[]byte(`{"attempt":{"response":{"text":"x"},"call":2},"raw_same":{"response.0":"add.9.9"}}`), "pending")
	f.Add([]byte(`{"resubmits":-1}`), []byte(`{"first":{}}`), []byte(nil), "pending")
	f.Fuzz(func(t *testing.T, data, log1, log2 []byte, status string) {
		rec := Record{ID: "id", Status: Status(status), Data: data}
		for _, e := range [][]byte{log1, log2} {
			if e != nil {
				rec.Log = append(rec.Log, e)
			}
		}
		it, err := readItem(rec)
		if err != nil {
			return
		}
		if len(it.attempts) != it.data.State.Attempts {
			t.Fatal("a log that does not match the state was accepted")
		}
		switch Status(status) {
		case StatusPending:
			if it.first == nil || it.next == nil {
				t.Fatal("a pending item without a request was accepted")
			}
		default:
			s, err := it.settled("id")
			if err != nil {
				return
			}
			if s.Result != nil && s.Result.JSON != nil && !json.Valid(s.Result.JSON) {
				t.Fatalf("invalid JSON restored: %q", s.Result.JSON)
			}
			if s.Err != nil {
				_ = s.Err.Error()
			}
		}
	})
}

// TestRequestIDs: a request ID names its item and attempt, and only IDs
// the runner makes parse.
func TestRequestIDs(t *testing.T) {
	for _, id := range []string{"a", "m-1", "x_y-z", "9"} {
		for _, n := range []int{1, 2, 10, 1234567} {
			gotID, gotN, ok := parseRequestID(requestID(id, n))
			if !ok || gotID != id || gotN != n {
				t.Errorf("parse(%q) = %q, %d, %v", requestID(id, n), gotID, gotN, ok)
			}
		}
	}
	for _, s := range []string{"", "a", "-1", "a-", "a-0", "a-+1", "a-01x", "a-x", "a-1.5"} {
		if id, n, ok := parseRequestID(s); ok {
			t.Errorf("parse(%q) = %q, %d, accepted", s, id, n)
		}
	}
}
