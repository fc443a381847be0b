package blueprint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
)

// A Result is what an agent run produced: free text (result_text) when no
// output schema applied, or validated JSON (result_data) when one did;
// never both. Its JSON form always has both keys, the unused one null:
//
//	{"result_text": null, "result_data": {"summary": "..."}}
//
// A Result is immutable and safe for concurrent use (the enforce.Result
// behind it, see [Result.Enforcement], is shared read-only). The zero value
// is a text result with empty text; build others with [NewTextResult],
// [NewDataResult], [NewEnforcedResult] or [Run].
type Result struct {
	text     string
	data     json.RawMessage // non-nil: a structured result
	usage    provider.Usage
	enforced *enforce.Result // the run behind a result of Run or NewEnforcedResult
}

// NewTextResult returns a free-text result.
func NewTextResult(text string) *Result { return &Result{text: text} }

// NewDataResult returns a structured result holding data, which must be a
// single JSON value (the caller validated it against its schema). The bytes
// are copied and kept as they are, so large numbers keep their digits.
func NewDataResult(data json.RawMessage) (*Result, error) {
	trimmed := bytes.TrimSpace(data)
	if !json.Valid(trimmed) {
		return nil, errors.New("blueprint: result data is not a single JSON value")
	}
	if isNull(trimmed) {
		return nil, errors.New("blueprint: result data must not be null")
	}
	return &Result{data: bytes.Clone(trimmed)}, nil
}

// NewEnforcedResult returns the structured result of a successful
// enforcement run: result_data is res.JSON. It fails when res is nil or
// holds no JSON (a failed run). The Result keeps res for
// [Result.Enforcement].
func NewEnforcedResult(res *enforce.Result) (*Result, error) {
	if res == nil || res.JSON == nil {
		return nil, errors.New("blueprint: enforcement result holds no valid JSON")
	}
	r, err := NewDataResult(res.JSON)
	if err != nil {
		return nil, err
	}
	r.usage, r.enforced = res.Usage, res
	return r, nil
}

// Usage returns the tokens the run behind r used: every attempt's for an
// enforced result, the single call's for a free-text result of [Run],
// zero for a result built by hand.
func (r *Result) Usage() provider.Usage { return r.usage }

// Enforcement returns the enforcement run behind a structured result of
// [Run] or [NewEnforcedResult] (attempts, raw text, mode), nil otherwise.
// It is shared, not copied: the caller must not modify it.
func (r *Result) Enforcement() *enforce.Result { return r.enforced }

// Structured reports whether r holds result_data rather than result_text.
func (r *Result) Structured() bool { return r.data != nil }

// Text returns result_text, "" for a structured result.
func (r *Result) Text() string { return r.text }

// Data returns a copy of result_data, nil for a text result.
func (r *Result) Data() json.RawMessage { return bytes.Clone(r.data) }

// Decode unmarshals result_data into v (as json.Unmarshal does). It fails
// for a text result.
func (r *Result) Decode(v any) error {
	if r.data == nil {
		return errors.New("blueprint: result has no result_data to decode")
	}
	if err := json.Unmarshal(r.data, v); err != nil {
		return fmt.Errorf("blueprint: decode result_data: %w", err)
	}
	return nil
}

// resultJSON is the wire shape shared by Result and ResultEvent.
type resultJSON struct {
	ResultText *string         `json:"result_text"`
	ResultData json.RawMessage `json:"result_data"`
}

func (r *Result) wire() resultJSON {
	if r.data != nil {
		return resultJSON{ResultData: r.data}
	}
	t := r.text
	return resultJSON{ResultText: &t, ResultData: json.RawMessage("null")}
}

// MarshalJSON writes {"result_text": ..., "result_data": ...}, one of them null.
func (r *Result) MarshalJSON() ([]byte, error) { return json.Marshal(r.wire()) }

// UnmarshalJSON reads the shape MarshalJSON writes. It refuses an object
// where both fields are non-null, or neither is.
func (r *Result) UnmarshalJSON(data []byte) error {
	var w resultJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("blueprint: result: %w", err)
	}
	return r.fromWire(w)
}

func (r *Result) fromWire(w resultJSON) error {
	hasData := len(w.ResultData) > 0 && !isNull(w.ResultData)
	switch {
	case hasData && w.ResultText != nil:
		return errors.New("blueprint: result has both result_text and result_data; they are mutually exclusive")
	case hasData:
		*r = Result{data: bytes.Clone(w.ResultData)}
	case w.ResultText != nil:
		*r = Result{text: *w.ResultText}
	default:
		return errors.New("blueprint: result has neither result_text nor result_data")
	}
	return nil
}

// A ResultEvent announces a finished session's result to whoever follows
// the session:
//
//	{"event_type": "result", "session_id": "ses_abc123",
//	 "timestamp": "2026-01-18T10:30:00Z", "result_text": null, "result_data": {...}}
//
// It is plain data; a nil Result is written as an empty text result.
type ResultEvent struct {
	// SessionID identifies the session that produced the result.
	SessionID string
	// Timestamp is when the result was produced; it is written in UTC,
	// RFC 3339, with sub-second digits only when there are any.
	Timestamp time.Time
	// Result is the session's result.
	Result *Result
}

// MarshalJSON writes the event with "event_type": "result".
func (e ResultEvent) MarshalJSON() ([]byte, error) {
	r := e.Result
	if r == nil {
		r = &Result{}
	}
	w := r.wire()
	return json.Marshal(struct {
		EventType  string          `json:"event_type"`
		SessionID  string          `json:"session_id"`
		Timestamp  string          `json:"timestamp"`
		ResultText *string         `json:"result_text"`
		ResultData json.RawMessage `json:"result_data"`
	}{"result", e.SessionID, e.Timestamp.UTC().Format(time.RFC3339Nano), w.ResultText, w.ResultData})
}

// UnmarshalJSON reads a result event; an event_type other than "result",
// or a result with both or neither field, is an error.
func (e *ResultEvent) UnmarshalJSON(data []byte) error {
	var w struct {
		EventType string    `json:"event_type"`
		SessionID string    `json:"session_id"`
		Timestamp time.Time `json:"timestamp"`
		resultJSON
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("blueprint: result event: %w", err)
	}
	if w.EventType != "result" {
		return fmt.Errorf("blueprint: result event: event_type is %q, want \"result\"", cut(w.EventType))
	}
	r := &Result{}
	if err := r.fromWire(w.resultJSON); err != nil {
		return err
	}
	*e = ResultEvent{SessionID: w.SessionID, Timestamp: w.Timestamp, Result: r}
	return nil
}
