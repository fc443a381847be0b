package batch

import (
	"errors"
	"fmt"
)

// ErrInvalidOption is returned, wrapped with the offending value, by [New]
// for a bad option value.
var ErrInvalidOption = errors.New("batch: invalid option")

// ErrInvalidItem is returned, wrapped with the item's ID and what is wrong,
// by [Runner.Run] before anything is submitted: an ID that is empty, too
// long, repeated or not made of [A-Za-z0-9_-], or an item without an
// Enforcer when the Runner has none.
var ErrInvalidItem = errors.New("batch: invalid item")

// ErrUnknownItem is returned, wrapped with the item's ID, by [Runner.Run]
// when the store holds a pending item that is not among the items given:
// a resumed run needs every pending item's Enforcer. Nothing is submitted.
var ErrUnknownItem = errors.New("batch: a pending item of the store was not given")

// ErrBatchFailed matches the Settled.Err of an item whose batch failed
// as a whole (provider.BatchFailed) more times than [WithMaxResubmits]
// allows; the batch's own error comes wrapped beside it.
var ErrBatchFailed = errors.New("batch: the item's batch failed")

// ErrResubmits matches the Settled.Err of an item submitted again more
// times than [WithMaxResubmits] allows because it got no reply: its batch
// expired or was cancelled before it ran, or the provider left it out of
// the results. The last per-request error, if any, comes wrapped beside
// it. (Retryable per-request errors, rate limits and overload, end the
// item with the provider's error itself.)
var ErrResubmits = errors.New("batch: submitted too many times without a reply")

// A CorruptRecordError reports a record of the store that cannot be read
// back: its Data does not decode, or describes a state that cannot be.
// [Runner.Run] and [Runner.Results] return it and stop.
type CorruptRecordError struct {
	// ID is the record's item ID.
	ID string
	// Err says what is wrong with it.
	Err error
}

// Error returns "batch: corrupt record <id>: <cause>".
func (e *CorruptRecordError) Error() string {
	return fmt.Sprintf("batch: corrupt record %q: %v", e.ID, e.Err)
}

// Unwrap returns the cause.
func (e *CorruptRecordError) Unwrap() error { return e.Err }
