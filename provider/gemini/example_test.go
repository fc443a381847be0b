package gemini_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/gemini"
	"github.com/agentio/agentio/schema"
)

// A Provider goes wherever a provider.Provider does. Here a local server
// stands in for the Gemini API; with a real key, leave out BaseURL.
func ExampleNew() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"verdict\": \"approve\"}"}]},"finishReason":"STOP"}]}`)
	}))
	defer api.Close()

	ctx := context.Background()
	p, err := gemini.New(&gemini.Options{Model: "gemini-2.5-flash", APIKey: "test", BaseURL: api.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Mode, string(res.JSON))
	// Output: native {"verdict": "approve"}
}

// Stream yields the reply while the model writes it. Here a local server
// stands in for the Gemini API's streamGenerateContent.
func ExampleProvider_Stream() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, event := range []string{
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"verdict\": "}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"\"approve\"}"}]},"finishReason":"STOP"}],` +
				`"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":6,"totalTokenCount":18}}`,
		} {
			fmt.Fprintf(w, "data: %s\r\n\r\n", event)
		}
	}))
	defer api.Close()

	p, err := gemini.New(&gemini.Options{Model: "gemini-2.5-flash", APIKey: "test", BaseURL: api.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	req := &provider.Request{Messages: []provider.Message{provider.UserMessage("Approve or reject the diff, as JSON.")}}
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
	// "{\"verdict\": "
	// "\"approve\"}"
	// end 18
}
