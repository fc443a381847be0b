package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/examples/internal/choose"
	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/provider/providertest"
)

// TestOutput runs the quickstart offline, as `go run ./examples/quickstart`
// does without a key, and checks what it prints against
// testdata/output.golden (go test . -update rewrites it).
func TestOutput(t *testing.T) {
	p, name, err := choose.Model("openai", func(string) string { return "" }, scripted)
	require.NoError(t, err)
	golden.CheckOutput(t, "output", func(w io.Writer) error { return run(context.Background(), w, p, name) })
}

// TestNoValidAnswer: a model that never conforms makes run print the
// error JSON and return the *enforce.ValidationError (main exits 1).
func TestNoValidAnswer(t *testing.T) {
	wrong := providertest.Text(`{"findings": [], "counts": {"blocker": "none"}}`)
	p := providertest.New(wrong, wrong, wrong)
	var out strings.Builder
	err := run(context.Background(), &out, p, "always wrong")
	var ve *enforce.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Len(t, ve.Attempts, 3, "the first call and two re-asks")
	assert.Contains(t, out.String(), "no valid answer after 3 attempt(s)")
	assert.Contains(t, out.String(), `"error": "OutputSchemaValidationError"`)
	assert.Contains(t, out.String(), `"path": "$.counts.blocker"`)
	assert.Zero(t, p.Remaining())
}

// TestOllamaServer runs the quickstart with -provider ollama against a
// local stand-in for the server: the first reply misses a field, the
// re-ask's answer is valid.
func TestOllamaServer(t *testing.T) {
	replies := []string{
		`{"findings":[{"severity":"blocker","file":"server/files.go","line":41,"description":"Path traversal."}],"counts":{"blocker":1,"major":0,"minor":0,"nit":0}}`,
		`{"findings":[{"severity":"blocker","file":"server/files.go","line":41,"description":"Path traversal.","raisedBy":"security"}],"counts":{"blocker":1,"major":0,"minor":0,"nit":0}}`,
	}
	var formats []bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		_ = json.NewDecoder(r.Body).Decode(&req)
		formats = append(formats, req["format"] != nil)
		text, _ := json.Marshal(replies[0])
		replies = replies[1:]
		_, _ = io.WriteString(w, `{"model":"qwen3","message":{"role":"assistant","content":`+string(text)+`},"done":true,"done_reason":"stop","prompt_eval_count":300,"eval_count":90}`)
	}))
	defer srv.Close()
	p, name, err := choose.Model("ollama", func(k string) string { return map[string]string{"OLLAMA_HOST": srv.URL}[k] }, scripted)
	require.NoError(t, err)
	var out strings.Builder
	require.NoError(t, run(context.Background(), &out, p, name))
	assert.Contains(t, out.String(), "attempt 1 (native mode): invalid")
	assert.Contains(t, out.String(), "valid after 2 attempt(s) in native mode, 780 tokens in all")
	assert.Equal(t, []bool{true, true}, formats, "the schema goes out as the format")
}

// TestGeminiServer runs the quickstart with -provider gemini against a
// local stand-in for Gemini's OpenAI-compatible endpoint
// (GOOGLE_GEMINI_BASE_URL): the first reply misses a field, the re-ask's
// answer is valid.
func TestGeminiServer(t *testing.T) {
	replies := []string{
		`{"findings":[{"severity":"blocker","file":"server/files.go","line":41,"description":"Path traversal."}],"counts":{"blocker":1,"major":0,"minor":0,"nit":0}}`,
		`{"findings":[{"severity":"blocker","file":"server/files.go","line":41,"description":"Path traversal.","raisedBy":"security"}],"counts":{"blocker":1,"major":0,"minor":0,"nit":0}}`,
	}
	var schemas []bool
	var keys, paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ResponseFormat map[string]any `json:"response_format"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		schemas = append(schemas, req.ResponseFormat["json_schema"] != nil)
		keys = append(keys, r.Header.Get("Authorization"))
		paths = append(paths, r.URL.Path)
		text, _ := json.Marshal(replies[0])
		replies = replies[1:]
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"model":"gemini-2.5-flash","choices":[{"index":0,"message":{"role":"assistant","content":`+string(text)+`},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":300,"completion_tokens":90,"total_tokens":390}}`)
	}))
	defer srv.Close()
	env := map[string]string{"GEMINI_API_KEY": "g-test", "GOOGLE_GEMINI_BASE_URL": srv.URL + "/v1beta/openai"}
	p, name, err := choose.Model("gemini", func(k string) string { return env[k] }, scripted)
	require.NoError(t, err)
	var out strings.Builder
	require.NoError(t, run(context.Background(), &out, p, name))
	assert.Contains(t, out.String(), "attempt 1 (native mode): invalid")
	assert.Contains(t, out.String(), "valid after 2 attempt(s) in native mode, 780 tokens in all")
	assert.Equal(t, []bool{true, true}, schemas, "the schema goes out as the response format")
	assert.Equal(t, []string{"Bearer g-test", "Bearer g-test"}, keys)
	assert.Equal(t, "/v1beta/openai/chat/completions", paths[0])
}
