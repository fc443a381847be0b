package gemini_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/gemini"
)

// A batch through the Gemini API's batch mode: submit, poll, read the
// results. A local server stands in for the API.
func ExampleProvider_SubmitBatch() {
	const meta = `"@type":"type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch","model":"models/gemini-2.5-flash","displayName":"nightly-run"`
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1beta/models/gemini-2.5-flash:batchGenerateContent", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"name":"batches/1","metadata":{`+meta+`,"state":"BATCH_STATE_PENDING"}}`)
	})
	mux.HandleFunc("GET /v1beta/batches/1", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"name":"batches/1","done":true,"metadata":{`+meta+`,"state":"BATCH_STATE_SUCCEEDED",
			"batchStats":{"requestCount":"1","successfulRequestCount":"1"},
			"output":{"inlinedResponses":{"inlinedResponses":[{"metadata":{"key":"city"},"response":{"candidates":[{"content":{"role":"model",
			"parts":[{"text":"{\"city\":\"Oslo\"}"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":20,"candidatesTokenCount":5,"totalTokenCount":25}}}]}}}}`)
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()

	p, err := gemini.New(&gemini.Options{Model: "gemini-2.5-flash", APIKey: "test-key", BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	b, err := p.SubmitBatch(ctx, "nightly-run", []provider.BatchRequest{
		{ID: "city", Request: &provider.Request{Messages: []provider.Message{provider.UserMessage("Where is the Munch museum?")}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.ID, b.Status)
	b, err = p.Batch(ctx, b.ID) // poll until b.Status.Done()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.Status, b.Counts.Succeeded)
	for r, err := range p.BatchResults(ctx, b.ID) {
		if err != nil {
			fmt.Println(r.ID, err)
			continue
		}
		fmt.Println(r.ID, r.Response.Text, r.Response.Usage.TotalTokens)
	}
	// Output:
	// batches/1 in_progress
	// ended 1
	// city {"city":"Oslo"} 25
}
