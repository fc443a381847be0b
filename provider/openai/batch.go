package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentio/agentio/provider"
)

// A Provider is a [provider.BatchFinder]: it runs batches through OpenAI's
// Batch API.
var _ provider.BatchFinder = (*Provider)(nil)

// The Batch API's limits on one input file, as OpenAI documents them
// (the Batch API guide, and the SDK's BatchNewParams.InputFileID: "up to
// 50,000 requests, and can be up to 200 MB in size"). MaxBatchBytes counts
// 200 MB as 200,000,000 bytes, the smaller reading.
const (
	MaxBatchRequests = 50_000
	MaxBatchBytes    = 200_000_000
)

// BatchKeyMetadata is the metadata key under which [Provider.SubmitBatch]
// stores a batch's key, and [Provider.FindBatch] looks for it.
const BatchKeyMetadata = "agentio_batch_key"

// maxMetadataValue is the longest metadata value the API takes.
const maxMetadataValue = 512

// endpoint returns the Batch API endpoint of the requests, the one
// Generate calls.
func (p *Provider) endpoint() sdk.BatchNewParamsEndpoint {
	if p.api == APIResponses {
		return sdk.BatchNewParamsEndpointV1Responses
	}
	return sdk.BatchNewParamsEndpointV1ChatCompletions
}

// batchLine is one line of a batch input file.
type batchLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// requestBody returns the body Generate sends for req: the same checks,
// the same SDK parameters, encoded as the SDK encodes them.
func (p *Provider) requestBody(req *provider.Request) (json.RawMessage, error) {
	if err := checkRequest(req); err != nil {
		return nil, err
	}
	var params any
	var err error
	if p.api == APIResponses {
		params, err = p.responsesParams(req)
	} else {
		params, err = p.chatParams(req)
	}
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(params)
	if err != nil {
		return nil, invalid(fmt.Sprintf("the request cannot be encoded: %v", err))
	}
	return body, nil
}

// line returns r's line of the input file, its newline included.
func (p *Provider) line(r provider.BatchRequest) ([]byte, error) {
	if r.ID == "" {
		return nil, invalid("a batch request has no ID")
	}
	body, err := p.requestBody(r.Request)
	if err != nil {
		return nil, fmt.Errorf("batch request %q: %w", r.ID, err)
	}
	b, err := json.Marshal(batchLine{CustomID: r.ID, Method: "POST", URL: string(p.endpoint()), Body: body})
	if err != nil {
		return nil, invalid(fmt.Sprintf("batch request %q cannot be encoded: %v", r.ID, err))
	}
	return append(b, '\n'), nil
}

// BatchLimits returns the Batch API's limits: [MaxBatchRequests] requests
// and [MaxBatchBytes] bytes of input file.
func (p *Provider) BatchLimits() provider.BatchLimits { return p.limits }

// BatchRequestSize returns the length of r's line in the input file,
// newline included: the bytes SubmitBatch uploads for it. It fails with a
// [*provider.Error] of kind invalid_request for a request Generate would
// refuse, or one without an ID.
func (p *Provider) BatchRequestSize(r provider.BatchRequest) (int, error) {
	line, err := p.line(r)
	if err != nil {
		return 0, err
	}
	return len(line), nil
}

// SubmitBatch uploads reqs as a JSONL input file (Files API, purpose
// "batch"), one line per request whose body is what Generate would send
// (to /v1/chat/completions, or /v1/responses with [APIResponses]), and
// creates a batch over it with a 24h completion window, key stored under
// [BatchKeyMetadata] in its metadata. reqs that are empty, have an empty or
// repeated ID, exceed [Provider.BatchLimits], hold a request Generate would
// refuse, or a key longer than the 512 characters metadata takes, fail with
// a [*provider.Error] of kind invalid_request before any HTTP call. API
// failures are classified as Generate's are; when creating the batch fails,
// the uploaded file is deleted. It may be called concurrently; reqs are not
// modified.
func (p *Provider) SubmitBatch(ctx context.Context, key string, reqs []provider.BatchRequest) (*provider.Batch, error) {
	if len(key) > maxMetadataValue {
		return nil, invalid(fmt.Sprintf("batch key of %d bytes; metadata values take at most %d", len(key), maxMetadataValue))
	}
	file, err := p.inputFile(reqs)
	if err != nil {
		return nil, err
	}
	var rec recorder
	opts := p.callOptions(&rec)
	f, err := p.client.Files.New(ctx, sdk.FileNewParams{
		File:    sdk.File(bytes.NewReader(file), "agentio-batch.jsonl", "application/jsonl"),
		Purpose: sdk.FilePurposeBatch,
	}, opts...)
	if err != nil {
		return nil, classify(err, &rec)
	}
	params := sdk.BatchNewParams{
		CompletionWindow: sdk.BatchNewParamsCompletionWindow24h,
		Endpoint:         p.endpoint(),
		InputFileID:      f.ID,
	}
	if key != "" {
		params.Metadata = shared.Metadata{BatchKeyMetadata: key}
	}
	b, err := p.client.Batches.New(ctx, params, opts...)
	if err != nil {
		err = classify(err, &rec)
		// The file is of no use without its batch; a failure to delete it
		// leaves it to expire (30 days for purpose batch).
		_, _ = p.client.Files.Delete(context.WithoutCancel(ctx), f.ID, p.callOptions(&recorder{})...)
		return nil, err
	}
	return batchOf(b), nil
}

// inputFile checks reqs and returns the input file's bytes.
func (p *Provider) inputFile(reqs []provider.BatchRequest) ([]byte, error) {
	if err := provider.CheckBatch(reqs, p.limits); err != nil {
		err.Provider = Name
		return nil, err
	}
	var file bytes.Buffer
	for _, r := range reqs {
		line, err := p.line(r)
		if err != nil {
			return nil, err
		}
		if file.Len()+len(line) > p.limits.MaxBytes {
			return nil, invalid(fmt.Sprintf("the batch exceeds %d bytes at request %q", p.limits.MaxBytes, r.ID))
		}
		file.Write(line)
	}
	return file.Bytes(), nil
}

// callOptions returns the options of one API call: the Provider's, and a
// middleware filling rec for classify.
func (p *Provider) callOptions(rec *recorder) []option.RequestOption {
	return append(append([]option.RequestOption(nil), p.opts...), option.WithMiddleware(rec.middleware))
}

// Batch returns the batch's current state. An unknown id is a
// [*provider.Error] of kind invalid_request (the API's 404); other
// failures are classified as Generate's are.
func (p *Provider) Batch(ctx context.Context, id string) (*provider.Batch, error) {
	b, err := p.getBatch(ctx, id)
	if err != nil {
		return nil, err
	}
	return batchOf(b), nil
}

// getBatch retrieves the SDK's batch, the error classified.
func (p *Provider) getBatch(ctx context.Context, id string) (*sdk.Batch, error) {
	if id == "" {
		return nil, invalid("no batch ID")
	}
	var rec recorder
	b, err := p.client.Batches.Get(ctx, id, p.callOptions(&rec)...)
	if err != nil {
		return nil, classify(err, &rec)
	}
	return b, nil
}

// CancelBatch asks the API to cancel the batch (it goes through
// "cancelling" to "cancelled"). A batch that is already done is left as it
// is, without an error; an unknown id is a [*provider.Error] of kind
// invalid_request.
func (p *Provider) CancelBatch(ctx context.Context, id string) error {
	if id == "" {
		return invalid("no batch ID")
	}
	var rec recorder
	_, err := p.client.Batches.Cancel(ctx, id, p.callOptions(&rec)...)
	if err == nil {
		return nil
	}
	err = classify(err, &rec)
	if !errors.Is(err, provider.ErrInvalidRequest) {
		return err
	}
	// The API refuses to cancel a batch that is done (and one it does not
	// know): which one it was, the batch says.
	b, getErr := p.Batch(ctx, id)
	if getErr == nil && b.Status.Done() {
		return nil
	}
	return err
}

// FindBatch returns the most recent batch whose metadata holds key under
// [BatchKeyMetadata], or nil and no error when there is none. The API
// cannot filter batches by metadata, so it lists them all, page by page.
func (p *Provider) FindBatch(ctx context.Context, key string) (*provider.Batch, error) {
	if key == "" {
		return nil, invalid("no batch key")
	}
	var rec recorder
	pager := p.client.Batches.ListAutoPaging(ctx, sdk.BatchListParams{Limit: param.NewOpt(int64(100))}, p.callOptions(&rec)...)
	var found *sdk.Batch
	for pager.Next() {
		b := pager.Current()
		if b.Metadata[BatchKeyMetadata] == key && (found == nil || b.CreatedAt > found.CreatedAt) {
			found = &b
		}
	}
	if err := pager.Err(); err != nil {
		return nil, classify(err, &rec)
	}
	if found == nil {
		return nil, nil
	}
	return batchOf(found), nil
}

// batchOf maps the SDK's batch. validating, in_progress, finalizing and
// cancelling are in progress (so is a status this adapter does not know:
// polling goes on rather than giving up on a batch that may still end),
// completed is ended, expired, cancelled and failed are themselves; a
// failed batch's Err is a [*provider.Error] of kind invalid_request
// listing the API's errors (the input file did not validate).
func batchOf(b *sdk.Batch) *provider.Batch {
	c := b.RequestCounts
	out := &provider.Batch{
		ID:        b.ID,
		RawStatus: string(b.Status),
		Counts: provider.BatchCounts{
			Total:      int(c.Total),
			Processing: int(max(c.Total-c.Completed-c.Failed, 0)),
			Succeeded:  int(c.Completed),
			Failed:     int(c.Failed),
		},
		CreatedAt: unixTime(b.CreatedAt),
		ExpiresAt: unixTime(b.ExpiresAt),
	}
	switch b.Status {
	case sdk.BatchStatusCompleted:
		out.Status = provider.BatchEnded
	case sdk.BatchStatusExpired:
		out.Status = provider.BatchExpired
	case sdk.BatchStatusCancelled:
		out.Status = provider.BatchCanceled
	case sdk.BatchStatusFailed:
		out.Status = provider.BatchFailed
		out.Err = batchFailure(b.Errors.Data)
	default: // validating, in_progress, finalizing, cancelling
		out.Status = provider.BatchInProgress
	}
	return out
}

// batchFailure is the error of a failed batch: the API's errors, each
// with the input line it is about.
func batchFailure(errs []sdk.BatchError) *provider.Error {
	e := &provider.Error{Kind: provider.ErrInvalidRequest, Provider: Name, Message: "the batch failed"}
	var msgs []string
	for _, be := range errs {
		m := be.Message
		if be.Line > 0 {
			m = fmt.Sprintf("line %d: %s", be.Line, m)
		}
		msgs = append(msgs, m)
		if e.Code == "" {
			e.Code = be.Code
		}
	}
	if len(msgs) > 0 {
		e.Message = cut(strings.Join(msgs, "; "), maxErrorText)
	}
	return e
}

// unixTime converts the API's Unix seconds, zero meaning unknown.
func unixTime(s int64) time.Time {
	if s <= 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}
