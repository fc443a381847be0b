package anthropic_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/anthropic"
	"github.com/agentio/agentio/schema"
)

// What a Provider declares: enforce.ModeAuto picks the native mode.
func ExampleNew() {
	p, err := anthropic.New(&anthropic.Options{Model: "claude-sonnet-4-5", APIKey: "sk-ant-example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	caps := p.Capabilities()
	fmt.Println("native schema:", caps.NativeSchema, "forced tool:", caps.ForcedTool, "dialect:", caps.Dialect)
	// Output: native schema: true forced tool: true dialect: anthropic
}

// Structured output through the adapter: enforce.Run sends the schema as
// output_config.format and validates the reply. A local server stands in
// for the Messages API.
func ExampleProvider_Generate() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5",
			"content":[{"type":"text","text":"{\"city\":\"Oslo\"}"}],"stop_reason":"end_turn",
			"usage":{"input_tokens":60,"output_tokens":12,"cache_read_input_tokens":20}}`)
	}))
	defer srv.Close()

	p, err := anthropic.New(&anthropic.Options{Model: "claude-sonnet-4-5", APIKey: "sk-ant-example", BaseURL: srv.URL})
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
	fmt.Println(res.Mode, string(res.JSON), res.Usage.InputTokens, res.Usage.CachedInputTokens, res.Usage.TotalTokens)
	// Output: native {"city":"Oslo"} 80 20 92
}

// Streaming through the adapter: enforce.WithPartials reads the reply as the
// Messages API sends its events and reports the value as it grows. A local
// server stands in for the API.
func ExampleProvider_Stream() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(typ, data string) { _, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, data) }
		send("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant",`+
			`"model":"claude-sonnet-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":60,"output_tokens":1}}}`)
		send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		for _, piece := range []string{`{"city":"Os`, `lo","country"`, `:"Norway"}`} {
			send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+strconv.Quote(piece)+`}}`)
		}
		send("content_block_stop", `{"type":"content_block_stop","index":0}`)
		send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":14}}`)
		send("message_stop", `{"type":"message_stop"}`)
	}))
	defer srv.Close()

	p, err := anthropic.New(&anthropic.Options{Model: "claude-sonnet-4-5", APIKey: "sk-ant-example", BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"city":{"type":"string"},"country":{"type":"string"}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	show := func(partial enforce.Partial) {
		fmt.Println(string(partial.JSON))
	}
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Where is the Munch museum?"}, s, enforce.WithPartials(show))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Mode, string(res.JSON), res.Usage.TotalTokens)
	// Output:
	// {"city":"Oslo"}
	// native {"city":"Oslo","country":"Norway"} 74
}
