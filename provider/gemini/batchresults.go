package gemini

import (
	"context"
	"fmt"
	"iter"

	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
)

// BatchResults returns the results of a done batch: its inlined
// responses, in the API's order (that of the requests), each with the ID
// its request carried in its metadata. A response is mapped as Generate
// maps it; a request that failed carries a [*provider.Error] classified
// as Generate's would be (by the google.rpc status, the HTTP status it
// comes with, and the message). A request error with status CANCELLED
// matches [provider.ErrCanceled], and one with DEADLINE_EXCEEDED in an
// expired batch [provider.ErrExpired]; requests the API did not run
// before the batch ended may also be absent. A failed batch has no
// results. A batch not done yields an error matching
// [provider.ErrBatchNotDone]; a failed download, a batch whose results
// are in a file rather than inlined, or a response without its ID ends the
// sequence with an error beside an empty BatchResult.ID. The inlined
// responses come with the batch, in one response, so each iteration
// retrieves the batch again.
func (p *Provider) BatchResults(ctx context.Context, id string) iter.Seq2[provider.BatchResult, error] {
	return func(yield func(provider.BatchResult, error) bool) {
		job, op, err := p.getBatch(ctx, id)
		if err != nil {
			yield(provider.BatchResult{}, err)
			return
		}
		b := batchOf(job, op)
		switch {
		case !b.Status.Done():
			yield(provider.BatchResult{}, fmt.Errorf("%w: batch %s is %s", provider.ErrBatchNotDone, id, job.State))
			return
		case b.Status == provider.BatchFailed || job.Dest == nil:
			return
		case len(job.Dest.InlinedResponses) == 0 && job.Dest.FileName != "":
			yield(provider.BatchResult{}, &provider.Error{Kind: provider.ErrOther, Provider: Name,
				Message: fmt.Sprintf("the results of batch %s are in file %s, which this adapter does not read", id, job.Dest.FileName)})
			return
		}
		for _, in := range job.Dest.InlinedResponses {
			r, err := resultOf(job.State, in)
			if err != nil {
				yield(provider.BatchResult{}, err)
				return
			}
			if !yield(r, nil) {
				return
			}
		}
	}
}

// resultOf maps one inlined response of a batch in the given state. A
// response without the ID of its request is an error; anything else is a
// result, its Err set when the request has no reply.
func resultOf(state genai.JobState, in *genai.InlinedResponse) (provider.BatchResult, error) {
	if in == nil || in.Metadata[requestKey] == "" {
		return provider.BatchResult{}, &provider.Error{Kind: provider.ErrOther, Provider: Name,
			Message: "a batch response has no " + requestKey + " in its metadata"}
	}
	r := provider.BatchResult{ID: in.Metadata[requestKey]}
	switch {
	case in.Error != nil:
		r.Err = itemError(state, in.Error)
	case in.Response != nil:
		r.Response = response(in.Response)
	default:
		r.Err = &provider.Error{Kind: provider.ErrOther, Provider: Name, Message: "the batch response has neither a response nor an error"}
	}
	return r, nil
}

// rpcCancelled and rpcDeadlineExceeded are the google.rpc codes of a
// request the API did not run because its batch was cancelled or expired.
const (
	rpcCancelled        = 1
	rpcDeadlineExceeded = 4
)

// itemError classifies a request's error in a batch in the given state.
func itemError(state genai.JobState, e *genai.JobError) *provider.Error {
	code := 0
	if e.Code != nil {
		code = int(*e.Code)
	}
	msg := cut(e.Message, maxErrorText)
	out := &provider.Error{Provider: Name, Message: msg}
	out.Kind, out.StatusCode, out.Code = rpcKind(code, e.Message)
	switch {
	case code == rpcCancelled:
		out.Kind = provider.ErrCanceled
	case code == rpcDeadlineExceeded && state == genai.JobStateExpired:
		out.Kind = provider.ErrExpired
	}
	return out
}
