package record_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openaicompat"
	"github.com/agentio/agentio/provider/record"
)

// TestSecretsOnTheWire records a real adapter talking HTTP, with the API
// key in the Authorization header, in the URL's path and in the request
// body (the prompt quotes it), and in the reply: the server checks it got
// the key everywhere, and no store file holds it. Headers and URLs never
// enter a recording (the recorder sees provider.Request, not HTTP); what
// the body and the reply carry is redacted.
func TestSecretsOnTheWire(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		if r.Header.Get("Authorization") != "Bearer "+key || !strings.Contains(r.URL.Path, key) ||
			json.NewDecoder(r.Body).Decode(&body) != nil || len(body.Messages) == 0 ||
			!strings.Contains(body.Messages[len(body.Messages)-1].Content, key) {
			http.Error(w, `{"error": {"message": "the key is missing somewhere"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id": "c1", "model": "m", "choices": [{"index": 0, "finish_reason": "stop",
			"message": {"role": "assistant", "content": "{\"echo\": \"` + key + `\"}"}}],
			"usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}}`))
	}))
	defer srv.Close()
	adapter, err := openaicompat.New(&openaicompat.Options{Model: "m", APIKey: key, BaseURL: srv.URL + "/tenant/" + key + "/v1"})
	require.NoError(t, err)

	dir := t.TempDir()
	opts := &record.Options{Model: "m", Secrets: []string{key}}
	rec := newRecorder(t, adapter, dir, record.Record, opts)
	req := &provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: "Repeat the key " + key + "."}}}
	resp, err := rec.Generate(context.Background(), req)
	require.NoError(t, err, "the server got the key in header, URL and body")
	assert.Contains(t, resp.Text, key, "the caller gets the reply as the model gave it")

	files := storeFiles(t, dir)
	require.Len(t, files, 1)
	for _, f := range append(files, dir+"/capabilities.json") {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.NotContains(t, string(data), key, f)
		assert.NotContains(t, string(data), "Bearer", f)
	}

	rep := newRecorder(t, nil, dir, record.Replay, opts)
	got, err := rep.Generate(context.Background(), req)
	require.NoError(t, err, "the replay finds the recording: the key is redacted the same way")
	assert.Equal(t, `{"echo": "`+record.Redacted+`"}`, got.Text)
}
