package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/openai"
	"github.com/agentio/agentio/schema"
)

// A provider for a local OpenAI-compatible server (here Ollama's /v1) and
// what it declares.
func ExampleNew() {
	p, err := openai.New(&openai.Options{Model: "qwen3", BaseURL: "http://localhost:11434/v1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	caps := p.Capabilities()
	fmt.Println("native schema:", caps.NativeSchema, "strict:", caps.StrictSchema, "forced tool:", caps.ForcedTool)
	// Output: native schema: true strict: false forced tool: false
}

// Structured output through the adapter: enforce.Run sends the schema in
// OpenAI's strict dialect and validates the reply. A local server stands
// in for OpenAI.
func ExampleProvider_Generate() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"gpt-4.1-mini",
			"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",
			"content":"{\"city\":\"Oslo\",\"country\":null}"}}],
			"usage":{"prompt_tokens":80,"completion_tokens":12,"total_tokens":92}}`)
	}))
	defer srv.Close()

	caps := openai.OfficialCapabilities() // the local stand-in behaves as OpenAI
	p, err := openai.New(&openai.Options{Model: "gpt-4.1-mini", APIKey: "sk-test", BaseURL: srv.URL, Capabilities: &caps})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"city":{"type":"string"},"country":{"type":"string"}},"required":["city"]}`))
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
	// Output: native {"city":"Oslo"} 92
}
