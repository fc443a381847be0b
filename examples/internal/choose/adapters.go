package choose

import (
	"fmt"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/anthropic"
	"github.com/agentio/agentio/provider/gemini"
	"github.com/agentio/agentio/provider/ollama"
	"github.com/agentio/agentio/provider/openai"
)

// An adapter builds one kind's provider from the environment.
type adapter struct {
	// configured reports whether the environment configures the kind (a
	// key or a server is set); when not, Model falls back to the scripted
	// provider.
	configured func(getenv func(string) string) bool
	// hint names the variables that would configure the kind.
	hint string
	// modelVar names the variable that picks the model, defaultModel the
	// model used when it is unset.
	modelVar, defaultModel string
	// build makes the provider for model, and says where it runs.
	build func(getenv func(string) string, model string) (p provider.Provider, where string, err error)
}

// adapters are the kinds by name; Kinds lists them in order.
var adapters = map[string]adapter{
	"openai": {
		configured: func(getenv func(string) string) bool {
			return getenv("OPENAI_API_KEY") != "" || getenv("OPENAI_BASE_URL") != ""
		},
		hint:         "OPENAI_API_KEY or OPENAI_BASE_URL",
		modelVar:     "AGENTIO_OPENAI_MODEL",
		defaultModel: "gpt-4.1-mini", // on OpenAI's own API only
		build:        newOpenAI,
	},
	"anthropic": {
		configured:   func(getenv func(string) string) bool { return getenv("ANTHROPIC_API_KEY") != "" },
		hint:         "ANTHROPIC_API_KEY",
		modelVar:     "AGENTIO_ANTHROPIC_MODEL",
		defaultModel: "claude-haiku-4-5",
		build:        newAnthropic,
	},
	"gemini": {
		configured:   func(getenv func(string) string) bool { return geminiKey(getenv) != "" },
		hint:         "GEMINI_API_KEY or GOOGLE_API_KEY",
		modelVar:     "AGENTIO_GEMINI_MODEL",
		defaultModel: "gemini-2.5-flash",
		build:        newGemini,
	},
	"ollama": {
		configured:   func(getenv func(string) string) bool { return getenv("OLLAMA_HOST") != "" },
		hint:         "OLLAMA_HOST",
		modelVar:     "AGENTIO_OLLAMA_MODEL",
		defaultModel: "qwen3",
		build:        newOllama,
	},
}

// newOpenAI builds the adapter with OPENAI_API_KEY, at OpenAI or at the
// OpenAI-compatible server OPENAI_BASE_URL names, whose model must be named
// by AGENTIO_OPENAI_MODEL: the default is OpenAI's.
func newOpenAI(getenv func(string) string, model string) (provider.Provider, string, error) {
	baseURL := getenv("OPENAI_BASE_URL")
	if baseURL == "" {
		p, err := openai.New(&openai.Options{Model: model, APIKey: getenv("OPENAI_API_KEY")})
		return p, "OpenAI", err
	}
	if getenv("AGENTIO_OPENAI_MODEL") == "" {
		return nil, "", fmt.Errorf("OPENAI_BASE_URL is set: set AGENTIO_OPENAI_MODEL to the model your server serves")
	}
	p, err := openai.New(&openai.Options{Model: model, APIKey: getenv("OPENAI_API_KEY"), BaseURL: baseURL})
	return p, baseURL, err
}

// newAnthropic builds the adapter with ANTHROPIC_API_KEY.
func newAnthropic(getenv func(string) string, model string) (provider.Provider, string, error) {
	p, err := anthropic.New(&anthropic.Options{Model: model, APIKey: getenv("ANTHROPIC_API_KEY")})
	return p, "Anthropic", err
}

// newGemini builds the adapter with the key geminiKey finds. The SDK itself
// reads GOOGLE_GEMINI_BASE_URL.
func newGemini(getenv func(string) string, model string) (provider.Provider, string, error) {
	p, err := gemini.New(&gemini.Options{Model: model, APIKey: geminiKey(getenv)})
	return p, "Google", err
}

// geminiKey returns the Gemini API key from the environment: GEMINI_API_KEY,
// else GOOGLE_API_KEY.
func geminiKey(getenv func(string) string) string {
	if k := getenv("GEMINI_API_KEY"); k != "" {
		return k
	}
	return getenv("GOOGLE_API_KEY")
}

// newOllama builds the adapter for the server OLLAMA_HOST names.
func newOllama(getenv func(string) string, model string) (provider.Provider, string, error) {
	host := getenv("OLLAMA_HOST")
	p, err := ollama.New(&ollama.Options{Model: model, BaseURL: host})
	return p, host, err
}
