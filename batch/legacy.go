package batch

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// Stores written in the earlier format, one record per item holding its
// whole history, are read and brought to the current one.

// legacyData is Record.Data as the runner wrote it before items had a
// log: the whole state in one document, requests and attempts included,
// rewritten at every step. Such records are read, and a pending one is
// written again in the current form (see item.migrate).
type legacyData struct {
	State     enforce.State     `json:"state"`
	Resubmits int               `json:"resubmits"`
	First     *provider.Request `json:"first"`
	Next      *provider.Request `json:"next"`
	Text      string            `json:"text"`
	Attempts  []legacyAttempt   `json:"attempts"`
	Outcome   *legacyOutcome    `json:"outcome"`
}

type legacyAttempt struct {
	enforce.Attempt
	Error *storedError `json:"error"`
}

type legacyOutcome struct {
	JSON      *string           `json:"json"`
	Text      string            `json:"text"`
	Usage     provider.Usage    `json:"usage"`
	Mode      enforce.Mode      `json:"mode"`
	Coercions []schema.Coercion `json:"coercions"`
	Error     *storedError      `json:"error"`
	Started   bool              `json:"started"`
}

// isLegacy reports whether data is a legacyData: it holds the first
// request or the attempts, or an outcome with its usage, which the
// current form keeps elsewhere.
func isLegacy(data []byte) bool {
	var probe struct {
		First    json.RawMessage `json:"first"`
		Attempts json.RawMessage `json:"attempts"`
		Outcome  *struct {
			Usage json.RawMessage `json:"usage"`
		} `json:"outcome"`
	}
	if json.Unmarshal(data, &probe) != nil {
		return false
	}
	return probe.First != nil || probe.Attempts != nil || probe.Outcome != nil && probe.Outcome.Usage != nil
}

// readLegacy reads a record in the legacy form.
func readLegacy(rec Record) (*item, error) {
	var d legacyData
	if err := json.Unmarshal(rec.Data, &d); err != nil {
		return nil, err
	}
	if d.Resubmits < 0 || d.State.Attempts < 0 {
		return nil, errors.New("a negative count")
	}
	if len(d.Attempts) != d.State.Attempts {
		return nil, fmt.Errorf("%d attempts, the state %d", len(d.Attempts), d.State.Attempts)
	}
	it := &item{data: &itemData{State: d.State, Resubmits: d.Resubmits}, first: d.First, legacy: true, mode: d.State.Mode}
	it.next = d.Next
	if it.next == nil {
		it.next = d.First
	}
	for i, la := range d.Attempts {
		a := la.Attempt
		if la.Error != nil {
			a.Err = la.Error.restore(nil)
		}
		if i == 0 && it.mode == "" {
			it.mode = a.Mode
		}
		text := ""
		if a.Response != nil {
			text = a.Response.Text
		}
		it.attempts = append(it.attempts, a)
		it.texts = append(it.texts, text)
	}
	if n := len(it.texts); n > 0 {
		it.texts[n-1] = d.Text
	}
	switch rec.Status {
	case StatusPending:
		if d.First == nil || d.Outcome != nil {
			return nil, errors.New("a pending item without its request, or with an outcome")
		}
		for i, a := range it.attempts {
			if a.Request == nil {
				return nil, fmt.Errorf("attempt %d without its request", i+1)
			}
		}
	case StatusSettled, StatusDelivered:
		o := d.Outcome
		if o == nil {
			return nil, errors.New("a settled item without its outcome")
		}
		if o.JSON != nil && !json.Valid([]byte(*o.JSON)) {
			return nil, errors.New("a settled item whose output is not JSON")
		}
		text := o.Text
		it.data.Outcome = &storedOutcome{JSON: o.JSON, Text: &text, Valid: o.JSON != nil, Error: o.Error, Started: o.Started}
		it.data.State.Usage, it.data.State.Mode = o.Usage, o.Mode
	default:
		return nil, fmt.Errorf("unknown status %q", rec.Status)
	}
	return it, nil
}

// migrate returns the log entries of a pending legacy item, in the
// current form: its first request, then each attempt with the change to
// the request after it.
func (it *item) migrate(id string) ([]LogEntry, error) {
	reqs := make([]*provider.Request, 0, len(it.attempts)+1)
	for _, a := range it.attempts {
		reqs = append(reqs, a.Request)
	}
	reqs = append(reqs, it.next)
	entries := []*logEntry{{First: it.first, Mode: it.mode, Next: changeOf(it.first, reqs[0])}}
	for i, a := range it.attempts {
		e := attemptEntry(a, i+1, it.mode, it.texts[i])
		e.Next = changeOf(reqs[i], reqs[i+1])
		entries = append(entries, e)
	}
	out := make([]LogEntry, len(entries))
	for i, e := range entries {
		data, err := encodeEntry(e)
		if err != nil {
			return nil, err
		}
		out[i] = LogEntry{ID: id, Data: data}
	}
	return out, nil
}
