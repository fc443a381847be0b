package anthropic

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/agentio/agentio/provider"
)

// maxResultLine bounds one line of a batch's results: one reply, which
// max_tokens keeps far below it.
const maxResultLine = 32 << 20

// BatchResults returns the results of a batch that has ended, read line
// by line as the JSONL results are downloaded (GET
// /v1/messages/batches/{id}/results, where results_url points). A
// succeeded request's message is mapped as Generate maps it; an errored
// one carries a [*provider.Error] classified as Generate's would be (by the
// API's error type, the status that type comes with, and the message); a
// cancelled or expired one an error matching [provider.ErrCanceled] or
// [provider.ErrExpired]. A batch not ended yields an error matching
// [provider.ErrBatchNotDone], and a failed download or a line that names
// no request ends the sequence with an error beside an empty
// BatchResult.ID. Each iteration downloads again; leaving the loop closes
// the download.
func (p *Provider) BatchResults(ctx context.Context, id string) iter.Seq2[provider.BatchResult, error] {
	return func(yield func(provider.BatchResult, error) bool) {
		b, err := p.getBatch(ctx, id)
		if err != nil {
			yield(provider.BatchResult{}, err)
			return
		}
		if b.ProcessingStatus != sdk.MessageBatchProcessingStatusEnded {
			yield(provider.BatchResult{}, fmt.Errorf("%w: batch %s is %s", provider.ErrBatchNotDone, id, b.ProcessingStatus))
			return
		}
		var res *http.Response
		opts := append(append([]option.RequestOption(nil), p.opts...), option.WithHeader("Accept", "application/x-jsonl"))
		if err := p.client.Get(ctx, "v1/messages/batches/"+url.PathEscape(id)+"/results", nil, &res, opts...); err != nil {
			yield(provider.BatchResult{}, classify(err))
			return
		}
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, maxResultLine)
		for sc.Scan() {
			if len(sc.Bytes()) == 0 {
				continue
			}
			r, err := resultOf(sc.Bytes())
			if err != nil {
				yield(provider.BatchResult{}, err)
				return
			}
			if !yield(r, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(provider.BatchResult{}, &provider.Error{Kind: provider.ErrOther, Provider: Name,
				Message: fmt.Sprintf("downloading the results of batch %s: %v", id, err), Err: err})
		}
	}
}

// resultLine is one line of a batch's results.
type resultLine struct {
	CustomID string `json:"custom_id"`
	Result   struct {
		Type    string          `json:"type"`
		Message json.RawMessage `json:"message"`
		Error   json.RawMessage `json:"error"`
	} `json:"result"`
}

// resultOf maps one line of a batch's results. A line that is not JSON or
// names no request is an error; anything else is a result, its Err set
// when the request has no reply.
func resultOf(line []byte) (provider.BatchResult, error) {
	var l resultLine
	if err := json.Unmarshal(line, &l); err != nil {
		return provider.BatchResult{}, &provider.Error{Kind: provider.ErrOther, Provider: Name,
			Message: fmt.Sprintf("a batch result line is not JSON: %v", err), Err: err}
	}
	if l.CustomID == "" {
		return provider.BatchResult{}, &provider.Error{Kind: provider.ErrOther, Provider: Name,
			Message: "a batch result line has no custom_id: " + cut(string(line), maxErrorText)}
	}
	r := provider.BatchResult{ID: l.CustomID}
	switch l.Result.Type {
	case "succeeded":
		var msg sdk.Message
		if err := msg.UnmarshalJSON(l.Result.Message); err != nil {
			r.Err = &provider.Error{Kind: provider.ErrOther, Provider: Name,
				Message: fmt.Sprintf("the message cannot be decoded: %v", err), Err: err}
			break
		}
		r.Response = response(&msg)
	case "errored":
		r.Err = itemError(l.Result.Error)
	case "canceled":
		r.Err = &provider.Error{Kind: provider.ErrCanceled, Provider: Name, Code: l.Result.Type,
			Message: "the request was not run: the batch was cancelled"}
	case "expired":
		r.Err = &provider.Error{Kind: provider.ErrExpired, Provider: Name, Code: l.Result.Type,
			Message: "the request was not run: the batch expired"}
	default:
		r.Err = &provider.Error{Kind: provider.ErrOther, Provider: Name, Code: l.Result.Type,
			Message: fmt.Sprintf("unknown result type %q", l.Result.Type)}
	}
	return r, nil
}

// itemError classifies an errored request's error, the API's error body
// {"type":"error","error":{"type":...,"message":...},"request_id":...}, as
// classify does a failure of Generate: the status is the one the API
// answers the error type with.
func itemError(body json.RawMessage) *provider.Error {
	msg, errType := bodyMessage(string(body))
	var v struct {
		RequestID string `json:"request_id"`
	}
	_ = json.Unmarshal(body, &v) // an error without a request id leaves it empty
	status := typeStatus(errType)
	return &provider.Error{
		Kind:       kindOf(status, errType, msg),
		Provider:   Name,
		StatusCode: status,
		Code:       errType,
		Message:    msg,
		RequestID:  v.RequestID,
	}
}
