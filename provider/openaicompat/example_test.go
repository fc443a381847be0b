package openaicompat_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openaicompat"
	"github.com/agentio/agentio/schema"
)

// Structured output through any Chat Completions server: enforce.Run
// sends the schema as response_format and validates the reply. A local
// server stands in for the API.
func ExampleProvider_Generate() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"model":"gpt-4.1-mini","choices":[{"index":0,
			"message":{"role":"assistant","content":"{\"city\":\"Oslo\"}"},"finish_reason":"stop"}],
			"usage":{"prompt_tokens":31,"completion_tokens":9,"total_tokens":40}}`)
	}))
	defer srv.Close()

	p, err := openaicompat.New(&openaicompat.Options{Model: "gpt-4.1-mini", BaseURL: srv.URL + "/v1", APIKey: os.Getenv("OPENAI_API_KEY")})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Where is the Munch museum?"}, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Mode, string(res.JSON), res.Usage.TotalTokens)
	// Output: native {"city":"Oslo"} 40
}

// Gemini through its OpenAI-compatible endpoint: declare what it offers,
// native schemas in the gemini dialect without OpenAI's strict mode.
func ExampleNew_gemini() {
	p, err := openaicompat.New(&openaicompat.Options{
		Name:    "gemini",
		Model:   "gemini-2.5-flash",
		BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai",
		APIKey:  os.Getenv("GEMINI_API_KEY"),
		Capabilities: &provider.Capabilities{
			NativeSchema: true, JSONMode: true, Tools: true, ForcedTool: true, Dialect: "gemini",
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Model(), p.Capabilities().Dialect)
	// Output: gemini-2.5-flash gemini
}

// Streaming through any Chat Completions server: the text arrives in
// pieces, then the whole reply. A local server stands in for the API.
func ExampleProvider_Stream() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, data := range []string{
			`{"model":"gpt-4.1-mini","choices":[{"index":0,"delta":{"role":"assistant","content":"{\"city\":"},"finish_reason":null}]}`,
			`{"model":"gpt-4.1-mini","choices":[{"index":0,"delta":{"content":"\"Oslo\"}"},"finish_reason":null}]}`,
			`{"model":"gpt-4.1-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
			`{"model":"gpt-4.1-mini","choices":[],"usage":{"prompt_tokens":31,"completion_tokens":9,"total_tokens":40}}`,
			`[DONE]`,
		} {
			_, _ = io.WriteString(w, "data: "+data+"\n\n")
		}
	}))
	defer srv.Close()

	p, err := openaicompat.New(&openaicompat.Options{Model: "gpt-4.1-mini", BaseURL: srv.URL + "/v1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	req := &provider.Request{Messages: []provider.Message{provider.UserMessage("Where is the Munch museum? Answer in JSON.")}}
	for chunk, err := range p.Stream(context.Background(), req) {
		switch {
		case err != nil:
			fmt.Println(err)
			return
		case chunk.Response != nil:
			fmt.Println(chunk.Response.StopReason, chunk.Response.Usage.TotalTokens)
		default:
			fmt.Printf("%q\n", chunk.Text)
		}
	}
	// Output:
	// "{\"city\":"
	// "\"Oslo\"}"
	// end 40
}
