package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openai"
)

// A batch through the Batch API: submit, poll, read the results. A local
// server stands in for the Files and Batches endpoints.
func ExampleProvider_SubmitBatch() {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /files", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"file-in","object":"file","purpose":"batch","filename":"agentio-batch.jsonl","bytes":1,"created_at":1,"status":"processed"}`)
	})
	mux.HandleFunc("POST /batches", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"batch_1","object":"batch","status":"validating","endpoint":"/v1/chat/completions","input_file_id":"file-in","completion_window":"24h","created_at":1}`)
	})
	mux.HandleFunc("GET /batches/batch_1", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"batch_1","object":"batch","status":"completed","output_file_id":"file-out","endpoint":"/v1/chat/completions","input_file_id":"file-in","completion_window":"24h","created_at":1,
			"request_counts":{"total":1,"completed":1,"failed":0}}`)
	})
	mux.HandleFunc("GET /files/file-out/content", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"r1","custom_id":"city","response":{"status_code":200,"body":{"id":"c1","object":"chat.completion","created":1,"model":"gpt-4.1-mini",`+
			`"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"{\"city\":\"Oslo\"}"}}],"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}},"error":null}`+"\n")
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()

	p, err := openai.New(&openai.Options{Model: "gpt-4.1-mini", APIKey: "sk-test", BaseURL: srv.URL})
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
		fmt.Println(r.ID, r.Response.Text)
	}
	// Output:
	// batch_1 in_progress
	// ended 1
	// city {"city":"Oslo"}
}
