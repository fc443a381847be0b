package batch

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeData feeds decodeData, which reads the records a store gives
// back, arbitrary bytes: it must not panic, and what it accepts as pending
// has a request to send, what it accepts as settled an outcome whose
// JSON is valid, and restores without panicking.
func FuzzDecodeData(f *testing.F) {
	f.Add([]byte(`{"state":{"attempts":1},"first":{"messages":[{"role":"user","content":"hi"}]}}`), "pending")
	f.Add([]byte(`{"outcome":{"json":"{\"a\":1}","error":{"class":"validation","message":"m","causes":["no_json"]}}}`), "settled")
	f.Add([]byte(`{"outcome":{"error":{"class":"provider","message":"m","provider":{"kind":"rate_limited"}}},"attempts":[{"number":1,"error":{"class":"other","message":"x"}}]}`), "delivered")
	f.Add([]byte(`{"outcome":{"json":"{"}}`), "settled")
	f.Add([]byte(`null`), "pending")
	f.Add([]byte(`{"resubmits":-1,"first":{}}`), "pending")
	f.Fuzz(func(t *testing.T, data []byte, status string) {
		d, err := decodeData(data, Status(status))
		if err != nil {
			return
		}
		switch Status(status) {
		case StatusPending:
			if d.First == nil || d.Next == nil {
				t.Fatal("a pending item without a request was accepted")
			}
		default:
			s, err := d.settled("id")
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
