package openaicompat_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openaicompat"
	"github.com/agentio/agentio/provider/providertest"
)

// bodyTransport answers every request with the status and body it holds.
type bodyTransport struct {
	status int
	body   string
}

func (b bodyTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: b.status, Body: io.NopCloser(strings.NewReader(b.body)), Header: http.Header{}}, nil
}

// FuzzReply feeds any body, with any status, to the adapter: it never
// panics, and returns either a response or a *provider.Error.
func FuzzReply(f *testing.F) {
	f.Add(200, textCompletion("hi", "stop"))
	f.Add(200, completion(`{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":{"a":[1]}}}]}`, "stop"))
	f.Add(200, `{"choices":[{"message":{"content":[{"type":"text","text":"x"}]}}]}`)
	f.Add(400, `[{"error":{"code":400,"message":"bad schema","status":"INVALID_ARGUMENT"}}]`)
	f.Add(422, `{"detail":[{"loc":["body"],"msg":"x"}]}`)
	f.Add(500, "<html>oops</html>")
	f.Fuzz(func(t *testing.T, status int, body string) {
		if status < 200 || status > 599 {
			return
		}
		p, err := openaicompat.New(&openaicompat.Options{Model: "m", HTTPClient: &http.Client{Transport: bodyTransport{status, body}}})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := p.Generate(context.Background(), &provider.Request{Output: &provider.OutputSpec{Format: provider.FormatJSONObject}})
		if err != nil {
			if provider.KindOf(err) == "" {
				t.Fatalf("unclassified error %v", err)
			}
			if _, ok := err.(*provider.Error); !ok {
				t.Fatalf("error %T, want *provider.Error", err)
			}
			return
		}
		if resp == nil {
			t.Fatal("nil response without an error")
		}
	})
}

// FuzzStream feeds any streamed body to Stream: it never panics, yields
// either chunks ending with at most one Response or an error that is a
// *provider.Error, and Collect agrees with it.
func FuzzStream(f *testing.F) {
	f.Add("data: " + chunk(`{"content":"hi"}`, "") + "\n\ndata: " + chunk(`{}`, "stop") + "\n\ndata: " + usageChunk + "\n\ndata: [DONE]\n\n")
	f.Add("data: " + chunk(`{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{"}},{"function":{"arguments":{"a":1}}}]}`, "tool_calls") + "\r\n\r\n")
	f.Add(": ping\n\nevent: error\ndata: {\"error\":{\"message\":\"x\"}}\n\n")
	f.Add("data: {\"choices\":[{\"delta\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}]},\"finish_reason\":\"length\"}]}\n\n")
	f.Fuzz(func(t *testing.T, body string) {
		p, err := openaicompat.New(&openaicompat.Options{Model: "m", HTTPClient: &http.Client{Transport: bodyTransport{200, body}}})
		if err != nil {
			t.Fatal(err)
		}
		providertest.CheckStream(t, p.Stream(context.Background(), request), p.Stream(context.Background(), request))
	})
}
