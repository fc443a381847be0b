package gemini_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/agentio/agentio/enforce"
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
