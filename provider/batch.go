package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"
)

// A Batcher is a [Provider] that can also take many requests at once
// through the provider's batch API (OpenAI's Batch API, Anthropic's Message
// Batches, Gemini's batch mode): the requests are submitted together, run
// asynchronously within the provider's window (typically 24 hours) at a
// lower price, and their replies are downloaded when the batch has ended.
// Package batch runs the enforcement loop over a Batcher.
//
// All methods may be called concurrently and from several processes: a
// batch is known by its ID alone, so a process that restarts can poll a
// batch an earlier process submitted and download its results again.
type Batcher interface {
	Provider

	// SubmitBatch submits reqs as one batch and returns the batch as the
	// provider first reports it (normally BatchInProgress). Every request
	// must have an ID, unique within reqs, that the results will carry.
	// key, when not empty, labels the batch where the provider keeps a
	// label (OpenAI's metadata, Gemini's display name), so that a
	// [BatchFinder] can find the batch again when the process that
	// submitted it died before it learnt the batch's ID.
	// It fails with an error matching [ErrInvalidRequest] when reqs is
	// empty, an ID is empty or repeated, or reqs exceed [BatchLimits], and
	// with a classified [*Error] when the provider refuses the batch.
	// SubmitBatch must not retain or modify reqs.
	SubmitBatch(ctx context.Context, key string, reqs []BatchRequest) (*Batch, error)

	// Batch returns the batch's current state. An unknown id is an error
	// matching [ErrInvalidRequest].
	Batch(ctx context.Context, id string) (*Batch, error)

	// BatchResults returns the results of a batch whose status is
	// [BatchStatus.Done], one per request the provider returned, in the
	// provider's order (not necessarily the order submitted). Requests the
	// provider did not run before the batch expired or was cancelled are
	// either absent or returned with an error matching [ErrExpired] or
	// [ErrCanceled]. A pair with a non-nil error and an empty
	// BatchResult.ID ends the sequence: the download failed, and the
	// results already yielded are still good. The sequence may be
	// iterated several times; each iteration downloads again. A batch
	// that is not done yet is an error matching [ErrBatchNotDone].
	BatchResults(ctx context.Context, id string) iter.Seq2[BatchResult, error]

	// CancelBatch asks the provider to cancel the batch. Cancellation is
	// asynchronous: poll [Batcher.Batch] until it is done; requests that
	// already ran keep their results. Cancelling a batch that is done is
	// not an error.
	CancelBatch(ctx context.Context, id string) error

	// BatchLimits returns the provider's limits on one batch.
	BatchLimits() BatchLimits

	// BatchRequestSize returns the number of bytes r adds to a batch
	// submission, as counted against BatchLimits.MaxBytes. It fails like
	// SubmitBatch for a request the provider cannot encode.
	BatchRequestSize(r BatchRequest) (int, error)
}

// A BatchFinder is a [Batcher] that can find a batch by the key it was
// submitted with. Package batch uses it after a crash between submitting a
// batch and recording its ID, so that the batch is not submitted twice;
// without it, such a batch is submitted again (its results are then
// settled once, by request ID).
type BatchFinder interface {
	Batcher
	// FindBatch returns the most recent batch submitted with key, or nil
	// and no error when there is none. key is never empty.
	FindBatch(ctx context.Context, key string) (*Batch, error)
}

// A BatchRequest is one request of a batch.
type BatchRequest struct {
	// ID identifies the request within its batch (OpenAI's and Anthropic's
	// custom_id, Gemini's request key). Adapters may restrict its
	// characters and length; package batch uses [A-Za-z0-9_-], at most 64.
	ID string `json:"id"`
	// Request is what the model is asked.
	Request *Request `json:"request"`
}

// BatchStatus is where a batch stands.
type BatchStatus string

// The batch statuses. The provider's own word is in Batch.RawStatus.
const (
	// BatchInProgress: submitted and not done yet (validating, queued,
	// running, finalising, or cancelling).
	BatchInProgress BatchStatus = "in_progress"
	// BatchEnded: every request ran; each has a result, a reply or a
	// per-request error.
	BatchEnded BatchStatus = "ended"
	// BatchExpired: the provider's window passed before every request
	// ran; the results of those that ran can be downloaded.
	BatchExpired BatchStatus = "expired"
	// BatchCanceled: cancelled; the results of the requests that ran
	// before can be downloaded.
	BatchCanceled BatchStatus = "canceled"
	// BatchFailed: the batch as a whole failed (it did not pass the
	// provider's validation, say); no request ran and there are no
	// results. Batch.Err says why.
	BatchFailed BatchStatus = "failed"
)

// Done reports whether s is final: the batch will not change any more.
func (s BatchStatus) Done() bool { return s != BatchInProgress && s != "" }

// A Batch is a submitted batch as the provider reports it.
type Batch struct {
	// ID is the provider's identifier of the batch.
	ID string `json:"id"`
	// Status is where the batch stands.
	Status BatchStatus `json:"status"`
	// RawStatus is the provider's own status word ("finalizing",
	// "JOB_STATE_RUNNING").
	RawStatus string `json:"raw_status,omitempty"`
	// Counts are the provider's request counts, where it reports them.
	Counts BatchCounts `json:"counts"`
	// CreatedAt is when the batch was created; ExpiresAt when the
	// provider gives up on it. Either is zero when unknown.
	CreatedAt time.Time `json:"created_at,omitzero"`
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// Err says why a batch whose Status is BatchFailed failed; nil
	// otherwise.
	Err error `json:"-"`
}

// BatchCounts count a batch's requests by where they stand.
type BatchCounts struct {
	// Total is the number of requests submitted.
	Total int `json:"total"`
	// Processing counts the requests not yet run.
	Processing int `json:"processing"`
	// Succeeded counts the requests that have a reply; Failed those that
	// ended in an error (including expired and cancelled requests, when
	// the provider counts them).
	Succeeded int `json:"succeeded"`
	Failed    int `json:"failed"`
}

// A BatchResult is the outcome of one request of a batch.
type BatchResult struct {
	// ID is the request's BatchRequest.ID.
	ID string `json:"id"`
	// Response is the reply; nil when Err is set.
	Response *Response `json:"response,omitempty"`
	// Err is why the request has no reply: a classified [*Error] (the
	// provider's per-request error, matching [ErrRateLimited],
	// [ErrInvalidRequest], ... as Generate's would), or an error matching
	// [ErrExpired] or [ErrCanceled] for a request that never ran.
	Err error `json:"-"`
}

// BatchLimits are a provider's limits on one batch. A zero field is no
// limit.
type BatchLimits struct {
	// MaxRequests is the most requests one batch may hold.
	MaxRequests int `json:"max_requests,omitempty"`
	// MaxBytes is the most bytes one batch's submission may take, each
	// request counted by [Batcher.BatchRequestSize].
	MaxBytes int `json:"max_bytes,omitempty"`
}

// Error kinds of batch requests and batches, each also the sentinel that
// errors.Is matches against an [*Error] of that kind.
const (
	// ErrExpired: the request never ran because its batch expired.
	ErrExpired ErrorKind = "expired"
	// ErrCanceled: the request never ran because its batch was
	// cancelled.
	ErrCanceled ErrorKind = "canceled"
)

// CheckBatch checks what every [Batcher.SubmitBatch] must refuse before
// any call: no request, more than limits.MaxRequests, an empty or repeated
// ID. It returns nil, or an [*Error] of kind [ErrInvalidRequest] for the
// adapter to name itself in (its Provider field) and return. The sizes
// against limits.MaxBytes, and what IDs a provider accepts, are the
// adapter's to check as it encodes the requests.
func CheckBatch(reqs []BatchRequest, limits BatchLimits) *Error {
	switch {
	case len(reqs) == 0:
		return &Error{Kind: ErrInvalidRequest, Message: "a batch needs at least one request"}
	case limits.MaxRequests > 0 && len(reqs) > limits.MaxRequests:
		return &Error{Kind: ErrInvalidRequest, Message: fmt.Sprintf("%d requests; a batch holds at most %d", len(reqs), limits.MaxRequests)}
	}
	seen := make(map[string]bool, len(reqs))
	for _, r := range reqs {
		switch {
		case r.ID == "":
			return &Error{Kind: ErrInvalidRequest, Message: "a batch request has no ID"}
		case seen[r.ID]:
			return &Error{Kind: ErrInvalidRequest, Message: fmt.Sprintf("batch request ID %q is repeated", r.ID)}
		}
		seen[r.ID] = true
	}
	return nil
}

// ErrBatchNotDone is returned by [Batcher.BatchResults] for a batch still
// in progress.
var ErrBatchNotDone = errors.New("provider: batch not done")
