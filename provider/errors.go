package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrorKind classifies a provider API failure so that callers can decide
// what to do about it without parsing messages.
type ErrorKind string

// The error kinds. Each is an error, a constant, and the sentinel that
// errors.Is matches against an [*Error] of that kind, so no code can change
// what it matches:
//
//	if errors.Is(err, provider.ErrRateLimited) { ... }
//	if provider.KindOf(err) == provider.ErrOverloaded { ... }
const (
	// ErrOther is any failure not classified below.
	ErrOther ErrorKind = "other"
	// ErrSchemaRejected: the provider refused the output schema or a
	// tool's input schema (typically an HTTP 400 naming the schema). The
	// enforcement loop may fall back to prompt mode.
	ErrSchemaRejected ErrorKind = "schema_rejected"
	// ErrRateLimited: too many requests or tokens (HTTP 429).
	ErrRateLimited ErrorKind = "rate_limited"
	// ErrAuth: missing or invalid credentials, or no permission (HTTP 401, 403).
	ErrAuth ErrorKind = "auth"
	// ErrOverloaded: the provider is overloaded or unavailable (HTTP 500,
	// 502, 503, 529); trying later may succeed.
	ErrOverloaded ErrorKind = "overloaded"
	// ErrInvalidRequest: the provider rejected the request for another
	// reason (HTTP 400, 404, 422).
	ErrInvalidRequest ErrorKind = "invalid_request"
)

// Error returns "provider: <kind>". An ErrorKind is an error so that it
// can be matched: errors.Is(err, k) reports whether err's chain holds an
// [*Error] of kind k.
func (k ErrorKind) Error() string { return "provider: " + string(k) }

// An Error is a failure reported by a model API, classified by Kind.
// Adapters return it (possibly wrapped) from Generate. It encodes to JSON
// (see [Error.MarshalJSON]) so that a recording or a stored job can keep
// it.
type Error struct {
	// Kind classifies the failure.
	Kind ErrorKind
	// Provider names the adapter ("openai").
	Provider string
	// StatusCode is the HTTP status, or 0 when there was none.
	StatusCode int
	// Code is the provider's own error code or type, when it sends one.
	Code string
	// Message is the provider's own error message.
	Message string
	// RequestID is the provider's request identifier, when known.
	RequestID string
	// RetryAfter is how long the provider asked the caller to wait before
	// trying again (its Retry-After, retry-after-ms or rate-limit reset
	// headers, read by [RetryAfterFrom]); 0 when it asked for no wait. A
	// retrying caller ([WithRetry]) never waits less.
	RetryAfter time.Duration
	// Err is the underlying error (the SDK's), if any.
	Err error
}

// wireError is an Error's JSON form.
type wireError struct {
	Kind       ErrorKind `json:"kind"`
	Provider   string    `json:"provider,omitempty"`
	StatusCode int       `json:"status_code,omitempty"`
	Code       string    `json:"code,omitempty"`
	Message    string    `json:"message,omitempty"`
	RequestID  string    `json:"request_id,omitempty"`
	// RetryAfterMS is RetryAfter in whole milliseconds, rounded up so that
	// a decoded wait is never shorter than the one encoded.
	RetryAfterMS int64  `json:"retry_after_ms,omitempty"`
	Cause        string `json:"cause,omitempty"` // Err's text
}

// MarshalJSON encodes e as {"kind", "provider", "status_code", "code",
// "message", "request_id", "retry_after_ms", "cause"}, empty members left
// out; "retry_after_ms" is RetryAfter in milliseconds, rounded up, and
// "cause" is the text of Err.
func (e *Error) MarshalJSON() ([]byte, error) {
	w := wireError{Kind: e.Kind, Provider: e.Provider, StatusCode: e.StatusCode, Code: e.Code, Message: e.Message, RequestID: e.RequestID}
	if e.RetryAfter > 0 {
		w.RetryAfterMS = int64(e.RetryAfter / time.Millisecond)
		if e.RetryAfter%time.Millisecond != 0 {
			w.RetryAfterMS++
		}
	}
	if e.Err != nil {
		w.Cause = e.Err.Error()
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes what MarshalJSON encodes; without
// "retry_after_ms", RetryAfter is 0. Err, when a cause was encoded, is an
// error with its text alone: the SDK's error itself is gone.
func (e *Error) UnmarshalJSON(data []byte) error {
	var w wireError
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = Error{Kind: w.Kind, Provider: w.Provider, StatusCode: w.StatusCode, Code: w.Code, Message: w.Message, RequestID: w.RequestID}
	switch {
	case w.RetryAfterMS > math.MaxInt64/int64(time.Millisecond):
		e.RetryAfter = math.MaxInt64 // past a Duration's range: the longest wait
	case w.RetryAfterMS > 0:
		e.RetryAfter = time.Duration(w.RetryAfterMS) * time.Millisecond
	}
	if w.Cause != "" {
		e.Err = errors.New(w.Cause)
	}
	return nil
}

// Error returns "<provider>: <kind> (HTTP <status>): <message>".
func (e *Error) Error() string {
	name := e.Provider
	if name == "" {
		name = "provider"
	}
	s := name + ": " + string(e.Kind)
	if e.StatusCode != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.StatusCode)
	}
	switch {
	case e.Message != "":
		s += ": " + e.Message
	case e.Err != nil:
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's kind: the sentinels [ErrRateLimited]
// and the others are the kinds, so errors.Is matches by kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(ErrorKind)
	return ok && k == e.Kind
}

// KindOf returns the ErrorKind of the first [*Error] in err's chain, or
// ErrOther when there is none.
func KindOf(err error) ErrorKind {
	var pe *Error
	if errors.As(err, &pe) && pe.Kind != "" {
		return pe.Kind
	}
	return ErrOther
}

// KindForStatus maps an HTTP status code to an ErrorKind, for adapters.
// A 400 is ErrInvalidRequest; an adapter that recognises a schema
// complaint in the message reports ErrSchemaRejected instead.
func KindForStatus(status int) ErrorKind {
	switch {
	case status == 401 || status == 403:
		return ErrAuth
	case status == 429:
		return ErrRateLimited
	case status == 400 || status == 404 || status == 409 || status == 413 || status == 422:
		return ErrInvalidRequest
	case status >= 500:
		return ErrOverloaded
	default:
		return ErrOther
	}
}
