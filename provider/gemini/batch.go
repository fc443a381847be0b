package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
)

// A Provider is a [provider.BatchFinder]: it runs batches through the
// Gemini API's batch mode.
var _ provider.BatchFinder = (*Provider)(nil)

// MaxBatchBytes is the most bytes of inlined requests one batch takes: the
// Gemini API documents inlined requests for batches whose total request
// size stays under 20 MB (larger ones go through an input file, which
// this adapter does not upload). It counts 20 MB as 20,000,000 bytes, the
// smaller reading, less room for the rest of the request body.
const MaxBatchBytes = 20_000_000 - batchEnvelope

// batchEnvelope is room for what the body of a batch holds besides its
// requests: the model, the display name (the key, at most
// maxDisplayName bytes, escaped) and the JSON around them.
const batchEnvelope = 8 << 10

// maxDisplayName bounds a key used as display name.
const maxDisplayName = 512

// requestKey is the metadata key under which each inlined request carries
// its BatchRequest.ID, and its response returns it.
const requestKey = "key"

// batchName is the prefix of the Gemini API's batch names.
const batchName = "batches/"

// BatchLimits returns the batch mode's limit: [MaxBatchBytes] bytes of
// inlined requests; the API documents no count.
func (p *Provider) BatchLimits() provider.BatchLimits { return p.limits }

// inlined maps r to an inlined request: the contents and config Generate
// would send, the ID in its metadata.
func (p *Provider) inlined(r provider.BatchRequest) (*genai.InlinedRequest, error) {
	if r.ID == "" {
		return nil, invalid("a batch request has no ID")
	}
	contents, cfg, err := p.prepare(r.Request)
	if err != nil {
		return nil, fmt.Errorf("batch request %q: %w", r.ID, err)
	}
	return &genai.InlinedRequest{Contents: contents, Config: cfg, Metadata: map[string]string{requestKey: r.ID}}, nil
}

// BatchRequestSize returns the bytes r's inlined request takes in the
// body of a batch, as the SDK encodes it, and the comma after it. It
// fails with a [*provider.Error] of kind invalid_request for a request
// Generate would refuse, or one without an ID.
func (p *Provider) BatchRequestSize(r provider.BatchRequest) (int, error) {
	in, err := p.inlined(r)
	if err != nil {
		return 0, err
	}
	entries, err := p.encode([]*genai.InlinedRequest{in})
	if err != nil {
		return 0, err
	}
	return len(entries[0]) + 1, nil
}

// SubmitBatch creates a batch job (models/{model}:batchGenerateContent)
// whose inlined requests are the contents and config Generate would send
// for reqs, each with its ID in its metadata, and key as its display name.
// reqs that are empty, have an empty or repeated ID, exceed
// [Provider.BatchLimits], or hold a request Generate would refuse, and a
// key longer than 512 bytes, fail with a [*provider.Error] of kind
// invalid_request before any HTTP call; so does a client for Vertex AI,
// whose batch jobs read their requests from Cloud Storage or BigQuery.
// API failures are classified as Generate's are. It may be called
// concurrently; reqs are not modified.
func (p *Provider) SubmitBatch(ctx context.Context, key string, reqs []provider.BatchRequest) (*provider.Batch, error) {
	if p.client.ClientConfig().Backend == genai.BackendVertexAI {
		return nil, invalid("batch mode with inlined requests needs the Gemini API, not Vertex AI")
	}
	if len(key) > maxDisplayName {
		return nil, invalid(fmt.Sprintf("batch key of %d bytes; this adapter takes at most %d", len(key), maxDisplayName))
	}
	if err := provider.CheckBatch(reqs, p.limits); err != nil {
		err.Provider = Name
		return nil, err
	}
	inlined := make([]*genai.InlinedRequest, len(reqs))
	for i, r := range reqs {
		in, err := p.inlined(r)
		if err != nil {
			return nil, err
		}
		inlined[i] = in
	}
	entries, err := p.encode(inlined)
	if err != nil {
		return nil, err
	}
	size := 0
	for i, e := range entries {
		if size += len(e) + 1; size > p.limits.MaxBytes {
			return nil, invalid(fmt.Sprintf("the batch exceeds %d bytes at request %q", p.limits.MaxBytes, reqs[i].ID))
		}
	}
	var cfg *genai.CreateBatchJobConfig
	if key != "" {
		cfg = &genai.CreateBatchJobConfig{DisplayName: key}
	}
	job, err := p.client.Batches.Create(ctx, p.model, &genai.BatchJobSource{InlinedRequests: inlined}, cfg)
	if err != nil {
		return nil, classify(err, false)
	}
	return batchOf(job, nil), nil
}

// Batch returns the batch's current state. An id that is not a batch name
// (batches/...) or names no batch is a [*provider.Error] of kind
// invalid_request; other failures are classified as Generate's are.
func (p *Provider) Batch(ctx context.Context, id string) (*provider.Batch, error) {
	job, extra, err := p.getBatch(ctx, id)
	if err != nil {
		return nil, err
	}
	return batchOf(job, extra), nil
}

// getBatch retrieves the SDK's batch job, and what the SDK leaves out of
// it, when the Provider's client lets it read the body.
func (p *Provider) getBatch(ctx context.Context, id string) (*genai.BatchJob, *operation, error) {
	if err := checkBatchName(id); err != nil {
		return nil, nil, err
	}
	raw := &rawBody{}
	job, err := p.client.Batches.Get(context.WithValue(ctx, rawBodyKey{}, raw), id, nil)
	if err != nil {
		return nil, nil, classify(err, false)
	}
	var op *operation
	if len(raw.body) > 0 {
		op = &operation{}
		if json.Unmarshal(raw.body, op) != nil {
			op = nil
		}
	}
	return job, op, nil
}

// checkBatchName refuses an id that is not a batch's name.
func checkBatchName(id string) error {
	if !strings.HasPrefix(id, batchName) || len(id) == len(batchName) || strings.Contains(id[len(batchName):], "/") {
		return invalid(fmt.Sprintf("batch ID %q is not a batch name (batches/...)", id))
	}
	return nil
}

// CancelBatch asks the API to cancel the batch job. A batch that is done
// is left as it is, without an error; an unknown id is a
// [*provider.Error] of kind invalid_request.
func (p *Provider) CancelBatch(ctx context.Context, id string) error {
	if err := checkBatchName(id); err != nil {
		return err
	}
	err := p.client.Batches.Cancel(ctx, id, nil)
	if err == nil {
		return nil
	}
	err = classify(err, false)
	if !errors.Is(err, provider.ErrInvalidRequest) {
		return err
	}
	b, getErr := p.Batch(ctx, id)
	if getErr == nil && b.Status.Done() {
		return nil
	}
	return err
}

// FindBatch returns the most recently created batch whose display name is
// key, or nil and no error when there is none. The Gemini API cannot
// filter batches, so it lists them all, page by page.
func (p *Provider) FindBatch(ctx context.Context, key string) (*provider.Batch, error) {
	if key == "" {
		return nil, invalid("no batch key")
	}
	var found *genai.BatchJob
	for job, err := range p.client.Batches.All(ctx) {
		if err != nil {
			return nil, classify(err, false)
		}
		if job != nil && job.DisplayName == key && (found == nil || job.CreateTime.After(found.CreateTime)) {
			found = job
		}
	}
	if found == nil {
		return nil, nil
	}
	return batchOf(found, nil), nil
}

// operation is what the SDK's BatchJob leaves out of the API's batch
// (a long-running operation): its request counts and, for a failed batch,
// its error.
type operation struct {
	Metadata struct {
		BatchStats struct {
			RequestCount           json.Number `json:"requestCount"`
			SuccessfulRequestCount json.Number `json:"successfulRequestCount"`
			FailedRequestCount     json.Number `json:"failedRequestCount"`
			PendingRequestCount    json.Number `json:"pendingRequestCount"`
		} `json:"batchStats"`
	} `json:"metadata"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// count reads one of the API's counts (an int64, sent as a string).
func count(n json.Number) int {
	v, err := n.Int64()
	if err != nil || v < 0 {
		return 0
	}
	return int(v)
}

// batchOf maps the SDK's batch job, and what the SDK leaves out when
// known: JOB_STATE_PENDING, RUNNING (and QUEUED, PAUSED, UPDATING,
// CANCELLING, and states this adapter does not know) are in progress,
// SUCCEEDED (and PARTIALLY_SUCCEEDED) is ended, FAILED failed, CANCELLED
// cancelled, EXPIRED expired. A failed batch's Err is a
// [*provider.Error] with the API's error when the body could be read, else
// one saying only that it failed.
func batchOf(job *genai.BatchJob, op *operation) *provider.Batch {
	b := &provider.Batch{ID: job.Name, RawStatus: string(job.State), CreatedAt: job.CreateTime}
	switch job.State {
	case genai.JobStateSucceeded, genai.JobStatePartiallySucceeded:
		b.Status = provider.BatchEnded
	case genai.JobStateFailed:
		b.Status = provider.BatchFailed
		e := &provider.Error{Kind: provider.ErrOther, Provider: Name, Message: "the batch failed"}
		switch {
		case op != nil && op.Error != nil:
			e.Kind, e.StatusCode, e.Code = rpcKind(op.Error.Code, op.Error.Message)
			e.Message = op.Error.Message
		case job.Error != nil:
			code := 0
			if job.Error.Code != nil {
				code = int(*job.Error.Code)
			}
			e.Kind, e.StatusCode, e.Code = rpcKind(code, job.Error.Message)
			e.Message = job.Error.Message
		}
		b.Err = e
	case genai.JobStateCancelled:
		b.Status = provider.BatchCanceled
	case genai.JobStateExpired:
		b.Status = provider.BatchExpired
	default:
		b.Status = provider.BatchInProgress
	}
	if op != nil {
		s := op.Metadata.BatchStats
		b.Counts = provider.BatchCounts{
			Total:      count(s.RequestCount),
			Processing: count(s.PendingRequestCount),
			Succeeded:  count(s.SuccessfulRequestCount),
			Failed:     count(s.FailedRequestCount),
		}
	}
	return b
}

// rpcStatus maps a google.rpc code to its name and the HTTP status the
// API answers it with.
var rpcStatus = map[int]struct {
	name string
	http int
}{
	1:  {"CANCELLED", 499},
	2:  {"UNKNOWN", 500},
	3:  {"INVALID_ARGUMENT", 400},
	4:  {"DEADLINE_EXCEEDED", 504},
	5:  {"NOT_FOUND", 404},
	6:  {"ALREADY_EXISTS", 409},
	7:  {"PERMISSION_DENIED", 403},
	8:  {"RESOURCE_EXHAUSTED", 429},
	9:  {"FAILED_PRECONDITION", 400},
	10: {"ABORTED", 409},
	11: {"OUT_OF_RANGE", 400},
	12: {"UNIMPLEMENTED", 501},
	13: {"INTERNAL", 500},
	14: {"UNAVAILABLE", 503},
	15: {"DATA_LOSS", 500},
	16: {"UNAUTHENTICATED", 401},
}

// rpcKind classifies an error the API reports as a google.rpc.Status (a
// failed batch, a failed request of one) as classify does an HTTP failure
// of Generate: by its status name and the HTTP status it comes with. A
// code the API also uses as an HTTP status (400, 429, ...) is read as one.
func rpcKind(code int, message string) (kind provider.ErrorKind, status int, name string) {
	if s, ok := rpcStatus[code]; ok {
		status, name = s.http, s.name
	} else if code >= 400 && code < 600 {
		status = code
	}
	return kindOf(status, name, message, false), status, name
}

// rawBodyKey is the context key of a rawBody.
type rawBodyKey struct{}

// A rawBody receives the body of a successful response, for a call whose
// SDK result leaves out parts of it. It belongs to one call.
type rawBody struct{ body []byte }

// maxRawBody bounds the body kept for a rawBody.
const maxRawBody = 64 << 20

// keepBody reads a successful response's body into the rawBody in r's
// context, if any, and gives the SDK a copy.
func keepBody(r *http.Request, resp *http.Response) {
	raw, _ := r.Context().Value(rawBodyKey{}).(*rawBody)
	if raw == nil || resp.Body == nil {
		return
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRawBody))
	rest := resp.Body
	if err == nil {
		raw.body = body
	}
	resp.Body = readCloser{Reader: io.MultiReader(bytes.NewReader(body), rest), Closer: rest}
}

// readCloser joins a reader and the closer of the body it reads.
type readCloser struct {
	io.Reader
	io.Closer
}
