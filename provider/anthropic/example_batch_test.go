package anthropic_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/anthropic"
)

// A batch through the Message Batches API: submit, poll, read the results.
// A local server stands in for the API.
func ExampleProvider_SubmitBatch() {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages/batches", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"msgbatch_1","type":"message_batch","processing_status":"in_progress",
			"request_counts":{"processing":1,"succeeded":0,"errored":0,"canceled":0,"expired":0},"created_at":"2026-01-02T03:04:05Z"}`)
	})
	mux.HandleFunc("GET /v1/messages/batches/msgbatch_1", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"msgbatch_1","type":"message_batch","processing_status":"ended",
			"request_counts":{"processing":0,"succeeded":1,"errored":0,"canceled":0,"expired":0},"created_at":"2026-01-02T03:04:05Z"}`)
	})
	mux.HandleFunc("GET /v1/messages/batches/msgbatch_1/results", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"custom_id":"city","result":{"type":"succeeded","message":{"id":"msg_1","type":"message","role":"assistant",`+
			`"model":"claude-sonnet-4-5","content":[{"type":"text","text":"{\"city\":\"Oslo\"}"}],"stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":5}}}}`+"\n")
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()

	p, err := anthropic.New(&anthropic.Options{Model: "claude-sonnet-4-5", APIKey: "sk-ant-example", BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	b, err := p.SubmitBatch(ctx, "", []provider.BatchRequest{
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
	// msgbatch_1 in_progress
	// ended 1
	// city {"city":"Oslo"} 25
}
