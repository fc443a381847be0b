package ollama_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentio/agentio/provider/ollama"
	"github.com/agentio/agentio/provider/providertest"
)

// FuzzStream feeds any streamed body to Stream: it never panics, yields
// either chunks ending with at most one Response or an error that is a
// *provider.Error, and Collect agrees with it.
func FuzzStream(f *testing.F) {
	f.Add(textLine("hi") + line(`{"role":"assistant","content":"","thinking":"t"}`) + doneLine("stop"))
	f.Add(line(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{"a":1}}},{"id":"x","function":{"name":"g"}}]}`) + doneLine("stop"))
	f.Add(textLine("a") + `{"error":"boom"}` + "\n")
	f.Add("\r\n" + strings.TrimSuffix(doneLine("length"), "\n"))
	f.Fuzz(func(t *testing.T, body string) {
		rt := roundTrip(func(*http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(body)), Header: http.Header{}}, nil
		})
		p, err := ollama.New(&ollama.Options{Model: "m", HTTPClient: &http.Client{Transport: rt}})
		if err != nil {
			t.Fatal(err)
		}
		providertest.CheckStream(t, p.Stream(context.Background(), request), p.Stream(context.Background(), request))
	})
}
