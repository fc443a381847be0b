package openai

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/agentio/agentio/provider"
)

// maxResultLine bounds one line of a batch's output or error file: one
// reply, which the token limits keep far below it.
const maxResultLine = 32 << 20

// The codes of the per-request errors of requests that never ran.
const (
	codeBatchExpired   = "batch_expired"
	codeBatchCancelled = "batch_cancelled"
)

// BatchResults returns the results of a done batch: the lines of its
// output file, then those of its error file, each read as it is
// downloaded. A reply (status 200) is mapped as Generate maps it; a
// request that failed carries a [*provider.Error] classified as Generate's
// would be (status, code, message, request id); one that never ran because
// the batch expired or was cancelled (codes batch_expired and
// batch_cancelled) an error matching [provider.ErrExpired] or
// [provider.ErrCanceled]. A failed batch has no results. A batch not done
// yields an error matching [provider.ErrBatchNotDone], and a failed
// download or a line that names no request ends the sequence with an
// error beside an empty BatchResult.ID. Each iteration downloads again;
// leaving the loop closes the download.
func (p *Provider) BatchResults(ctx context.Context, id string) iter.Seq2[provider.BatchResult, error] {
	return func(yield func(provider.BatchResult, error) bool) {
		b, err := p.getBatch(ctx, id)
		if err != nil {
			yield(provider.BatchResult{}, err)
			return
		}
		if st := batchOf(b); !st.Status.Done() {
			yield(provider.BatchResult{}, fmt.Errorf("%w: batch %s is %s", provider.ErrBatchNotDone, id, b.Status))
			return
		}
		for _, file := range []string{b.OutputFileID, b.ErrorFileID} {
			if file == "" {
				continue
			}
			if !p.fileResults(ctx, file, yield) {
				return
			}
		}
	}
}

// fileResults downloads a result file and yields a result per line. It
// reports whether the sequence goes on.
func (p *Provider) fileResults(ctx context.Context, file string, yield func(provider.BatchResult, error) bool) bool {
	var rec recorder
	res, err := p.client.Files.Content(ctx, file, p.callOptions(&rec)...)
	if err != nil {
		yield(provider.BatchResult{}, classify(err, &rec))
		return false
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, maxResultLine)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		r, err := resultOf(p.api, sc.Bytes())
		if err != nil {
			yield(provider.BatchResult{}, err)
			return false
		}
		if !yield(r, nil) {
			return false
		}
	}
	if err := sc.Err(); err != nil {
		yield(provider.BatchResult{}, &provider.Error{Kind: provider.ErrOther, Provider: Name,
			Message: fmt.Sprintf("downloading batch file %s: %v", file, err), Err: err})
		return false
	}
	return true
}

// resultLine is one line of a batch's output or error file.
type resultLine struct {
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		RequestID  string          `json:"request_id"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// resultOf maps one line of a result file for the given API. A line that
// is not JSON or names no request is an error; anything else is a result,
// its Err set when the request has no reply.
func resultOf(api API, line []byte) (provider.BatchResult, error) {
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
	switch {
	case l.Error != nil && l.Error.Code == codeBatchExpired:
		r.Err = &provider.Error{Kind: provider.ErrExpired, Provider: Name, Code: l.Error.Code, Message: l.Error.Message}
	case l.Error != nil && l.Error.Code == codeBatchCancelled:
		r.Err = &provider.Error{Kind: provider.ErrCanceled, Provider: Name, Code: l.Error.Code, Message: l.Error.Message}
	case l.Response != nil && l.Response.StatusCode >= 200 && l.Response.StatusCode < 300:
		r.Response, r.Err = reply(api, l.Response.Body)
	case l.Response != nil && l.Response.StatusCode != 0:
		r.Err = lineError(l.Response.StatusCode, l.Response.RequestID, l.Response.Body)
	case l.Error != nil:
		r.Err = &provider.Error{Kind: provider.ErrOther, Provider: Name, Code: l.Error.Code, Message: l.Error.Message}
	default:
		r.Err = &provider.Error{Kind: provider.ErrOther, Provider: Name, Message: "the batch result has neither a response nor an error"}
	}
	return r, nil
}

// reply maps a reply's body as Generate maps the SDK's decoding of it.
func reply(api API, body json.RawMessage) (*provider.Response, error) {
	undecodable := func(err error) error {
		return &provider.Error{Kind: provider.ErrOther, Provider: Name, StatusCode: http.StatusOK,
			Message: fmt.Sprintf("the reply cannot be decoded: %v", err), Err: err}
	}
	if api == APIResponses {
		var out responses.Response
		if err := out.UnmarshalJSON(body); err != nil {
			return nil, undecodable(err)
		}
		return responsesResponse(&out), nil
	}
	var out sdk.ChatCompletion
	if err := out.UnmarshalJSON(body); err != nil {
		return nil, undecodable(err)
	}
	resp, err := chatResponse(&out)
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// lineError classifies a request's failure from its status and error body
// as classify does an HTTP failure of Generate: the message and code of
// {"error": {...}} (or another shape bodyMessage reads, or the text of a
// body that is a JSON string), the param that tells a schema rejection.
func lineError(status int, requestID string, body json.RawMessage) *provider.Error {
	var text string
	if json.Unmarshal(body, &text) == nil {
		body = json.RawMessage(text) // a body that was not JSON, carried as a string
	}
	msg, code := bodyMessage(body)
	var v struct {
		Error struct {
			Param string `json:"param"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &v) // a body without a param leaves it empty
	return &provider.Error{
		Kind:       kindOf(status, v.Error.Param, msg),
		Provider:   Name,
		StatusCode: status,
		Code:       code,
		Message:    msg,
		RequestID:  requestID,
	}
}
