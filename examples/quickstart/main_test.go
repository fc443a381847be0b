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
	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/provider/providertest"
)

// TestOutput runs the quickstart offline, as `go run ./examples/quickstart`
// does without a key, and checks what it prints against
// testdata/output.golden (go test . -update rewrites it).
func TestOutput(t *testing.T) {
	p, name, err := chooseProvider("openai", func(string) string { return "" })
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

func TestChooseProvider(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	tests := []struct {
		name    string
		kind    string
		env     map[string]string
		want    string // the provider's description
		wantErr string
	}{
		{name: "openai offline", kind: "openai", want: "scripted (offline; set OPENAI_API_KEY or OPENAI_BASE_URL to use a real model)"},
		{name: "openai", kind: "openai", env: map[string]string{"OPENAI_API_KEY": "sk-test"}, want: "gpt-4.1-mini at OpenAI (provider/openai adapter)"},
		{name: "openai-compatible server", kind: "openai", env: map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1", "AGENTIO_OPENAI_MODEL": "qwen3"},
			want: "qwen3 at http://localhost:11434/v1 (provider/openai adapter)"},
		{name: "openai-compatible server without a model", kind: "openai", env: map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1"}, wantErr: "AGENTIO_OPENAI_MODEL"},
		{name: "anthropic offline", kind: "anthropic", env: map[string]string{"OPENAI_API_KEY": "sk-test"}, want: "scripted (offline; set ANTHROPIC_API_KEY to use a real model)"},
		{name: "anthropic", kind: "anthropic", env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test"}, want: "claude-haiku-4-5 at Anthropic (provider/anthropic adapter)"},
		{name: "gemini offline", kind: "gemini", env: map[string]string{"OPENAI_API_KEY": "sk-test"}, want: "scripted (offline; set GEMINI_API_KEY or GOOGLE_API_KEY to use a real model)"},
		{name: "gemini", kind: "gemini", env: map[string]string{"GEMINI_API_KEY": "g-test"}, want: "gemini-2.5-flash at Google (provider/gemini adapter)"},
		{name: "gemini google key, model", kind: "gemini", env: map[string]string{"GOOGLE_API_KEY": "g-test", "AGENTIO_GEMINI_MODEL": "gemini-2.5-pro"},
			want: "gemini-2.5-pro at Google (provider/gemini adapter)"},
		{name: "anthropic model", kind: "anthropic", env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "AGENTIO_ANTHROPIC_MODEL": "claude-sonnet-4-5"},
			want: "claude-sonnet-4-5 at Anthropic (provider/anthropic adapter)"},
		{name: "ollama offline", kind: "ollama", want: "scripted (offline; set OLLAMA_HOST to use a real model)"},
		{name: "ollama", kind: "ollama", env: map[string]string{"OLLAMA_HOST": "127.0.0.1:11434", "AGENTIO_OLLAMA_MODEL": "llama3.2"},
			want: "llama3.2 at 127.0.0.1:11434 (provider/ollama adapter)"},
		{name: "ollama default model", kind: "ollama", env: map[string]string{"OLLAMA_HOST": "http://gpu-box:11434"}, want: "qwen3 at http://gpu-box:11434 (provider/ollama adapter)"},
		{name: "unknown provider", kind: "mistral", wantErr: `unknown provider "mistral"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, name, err := chooseProvider(tt.kind, env(tt.env))
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.NotNil(t, p)
			assert.Equal(t, tt.want, name)
		})
	}
}

// TestProvidersListed: every -provider choice is listed, in the flag's
// help, once.
func TestProvidersListed(t *testing.T) {
	assert.Len(t, providerNames, len(providers))
	for _, name := range providerNames {
		assert.Contains(t, providers, name)
	}
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
	p, name, err := chooseProvider("ollama", func(k string) string { return map[string]string{"OLLAMA_HOST": srv.URL}[k] })
	require.NoError(t, err)
	var out strings.Builder
	require.NoError(t, run(context.Background(), &out, p, name))
	assert.Contains(t, out.String(), "attempt 1 (native mode): invalid")
	assert.Contains(t, out.String(), "valid after 2 attempt(s) in native mode, 780 tokens in all")
	assert.Equal(t, []bool{true, true}, formats, "the schema goes out as the format")
}

// TestGeminiServer runs the quickstart with -provider gemini against a
// local stand-in for the Gemini API (GOOGLE_GEMINI_BASE_URL, which the SDK
// reads): the first reply misses a field, the re-ask's answer is valid.
func TestGeminiServer(t *testing.T) {
	replies := []string{
		`{"findings":[{"severity":"blocker","file":"server/files.go","line":41,"description":"Path traversal."}],"counts":{"blocker":1,"major":0,"minor":0,"nit":0}}`,
		`{"findings":[{"severity":"blocker","file":"server/files.go","line":41,"description":"Path traversal.","raisedBy":"security"}],"counts":{"blocker":1,"major":0,"minor":0,"nit":0}}`,
	}
	var schemas []bool
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			GenerationConfig map[string]any `json:"generationConfig"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		schemas = append(schemas, req.GenerationConfig["responseJsonSchema"] != nil)
		keys = append(keys, r.Header.Get("x-goog-api-key"))
		text, _ := json.Marshal(replies[0])
		replies = replies[1:]
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":`+string(text)+`}]},"finishReason":"STOP"}],`+
			`"usageMetadata":{"promptTokenCount":300,"candidatesTokenCount":90,"totalTokenCount":390}}`)
	}))
	defer srv.Close()
	t.Setenv("GOOGLE_GEMINI_BASE_URL", srv.URL)
	p, name, err := chooseProvider("gemini", func(k string) string { return map[string]string{"GEMINI_API_KEY": "g-test"}[k] })
	require.NoError(t, err)
	var out strings.Builder
	require.NoError(t, run(context.Background(), &out, p, name))
	assert.Contains(t, out.String(), "attempt 1 (native mode): invalid")
	assert.Contains(t, out.String(), "valid after 2 attempt(s) in native mode, 780 tokens in all")
	assert.Equal(t, []bool{true, true}, schemas, "the schema goes out as responseJsonSchema")
	assert.Equal(t, []string{"g-test", "g-test"}, keys)
}
