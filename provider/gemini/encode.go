package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"google.golang.org/genai"
)

// An encoder turns inlined requests into the bytes the SDK sends for them
// in the body of a batch, so that a request's size is counted as it is
// sent. The SDK's conversion to the wire format is its own (not exported):
// the encoder runs it through a client of its own whose transport keeps
// the body and answers locally, without a network call. It is safe for
// concurrent use; its zero value builds the client on first use.
type encoder struct {
	once   sync.Once
	client *genai.Client
	err    error
}

// encodeKey is the context key of the *[]byte that receives a body.
type encodeKey struct{}

// capture is the encoder's transport: it keeps the request body in the
// context's *[]byte and answers with an empty batch.
type capture struct{}

// RoundTrip keeps r's body and answers it locally.
func (capture) RoundTrip(r *http.Request) (*http.Response, error) {
	if dst, ok := r.Context().Value(encodeKey{}).(*[]byte); ok && r.Body != nil {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		*dst = body
	}
	if r.Body != nil {
		r.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{"name":"batches/encoded"}`)), Request: r}, nil
}

// encode returns the JSON of each of reqs as the SDK sends it for model
// in a batch's body. It fails with a *provider.Error of kind
// invalid_request when the SDK cannot convert them.
func (e *encoder) encode(model string, reqs []*genai.InlinedRequest) ([]json.RawMessage, error) {
	e.once.Do(func() {
		e.client, e.err = genai.NewClient(context.Background(), &genai.ClientConfig{
			APIKey: "local", Backend: genai.BackendGeminiAPI, HTTPClient: &http.Client{Transport: capture{}},
		})
	})
	if e.err != nil {
		return nil, invalid(fmt.Sprintf("the SDK cannot encode batch requests: %v", e.err))
	}
	var body []byte
	ctx := context.WithValue(context.Background(), encodeKey{}, &body)
	if _, err := e.client.Batches.Create(ctx, model, &genai.BatchJobSource{InlinedRequests: reqs}, nil); err != nil {
		return nil, invalid(fmt.Sprintf("the SDK cannot encode the batch requests: %v", err))
	}
	var v struct {
		Batch struct {
			InputConfig struct {
				Requests struct {
					Requests []json.RawMessage `json:"requests"`
				} `json:"requests"`
			} `json:"inputConfig"`
		} `json:"batch"`
	}
	if err := json.Unmarshal(body, &v); err != nil || len(v.Batch.InputConfig.Requests.Requests) != len(reqs) {
		return nil, invalid("the SDK's batch body holds no inlined requests")
	}
	return v.Batch.InputConfig.Requests.Requests, nil
}

// encode encodes reqs for the Provider's model.
func (p *Provider) encode(reqs []*genai.InlinedRequest) ([]json.RawMessage, error) {
	return p.encoder.encode(p.model, reqs)
}
