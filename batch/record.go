package batch

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// itemData is what Record.Data holds, encoded as JSON.
type itemData struct {
	// State is the enforcement state after the attempts so far.
	State enforce.State `json:"state"`
	// Resubmits counts the times the current attempt was submitted again
	// without a reply (expired, cancelled, failed batch, retryable error).
	Resubmits int `json:"resubmits,omitempty"`
	// First is the run's first request; Next the request of the current
	// attempt, omitted when it is First. Both are nil once settled.
	First *provider.Request `json:"first,omitempty"`
	Next  *provider.Request `json:"next,omitempty"`
	// Text is the output of the last checked attempt.
	Text string `json:"text,omitempty"`
	// Attempts are the attempts made so far.
	Attempts []storedAttempt `json:"attempts,omitempty"`
	// Outcome is set once the item is settled.
	Outcome *storedOutcome `json:"outcome,omitempty"`
}

// storedAttempt is an enforce.Attempt with its error, which the Attempt's
// own encoding leaves out.
type storedAttempt struct {
	enforce.Attempt
	Error *storedError `json:"error,omitempty"`
}

// storedOutcome is the outcome of a settled item.
type storedOutcome struct {
	// JSON is the valid output, when there is one: a string, since
	// encoding/json compacts a RawMessage and the caller gets the model's
	// own bytes.
	JSON *string `json:"json,omitempty"`
	// Text, Usage, Mode and Coercions are the Result's.
	Text      string            `json:"text,omitempty"`
	Usage     provider.Usage    `json:"usage"`
	Mode      enforce.Mode      `json:"mode,omitempty"`
	Coercions []schema.Coercion `json:"coercions,omitempty"`
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

// decodeData decodes Record.Data. It fails with a *CorruptRecordError's
// cause: a decoding error, or a state that cannot be: a pending item
// without a request, a settled one without an outcome.
func decodeData(data []byte, status Status) (*itemData, error) {
	var d itemData
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	switch status {
	case StatusPending:
		if d.First == nil {
			return nil, errors.New("a pending item without its request")
		}
		if d.Next == nil {
			d.Next = d.First
		}
	case StatusSettled, StatusDelivered:
		if d.Outcome == nil {
			return nil, errors.New("a settled item without its outcome")
		}
		if d.Outcome.JSON != nil && !json.Valid([]byte(*d.Outcome.JSON)) {
			return nil, errors.New("a settled item whose output is not JSON")
		}
	default:
		return nil, fmt.Errorf("unknown status %q", status)
	}
	if d.Resubmits < 0 || d.State.Attempts < 0 {
		return nil, errors.New("a negative count")
	}
	return &d, nil
}

// attempts returns the stored attempts as enforce.Attempts.
func (d *itemData) attempts() []enforce.Attempt {
	out := make([]enforce.Attempt, len(d.Attempts))
	for i, a := range d.Attempts {
		out[i] = a.Attempt
		if a.Error != nil {
			out[i].Err = a.Error.restore(nil)
		}
	}
	return out
}

// storeAttempts returns attempts as the store keeps them.
func storeAttempts(attempts []enforce.Attempt) []storedAttempt {
	out := make([]storedAttempt, len(attempts))
	for i, a := range attempts {
		out[i] = storedAttempt{Attempt: a, Error: storeError(a.Err)}
	}
	return out
}

// settled returns the item's outcome as a Settled.
func (d *itemData) settled(id string) (Settled, error) {
	o := d.Outcome
	attempts := d.attempts()
	s := Settled{ID: id, Err: o.Error.restore(attempts)}
	if o.Started || len(attempts) > 0 {
		s.Result = &enforce.Result{Text: o.Text, Attempts: attempts, Usage: o.Usage, Mode: o.Mode, Coercions: o.Coercions}
		if o.JSON != nil {
			s.Result.JSON = json.RawMessage(*o.JSON)
			if err := json.Unmarshal(s.Result.JSON, &s.Result.Value); err != nil {
				return Settled{}, err
			}
		}
	}
	return s, nil
}
