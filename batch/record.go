package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// itemData is what Record.Data holds, encoded as JSON: the item's small
// state, rewritten at every step. What grows with the attempts goes to the
// item's log (logEntry), written once.
type itemData struct {
	// State is the enforcement state after the attempts so far.
	State enforce.State `json:"state"`
	// Resubmits counts the times the current attempt was submitted again
	// without a reply (expired, cancelled, failed batch, retryable error).
	Resubmits int `json:"resubmits,omitempty"`
	// Outcome is set once the item is settled.
	Outcome *storedOutcome `json:"outcome,omitempty"`
}

// A logEntry is one entry of an item's log, encoded as JSON. The first
// entry holds the run's first request; each attempt checked adds one
// holding the attempt (without its request, which the log rebuilds) and,
// when there is a next attempt, what its request changes.
type logEntry struct {
	// First is the run's first request, and Mode the mode it was
	// started in.
	First *provider.Request `json:"first,omitempty"`
	Mode  enforce.Mode      `json:"mode,omitempty"`
	// Attempt is an attempt made, its Request left out.
	Attempt *storedAttempt `json:"attempt,omitempty"`
	// Text is the output the attempt's check read, when it is not the
	// reply's text (the submit_result arguments in tool mode).
	Text *string `json:"text,omitempty"`
	// Next is the request of the next attempt, as a change of the request
	// before it (for the first entry, of First).
	Next *requestChange `json:"next,omitempty"`
	// RawArgs are the tool call arguments of the entry that encoding/json
	// would not write back byte for byte (a model's broken or empty tool
	// call, which it refuses to write, or JSON with spaces, which it
	// compacts), as strings, by where they are (see argsOut); the entry
	// holds none in their place.
	RawArgs map[string]string `json:"raw_args,omitempty"`
	// RawSame names, for tool call arguments of the entry that RawArgs
	// holds already under another place (the reply's call a tool-mode
	// re-ask repeats in its assistant message), that place: they are
	// written once.
	RawSame map[string]string `json:"raw_same,omitempty"`
}

// A requestChange turns the request of an attempt into the next one: the
// messages kept, those added, and the MaxTokens, or, when anything else
// changed, the whole request.
type requestChange struct {
	Keep      int                `json:"keep,omitempty"`
	Add       []provider.Message `json:"add,omitempty"`
	MaxTokens *int               `json:"max_tokens,omitempty"`
	Request   *provider.Request  `json:"request,omitempty"`
}

// changeOf returns the change from prev to next; nil when next is prev.
func changeOf(prev, next *provider.Request) *requestChange {
	if next == prev {
		return nil
	}
	keep := 0
	for keep < len(prev.Messages) && keep < len(next.Messages) && sameMessage(prev.Messages[keep], next.Messages[keep]) {
		keep++
	}
	c := &requestChange{Keep: keep, Add: next.Messages[keep:]}
	a, b := *prev, *next
	a.Messages, b.Messages, a.MaxTokens, b.MaxTokens = nil, nil, 0, 0
	if !reflect.DeepEqual(a, b) {
		return &requestChange{Request: next}
	}
	if next.MaxTokens != prev.MaxTokens {
		n := next.MaxTokens
		c.MaxTokens = &n
	}
	return c
}

// sameMessage reports whether a and b are the same message.
func sameMessage(a, b provider.Message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.ToolCallID != b.ToolCallID || a.IsError != b.IsError || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i, c := range a.ToolCalls {
		d := b.ToolCalls[i]
		if c.ID != d.ID || c.Name != d.Name || !bytes.Equal(c.Arguments, d.Arguments) {
			return false
		}
	}
	return true
}

// apply returns the request c makes of prev.
func (c *requestChange) apply(prev *provider.Request) (*provider.Request, error) {
	if c.Request != nil {
		return c.Request, nil
	}
	if c.Keep < 0 || c.Keep > len(prev.Messages) {
		return nil, fmt.Errorf("a request change keeps %d of %d messages", c.Keep, len(prev.Messages))
	}
	r := *prev
	r.Messages = make([]provider.Message, 0, c.Keep+len(c.Add))
	r.Messages = append(append(r.Messages, prev.Messages[:c.Keep]...), c.Add...)
	if c.MaxTokens != nil {
		r.MaxTokens = *c.MaxTokens
	}
	return &r, nil
}

// storedAttempt is an enforce.Attempt as the log keeps it: without its
// request, with its error, with its JSON as a string, so that it comes
// back with the model's bytes, and without what its place in the log or
// its reply already says (its number, a usage that is the reply's).
type storedAttempt struct {
	enforce.Attempt
	// Number is the attempt's number when it is not its place in the log.
	Number int `json:"number,omitempty"`
	// Usage is the attempt's usage when it is not its reply's.
	Usage *provider.Usage `json:"usage,omitempty"`
	// Mode is the attempt's mode when it is not the run's first (the
	// first log entry's Mode).
	Mode enforce.Mode `json:"mode,omitempty"`
	// Call is the number (from 1) of the reply's tool call whose
	// arguments are the output the attempt's check read (the
	// submit_result call in tool mode); 0 when it read the reply's text.
	Call int `json:"call,omitempty"`
	// JSON is the attempt's JSON when it is not its output (which is then
	// not written twice); NoJSON marks an attempt with a reply and no
	// JSON.
	JSON   *string      `json:"json,omitempty"`
	NoJSON bool         `json:"no_json,omitempty"`
	Error  *storedError `json:"error,omitempty"`
}

// storedOutcome is the outcome of a settled item. What the last attempt
// holds (its text, its JSON, its coercions) is not repeated.
type storedOutcome struct {
	// JSON is the valid output, when there is one and it is not the last
	// attempt's JSON.
	JSON *string `json:"json,omitempty"`
	// Text is the Result's text, when it is not the last attempt's output.
	Text *string `json:"text,omitempty"`
	// Valid marks an outcome with valid output.
	Valid bool `json:"valid,omitempty"`
	// Error is why the item ended without valid output.
	Error *storedError `json:"error,omitempty"`
	// Started reports that an attempt was made, so the Result is not nil.
	Started bool `json:"started,omitempty"`
}

// The classes of a stored error: which typed error or sentinel it is
// restored as.
const (
	classOther      = "other"
	classValidation = "validation"
	classRefused    = "refused"
	classProvider   = "provider"
	classBudget     = "token_budget"
	classBatch      = "batch_failed"
	classRequest    = "invalid_request"
	classResubmits  = "resubmits"
)

// storedError is an error as the store keeps it: its text, its class and
// the data its typed form carries.
type storedError struct {
	Class   string `json:"class"`
	Message string `json:"message"`
	// A *enforce.ValidationError's fields (Attempts are the item's).
	Retries    int                `json:"retries,omitempty"`
	Violations []schema.Violation `json:"violations,omitempty"`
	Output     string             `json:"output,omitempty"`
	Usage      *provider.Usage    `json:"usage,omitempty"`
	Causes     []string           `json:"causes,omitempty"`
	// Provider is the *provider.Error in the chain, as it encodes itself.
	Provider *provider.Error `json:"provider,omitempty"`
}

// The sentinels a ValidationError's cause is made of, by name.
var causes = []struct {
	name string
	err  error
}{
	{"no_json", enforce.ErrNoJSON},
	{"non_json_text", enforce.ErrNonJSONText},
	{"truncated", enforce.ErrTruncated},
	{"token_budget", enforce.ErrTokenBudget},
}

// storeError returns err as the store keeps it; nil for nil.
func storeError(err error) *storedError {
	if err == nil {
		return nil
	}
	s := &storedError{Class: classOther, Message: err.Error()}
	var ve *enforce.ValidationError
	var pe *provider.Error
	switch {
	case errors.As(err, &ve):
		s.Class = classValidation
		s.Retries, s.Violations, s.Output = ve.Retries, ve.Violations, ve.Output
		u := ve.Usage
		s.Usage = &u
		for _, c := range causes {
			if errors.Is(ve.Err, c.err) {
				s.Causes = append(s.Causes, c.name)
			}
		}
	case errors.Is(err, enforce.ErrRefused):
		s.Class = classRefused
	case errors.Is(err, ErrBatchFailed):
		s.Class = classBatch
	case errors.Is(err, ErrResubmits):
		s.Class = classResubmits
	case errors.As(err, &pe):
		s.Class = classProvider
	case errors.Is(err, enforce.ErrTokenBudget):
		s.Class = classBudget
	case errors.Is(err, enforce.ErrInvalidRequest):
		s.Class = classRequest
	}
	if errors.As(err, &pe) {
		s.Provider = pe
	}
	return s
}

// restoredError is an error read back from a store: the same text, and
// errors.Is and errors.As match what the original matched by class.
type restoredError struct {
	msg  string
	errs []error
}

func (e *restoredError) Error() string   { return e.msg }
func (e *restoredError) Unwrap() []error { return e.errs }

// restore returns the error s stands for; attempts fill a ValidationError.
func (s *storedError) restore(attempts []enforce.Attempt) error {
	if s == nil {
		return nil
	}
	var inner []error
	if s.Provider != nil {
		inner = append(inner, s.Provider)
	}
	switch s.Class {
	case classValidation:
		ve := &enforce.ValidationError{Retries: s.Retries, Violations: s.Violations, Output: s.Output, Attempts: attempts}
		if s.Usage != nil {
			ve.Usage = *s.Usage
		}
		var errs []error
		for _, name := range s.Causes {
			for _, c := range causes {
				if c.name == name {
					errs = append(errs, c.err)
				}
			}
		}
		ve.Err = errors.Join(errs...)
		return ve
	case classRefused:
		inner = append(inner, enforce.ErrRefused)
	case classBatch:
		inner = append(inner, ErrBatchFailed)
	case classResubmits:
		inner = append(inner, ErrResubmits)
	case classBudget:
		inner = append(inner, enforce.ErrTokenBudget)
	case classRequest:
		inner = append(inner, enforce.ErrInvalidRequest)
	}
	return &restoredError{msg: s.Message, errs: inner}
}

// encodeData encodes d for Record.Data.
func encodeData(d *itemData) ([]byte, error) {
	data, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("batch: encode item state: %w", err)
	}
	return data, nil
}

// encodeEntry encodes e for Update.Logs.
func encodeEntry(e *logEntry) ([]byte, error) {
	e = e.withRawArgs()
	data, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("batch: encode item log: %w", err)
	}
	return data, nil
}

// withRawArgs returns e, or, when a tool call of it has arguments that
// encoding/json would not write back byte for byte, a copy of it holding
// them in RawArgs instead. e is not modified.
func (e *logEntry) withRawArgs() *logEntry {
	raw := map[string]string{}
	c := *e
	if e.First != nil {
		if msgs, ok := argsOut(e.First.Messages, "first", raw); ok {
			r := *e.First
			r.Messages = msgs
			c.First = &r
		}
	}
	if n := e.Next; n != nil {
		nc := *n
		if msgs, ok := argsOut(n.Add, "add", raw); ok {
			nc.Add = msgs
		}
		if n.Request != nil {
			if msgs, ok := argsOut(n.Request.Messages, "request", raw); ok {
				r := *n.Request
				r.Messages = msgs
				nc.Request = &r
			}
		}
		c.Next = &nc
	}
	if a := e.Attempt; a != nil && a.Response != nil {
		if calls, ok := callsOut(a.Response.ToolCalls, "response", raw); ok {
			ac := *a
			resp := *a.Response
			resp.ToolCalls = calls
			ac.Response = &resp
			c.Attempt = &ac
		}
	}
	if len(raw) == 0 {
		return e
	}
	c.RawArgs, c.RawSame = raw, sameArgs(raw)
	return &c
}

// sameArgs moves out of raw the arguments it holds under another place
// already (the first in order of place), when naming that place is
// shorter, and returns where each moved one is.
func sameArgs(raw map[string]string) map[string]string {
	var same map[string]string
	first := map[string]string{}
	for _, at := range slices.Sorted(maps.Keys(raw)) {
		args := raw[at]
		from, ok := first[args]
		if !ok {
			first[args] = at
			continue
		}
		if len(from) < len(args) {
			if same == nil {
				same = map[string]string{}
			}
			same[at] = from
			delete(raw, at)
		}
	}
	return same
}

// argsOut returns a copy of msgs without the tool call arguments that are
// not kept as JSON (see keptAsJSON), which it puts in raw under "<where>.<message>.<call>";
// ok is false, and msgs is returned, when there are none.
func argsOut(msgs []provider.Message, where string, raw map[string]string) ([]provider.Message, bool) {
	var out []provider.Message
	for i, m := range msgs {
		calls, ok := callsOut(m.ToolCalls, fmt.Sprintf("%s.%d", where, i), raw)
		if !ok {
			continue
		}
		if out == nil {
			out = slices.Clone(msgs)
		}
		out[i].ToolCalls = calls
	}
	if out == nil {
		return msgs, false
	}
	return out, true
}

// callsOut is argsOut for the calls of one message or reply, under
// "<where>.<call>".
func callsOut(calls []provider.ToolCall, where string, raw map[string]string) ([]provider.ToolCall, bool) {
	var out []provider.ToolCall
	for j, tc := range calls {
		if tc.Arguments == nil || keptAsJSON(tc.Arguments) {
			continue
		}
		if out == nil {
			out = slices.Clone(calls)
		}
		raw[fmt.Sprintf("%s.%d", where, j)] = string(tc.Arguments)
		out[j].Arguments = nil
	}
	return out, out != nil
}

// keptAsJSON reports whether encoding/json writes args back byte for
// byte: valid JSON, compact, with nothing it escapes. Other arguments go
// to RawArgs, so that a request rebuilt from the log is the one sent (a
// replay keys requests by their bytes).
func keptAsJSON(args json.RawMessage) bool {
	if !json.Valid(args) {
		return false
	}
	enc, err := json.Marshal(args)
	return err == nil && bytes.Equal(enc, args)
}

// argsIn puts the arguments of RawArgs and RawSame back in e's tool
// calls. It fails when one names a call e does not have, or RawSame a
// place RawArgs does not hold.
func (e *logEntry) argsIn() error {
	for at, args := range e.RawArgs {
		if err := e.setArgs(at, args); err != nil {
			return err
		}
	}
	for at, from := range e.RawSame {
		args, ok := e.RawArgs[from]
		if !ok {
			return fmt.Errorf("raw arguments at %q from %q, which holds none", at, from)
		}
		if err := e.setArgs(at, args); err != nil {
			return err
		}
	}
	return nil
}

// setArgs sets the arguments of the tool call at place at (see argsOut).
func (e *logEntry) setArgs(at, args string) error {
	parts := strings.Split(at, ".")
	var calls []provider.ToolCall
	var idx []int
	for _, p := range parts[1:] {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return fmt.Errorf("raw arguments at %q", at)
		}
		idx = append(idx, n)
	}
	var msgs []provider.Message
	switch {
	case parts[0] == "first" && e.First != nil:
		msgs = e.First.Messages
	case parts[0] == "add" && e.Next != nil:
		msgs = e.Next.Add
	case parts[0] == "request" && e.Next != nil && e.Next.Request != nil:
		msgs = e.Next.Request.Messages
	case parts[0] == "response" && e.Attempt != nil && e.Attempt.Response != nil && len(idx) == 1:
		calls = e.Attempt.Response.ToolCalls
	default:
		return fmt.Errorf("raw arguments at %q", at)
	}
	if msgs != nil || parts[0] != "response" {
		if len(idx) != 2 || idx[0] >= len(msgs) {
			return fmt.Errorf("raw arguments at %q", at)
		}
		calls = msgs[idx[0]].ToolCalls
		idx = idx[1:]
	}
	if idx[0] >= len(calls) {
		return fmt.Errorf("raw arguments at %q", at)
	}
	calls[idx[0]].Arguments = json.RawMessage(args)
	return nil
}

// attemptEntry returns the log entry of a, the attempt at place n (from
// 1) of the log of a run started in mode, whose check read text: the
// attempt as the log keeps it, and text when its reply does not give it.
func attemptEntry(a enforce.Attempt, n int, mode enforce.Mode, text string) *logEntry {
	s := &storedAttempt{Attempt: a, Error: storeError(a.Err), Call: callOf(a.Response, text)}
	s.Request = nil
	if a.Number != n {
		s.Number = a.Number
	}
	if a.Mode != mode {
		s.Mode = a.Mode
	}
	if a.Response == nil || a.Usage != a.Response.Usage {
		u := a.Usage
		s.Usage = &u
	}
	out := outputOf(a.Response, s.Call)
	switch {
	case a.JSON == nil:
		s.NoJSON = a.Response != nil
	case a.Response != nil && string(a.JSON) == out:
	default:
		j := string(a.JSON)
		s.JSON = &j
	}
	e := &logEntry{Attempt: s}
	if text != out {
		e.Text = &text
	}
	return e
}

// callOf returns the number (from 1) of the first tool call of r whose
// arguments are text, when r's text is not; 0 when none is.
func callOf(r *provider.Response, text string) int {
	if r == nil || r.Text == text {
		return 0
	}
	for i, c := range r.ToolCalls {
		if string(c.Arguments) == text {
			return i + 1
		}
	}
	return 0
}

// outputOf returns the output an attempt's reply r gives: the arguments
// of its tool call number call (from 1), or, for 0, its text.
func outputOf(r *provider.Response, call int) string {
	switch {
	case r == nil:
		return ""
	case call > 0:
		return string(r.ToolCalls[call-1].Arguments)
	}
	return r.Text
}

// An item is an item read back from its record and log.
type item struct {
	data     *itemData
	first    *provider.Request
	next     *provider.Request // the current attempt's request
	attempts []enforce.Attempt
	texts    []string     // the output each attempt's check read
	mode     enforce.Mode // the mode the run started in
	// legacy marks an item read from a record without a log, as the
	// runner wrote them before items had one: a pending one is written
	// again with its log (see item.migrate).
	legacy bool
}

// text returns the output of the last attempt checked; "" when none was.
func (it *item) text() string {
	if len(it.texts) == 0 {
		return ""
	}
	return it.texts[len(it.texts)-1]
}

// readItem reads a record and its log back. It fails with a
// *CorruptRecordError's cause: data or an entry that does not decode, or
// a state that cannot be: a pending item without its first request, a
// settled one without an outcome, a log that does not match the state.
func readItem(rec Record) (*item, error) {
	if len(rec.Log) == 0 && isLegacy(rec.Data) {
		return readLegacy(rec)
	}
	var d itemData
	if err := json.Unmarshal(rec.Data, &d); err != nil {
		return nil, err
	}
	if d.Resubmits < 0 || d.State.Attempts < 0 {
		return nil, errors.New("a negative count")
	}
	it := &item{data: &d}
	for i, raw := range rec.Log {
		var e logEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("log entry %d: %w", i, err)
		}
		if err := e.argsIn(); err != nil {
			return nil, fmt.Errorf("log entry %d: %w", i, err)
		}
		if e.First != nil {
			if i != 0 {
				return nil, fmt.Errorf("log entry %d: a first request after the first entry", i)
			}
			it.first, it.next, it.mode = e.First, e.First, e.Mode
		}
		if e.Attempt != nil {
			if it.next == nil {
				return nil, fmt.Errorf("log entry %d: an attempt without a request", i)
			}
			a := e.Attempt.Attempt
			if c := e.Attempt.Call; c < 0 || c > 0 && (a.Response == nil || c > len(a.Response.ToolCalls)) {
				return nil, fmt.Errorf("log entry %d: output in tool call %d of a reply without it", i, c)
			}
			out := outputOf(a.Response, e.Attempt.Call)
			a.Request = it.next
			a.Number, a.Mode = len(it.attempts)+1, it.mode
			if e.Attempt.Number != 0 {
				a.Number = e.Attempt.Number
			}
			if e.Attempt.Mode != "" {
				a.Mode = e.Attempt.Mode
			}
			switch {
			case e.Attempt.Usage != nil:
				a.Usage = *e.Attempt.Usage
			case a.Response != nil:
				a.Usage = a.Response.Usage
			}
			switch {
			case e.Attempt.JSON != nil:
				a.JSON = json.RawMessage(*e.Attempt.JSON)
			case a.Response != nil && !e.Attempt.NoJSON:
				a.JSON = json.RawMessage(out)
			}
			if e.Attempt.Error != nil {
				a.Err = e.Attempt.Error.restore(nil)
			}
			it.attempts = append(it.attempts, a)
			text := out
			if e.Text != nil {
				text = *e.Text
			}
			it.texts = append(it.texts, text)
		}
		if e.Next != nil {
			if it.next == nil {
				return nil, fmt.Errorf("log entry %d: a next request without a first", i)
			}
			next, err := e.Next.apply(it.next)
			if err != nil {
				return nil, fmt.Errorf("log entry %d: %w", i, err)
			}
			it.next = next
		}
	}
	if len(it.attempts) != d.State.Attempts {
		return nil, fmt.Errorf("the log holds %d attempts, the state %d", len(it.attempts), d.State.Attempts)
	}
	switch rec.Status {
	case StatusPending:
		if it.first == nil {
			return nil, errors.New("a pending item without its request")
		}
		if d.Outcome != nil {
			return nil, errors.New("a pending item with an outcome")
		}
	case StatusSettled, StatusDelivered:
		o := d.Outcome
		if o == nil {
			return nil, errors.New("a settled item without its outcome")
		}
		if o.JSON != nil && !json.Valid([]byte(*o.JSON)) {
			return nil, errors.New("a settled item whose output is not JSON")
		}
		if o.Valid && o.JSON == nil && (len(it.attempts) == 0 || it.attempts[len(it.attempts)-1].JSON == nil) {
			return nil, errors.New("a valid outcome without its output")
		}
	default:
		return nil, fmt.Errorf("unknown status %q", rec.Status)
	}
	return it, nil
}

// settled returns the item's outcome as a Settled.
func (it *item) settled(id string) (Settled, error) {
	o := it.data.Outcome
	s := Settled{ID: id, Err: o.Error.restore(it.attempts)}
	if !o.Started && len(it.attempts) == 0 {
		return s, nil
	}
	st := it.data.State
	res := &enforce.Result{Text: it.text(), Attempts: it.attempts, Usage: st.Usage, Mode: st.Mode}
	if o.Text != nil {
		res.Text = *o.Text
	}
	if o.Valid {
		last := it.attempts[len(it.attempts)-1]
		res.JSON, res.Coercions = last.JSON, last.Coercions
		if o.JSON != nil {
			res.JSON = json.RawMessage(*o.JSON)
		}
		if err := json.Unmarshal(res.JSON, &res.Value); err != nil {
			return Settled{}, err
		}
	}
	s.Result = res
	return s, nil
}
