package ollama_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/ollama"
	"github.com/agentio/agentio/schema"
)

// A Provider for the server OLLAMA_HOST names, or Ollama's default
// address when it is unset, and what it declares.
func ExampleNew() {
	p, err := ollama.New(&ollama.Options{Model: "qwen3", BaseURL: os.Getenv("OLLAMA_HOST")})
	if err != nil {
		fmt.Println(err)
		return
	}
	caps := p.Capabilities()
	fmt.Println("native schema:", caps.NativeSchema, "forced tool:", caps.ForcedTool, "dialect:", caps.Dialect)
	// Output: native schema: true forced tool: false dialect: ollama
}

// Structured output through the adapter: enforce.Run sends the schema as
// the chat request's format and validates the reply. A local server
// stands in for Ollama.
func ExampleProvider_Generate() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"model":"qwen3","created_at":"2026-11-25T03:00:00Z",
			"message":{"role":"assistant","content":"{\"city\":\"Oslo\"}"},
			"done":true,"done_reason":"stop","prompt_eval_count":31,"eval_count":9}`)
	}))
	defer srv.Close()

	p, err := ollama.New(&ollama.Options{Model: "qwen3", BaseURL: srv.URL})
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

// Streaming through the adapter: enforce.WithPartials reads the reply as Ollama
// writes it, showing each part of the value as it completes. A local
// server stands in for Ollama, sending its NDJSON lines.
func ExampleProvider_Stream() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		for _, piece := range []string{`{\"city\": \"Oslo\", `, `\"museum\": `, `\"Munch\"}`} {
			_, _ = io.WriteString(w, `{"model":"qwen3","message":{"role":"assistant","content":"`+piece+`"},"done":false}`+"\n")
		}
		_, _ = io.WriteString(w, `{"model":"qwen3","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":31,"eval_count":12}`+"\n")
	}))
	defer srv.Close()

	p, err := ollama.New(&ollama.Options{Model: "qwen3", BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"city":{"type":"string"},"museum":{"type":"string"}},"required":["city","museum"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	show := func(partial enforce.Partial) {
		fmt.Println("so far:", string(partial.JSON), strings.Join(partial.Open, " "))
	}
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Where is the Munch museum?"}, s, enforce.WithPartials(show))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Mode, string(res.JSON), res.Usage.TotalTokens)
	// Output:
	// so far: {"city": "Oslo"} $
	// native {"city": "Oslo", "museum": "Munch"} 43
}
