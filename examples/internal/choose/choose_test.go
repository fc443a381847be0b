package choose

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// env returns a getenv that reads vars.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// scripted is the fallback the tests give Model.
func scripted() provider.Provider { return providertest.New() }

func TestModel(t *testing.T) {
	tests := []struct {
		name    string
		kind    string
		env     map[string]string
		want    string // the provider's description
		wantErr string
	}{
		{name: "openai offline", kind: "openai", want: "scripted (offline; set OPENAI_API_KEY or OPENAI_BASE_URL to use a real model)"},
		{name: "openai", kind: "openai", env: map[string]string{"OPENAI_API_KEY": "sk-test"}, want: "gpt-4.1-mini at OpenAI (provider/openaicompat adapter)"},
		{name: "openai model", kind: "openai", env: map[string]string{"OPENAI_API_KEY": "sk-test", "AGENTIO_OPENAI_MODEL": "gpt-4.1"},
			want: "gpt-4.1 at OpenAI (provider/openaicompat adapter)"},
		{name: "openai-compatible server", kind: "openai", env: map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1", "AGENTIO_OPENAI_MODEL": "qwen3"},
			want: "qwen3 at http://localhost:11434/v1 (provider/openaicompat adapter)"},
		{name: "openai-compatible server without a model", kind: "openai", env: map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1"}, wantErr: "AGENTIO_OPENAI_MODEL"},
		{name: "anthropic offline", kind: "anthropic", env: map[string]string{"OPENAI_API_KEY": "sk-test"}, want: "scripted (offline; set ANTHROPIC_API_KEY to use a real model)"},
		{name: "anthropic", kind: "anthropic", env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test"}, want: "claude-haiku-4-5 at Anthropic (provider/openaicompat adapter)"},
		{name: "anthropic model", kind: "anthropic", env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "AGENTIO_ANTHROPIC_MODEL": "claude-sonnet-4-5"},
			want: "claude-sonnet-4-5 at Anthropic (provider/openaicompat adapter)"},
		{name: "gemini offline", kind: "gemini", env: map[string]string{"OPENAI_API_KEY": "sk-test"}, want: "scripted (offline; set GEMINI_API_KEY or GOOGLE_API_KEY to use a real model)"},
		{name: "gemini", kind: "gemini", env: map[string]string{"GEMINI_API_KEY": "g-test"}, want: "gemini-2.5-flash at Google (provider/openaicompat adapter)"},
		{name: "gemini google key, model", kind: "gemini", env: map[string]string{"GOOGLE_API_KEY": "g-test", "AGENTIO_GEMINI_MODEL": "gemini-2.5-pro"},
			want: "gemini-2.5-pro at Google (provider/openaicompat adapter)"},
		{name: "ollama offline", kind: "ollama", want: "scripted (offline; set OLLAMA_HOST to use a real model)"},
		{name: "ollama", kind: "ollama", env: map[string]string{"OLLAMA_HOST": "127.0.0.1:11434", "AGENTIO_OLLAMA_MODEL": "llama3.2"},
			want: "llama3.2 at 127.0.0.1:11434 (provider/ollama adapter)"},
		{name: "ollama default model", kind: "ollama", env: map[string]string{"OLLAMA_HOST": "http://gpu-box:11434"}, want: "qwen3 at http://gpu-box:11434 (provider/ollama adapter)"},
		{name: "unknown provider", kind: "mistral", wantErr: `unknown provider "mistral": use one of openai, anthropic, gemini, ollama`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, name, err := Model(tt.kind, env(tt.env), scripted)
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.NotNil(t, p)
			assert.Equal(t, tt.want, name)
			_, isScripted := p.(*providertest.Provider)
			assert.Equal(t, strings.HasPrefix(name, "scripted"), isScripted, "the scripted provider is the fallback, and only it")
		})
	}
}

// TestKindsListed: every kind is listed in Kinds, once.
func TestKindsListed(t *testing.T) {
	assert.Len(t, Kinds, len(Compatible()))
	for _, name := range Kinds {
		assert.Contains(t, Compatible(), name)
	}
}

// TestModelCallsServer points each kind at a local stand-in for its
// server, through the variables that name it, and checks that a call
// reaches it with the chosen model and the key. The stand-in refuses the
// call: what is checked is where it went, not the adapter's parsing, which
// the adapters' own tests cover.
func TestModelCallsServer(t *testing.T) {
	tests := []struct {
		kind    string
		env     func(url string) map[string]string
		wantKey string // what a header carries
	}{
		{kind: "openai", env: func(url string) map[string]string {
			return map[string]string{"OPENAI_BASE_URL": url + "/v1", "OPENAI_API_KEY": "sk-test", "AGENTIO_OPENAI_MODEL": "test-model"}
		}, wantKey: "sk-test"},
		{kind: "anthropic", env: func(url string) map[string]string {
			return map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "AGENTIO_ANTHROPIC_MODEL": "test-model", "ANTHROPIC_BASE_URL": url + "/v1"}
		}, wantKey: "sk-ant-test"},
		{kind: "gemini", env: func(url string) map[string]string {
			return map[string]string{"GOOGLE_API_KEY": "g-test", "AGENTIO_GEMINI_MODEL": "test-model", "GOOGLE_GEMINI_BASE_URL": url + "/v1beta/openai"}
		}, wantKey: "g-test"},
		{kind: "ollama", env: func(url string) map[string]string {
			return map[string]string{"OLLAMA_HOST": url, "AGENTIO_OLLAMA_MODEL": "test-model"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			var (
				mu   sync.Mutex
				seen []string
			)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				seen = append(seen, r.URL.Path+" "+string(body)+" "+r.Header.Get("Authorization")+r.Header.Get("X-Api-Key")+r.Header.Get("X-Goog-Api-Key"))
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, `{"error": {"message": "refused by the test server", "type": "invalid_request_error"}}`)
			}))
			defer srv.Close()
			p, name, err := Model(tt.kind, env(tt.env(srv.URL)), scripted)
			require.NoError(t, err)
			assert.Contains(t, name, "test-model at ")

			_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("Hello.")}})
			require.Error(t, err, "the test server refuses every call")
			mu.Lock()
			defer mu.Unlock()
			require.NotEmpty(t, seen, "the call reached the server")
			assert.Contains(t, seen[0], "test-model")
			assert.Contains(t, seen[0], tt.wantKey)
		})
	}
}
