package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/agentio/agentio/provider"
)

// A Provider is a [provider.Batcher]: it runs batches through the Message
// Batches API. It is not a [provider.BatchFinder]: a message batch has no
// metadata or name to hold a key, and listing batches shows neither their
// requests nor their custom_ids, so a batch cannot be found again by
// anything but its ID.
var _ provider.Batcher = (*Provider)(nil)

// The Message Batches API's limits on one batch, as Anthropic documents
// them ("a Message Batch is limited to either 100,000 Message requests or
// 256 MB in size, whichever is reached first"). MaxBatchBytes counts 256 MB
// as 256,000,000 bytes, the smaller reading.
const (
	MaxBatchRequests = 100_000
	MaxBatchBytes    = 256_000_000
)

// maxCustomID is the longest custom_id the API takes.
const maxCustomID = 64

// batchEnvelope is what a batch's body holds besides its requests:
// {"requests":[...]}.
const batchEnvelope = len(`{"requests":[]}`)

// batchEntry is one request of a batch's body.
type batchEntry struct {
	CustomID string          `json:"custom_id"`
	Params   json.RawMessage `json:"params"`
}

// entry returns r's entry of the batch body: its custom_id and the
// parameters Generate would send, encoded as the SDK encodes them.
func (p *Provider) entry(r provider.BatchRequest) ([]byte, error) {
	if err := checkCustomID(r.ID); err != nil {
		return nil, err
	}
	params, err := p.params(r.Request)
	if err != nil {
		return nil, fmt.Errorf("batch request %q: %w", r.ID, err)
	}
	body, err := json.Marshal(params)
	if err != nil {
		return nil, invalid(fmt.Sprintf("batch request %q cannot be encoded: %v", r.ID, err))
	}
	b, err := json.Marshal(batchEntry{CustomID: r.ID, Params: body})
	if err != nil {
		return nil, invalid(fmt.Sprintf("batch request %q cannot be encoded: %v", r.ID, err))
	}
	return b, nil
}

// checkCustomID refuses an ID the API refuses as a custom_id: empty,
// longer than 64 bytes, or with a character outside [a-zA-Z0-9_-].
func checkCustomID(id string) error {
	if id == "" {
		return invalid("a batch request has no ID")
	}
	if len(id) > maxCustomID {
		return invalid(fmt.Sprintf("batch request ID %q is longer than %d characters", cut(id, maxCustomID), maxCustomID))
	}
	for _, c := range []byte(id) {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') && c != '_' && c != '-' {
			return invalid(fmt.Sprintf("batch request ID %q has a character other than a-z, A-Z, 0-9, _ and -", id))
		}
	}
	return nil
}

// BatchLimits returns the Message Batches API's limits:
// [MaxBatchRequests] requests, and [MaxBatchBytes] bytes of body less the
// few the body takes besides its requests, so that requests whose
// [Provider.BatchRequestSize] add up to MaxBytes fit.
func (p *Provider) BatchLimits() provider.BatchLimits { return p.limits }

// BatchRequestSize returns the bytes r adds to a batch's body: its entry
// {"custom_id":...,"params":...} and the comma that separates it from the
// next. It fails with a [*provider.Error] of kind invalid_request for a
// request Generate would refuse, or an ID the API refuses as a custom_id.
func (p *Provider) BatchRequestSize(r provider.BatchRequest) (int, error) {
	e, err := p.entry(r)
	if err != nil {
		return 0, err
	}
	return len(e) + 1, nil
}

// SubmitBatch creates a message batch whose requests are reqs, each with
// its ID as custom_id and as params what Generate would send to
// /v1/messages. key is not sent: the API has nowhere to keep it. reqs that
// are empty, have an ID the API refuses as a custom_id (empty, longer than
// 64, outside [a-zA-Z0-9_-]) or one repeated, exceed
// [Provider.BatchLimits], or hold a request Generate would refuse fail
// with a [*provider.Error] of kind invalid_request before any HTTP call.
// API failures are classified as Generate's are. It may be called
// concurrently; reqs are not modified.
func (p *Provider) SubmitBatch(ctx context.Context, key string, reqs []provider.BatchRequest) (*provider.Batch, error) {
	body, err := p.batchBody(reqs)
	if err != nil {
		return nil, err
	}
	var params sdk.MessageBatchNewParams
	param.SetJSON(body, &params)
	b, err := p.client.Messages.Batches.New(ctx, params, p.opts...)
	if err != nil {
		return nil, classify(err)
	}
	return batchOf(b), nil
}

// batchBody checks reqs and returns the batch's body.
func (p *Provider) batchBody(reqs []provider.BatchRequest) ([]byte, error) {
	if err := provider.CheckBatch(reqs, p.limits); err != nil {
		err.Provider = Name
		return nil, err
	}
	var body bytes.Buffer
	body.WriteString(`{"requests":[`)
	size := 0 // the requests' sizes as BatchRequestSize counts them
	for i, r := range reqs {
		e, err := p.entry(r)
		if err != nil {
			return nil, err
		}
		if size += len(e) + 1; size > p.limits.MaxBytes {
			return nil, invalid(fmt.Sprintf("the batch exceeds %d bytes at request %q", p.limits.MaxBytes, r.ID))
		}
		if i > 0 {
			body.WriteByte(',')
		}
		body.Write(e)
	}
	body.WriteString(`]}`)
	return body.Bytes(), nil
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
func (p *Provider) getBatch(ctx context.Context, id string) (*sdk.MessageBatch, error) {
	if id == "" {
		return nil, invalid("no batch ID")
	}
	b, err := p.client.Messages.Batches.Get(ctx, id, sdk.MessageBatchGetParams{}, p.opts...)
	if err != nil {
		return nil, classify(err)
	}
	return b, nil
}

// CancelBatch asks the API to cancel the batch (its processing_status
// goes through "canceling" to "ended"). A batch that has ended is left as
// it is, without an error; an unknown id is a [*provider.Error] of kind
// invalid_request.
func (p *Provider) CancelBatch(ctx context.Context, id string) error {
	if id == "" {
		return invalid("no batch ID")
	}
	_, err := p.client.Messages.Batches.Cancel(ctx, id, sdk.MessageBatchCancelParams{}, p.opts...)
	if err == nil {
		return nil
	}
	err = classify(err)
	if !errors.Is(err, provider.ErrInvalidRequest) {
		return err
	}
	// Which it was, a batch that has ended or one the API does not know,
	// the batch says.
	b, getErr := p.Batch(ctx, id)
	if getErr == nil && b.Status.Done() {
		return nil
	}
	return err
}

// batchOf maps the SDK's batch. in_progress and canceling are in
// progress. The API has one final status, ended, whatever became of the
// requests; the request counts tell the rest: a batch with cancelled
// requests is [provider.BatchCanceled], else one with expired requests
// [provider.BatchExpired], else [provider.BatchEnded]. The API refuses a
// batch it cannot run when it is created, so no batch is
// [provider.BatchFailed]. Counts.Failed counts errored, cancelled and
// expired requests.
func batchOf(b *sdk.MessageBatch) *provider.Batch {
	c := b.RequestCounts
	out := &provider.Batch{
		ID:        b.ID,
		RawStatus: string(b.ProcessingStatus),
		Counts: provider.BatchCounts{
			Total:      int(c.Processing + c.Succeeded + c.Errored + c.Canceled + c.Expired),
			Processing: int(c.Processing),
			Succeeded:  int(c.Succeeded),
			Failed:     int(c.Errored + c.Canceled + c.Expired),
		},
		CreatedAt: b.CreatedAt,
		ExpiresAt: b.ExpiresAt,
	}
	switch {
	case b.ProcessingStatus != sdk.MessageBatchProcessingStatusEnded:
		// in_progress, canceling, and a status this adapter does not know:
		// polling goes on rather than giving up on a batch that may end.
		out.Status = provider.BatchInProgress
	case c.Canceled > 0:
		out.Status = provider.BatchCanceled
	case c.Expired > 0:
		out.Status = provider.BatchExpired
	default:
		out.Status = provider.BatchEnded
	}
	return out
}
