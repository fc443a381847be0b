package choose

import (
	"fmt"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/ollama"
	"github.com/agentio/agentio/provider/openaicompat"
)

// The OpenAI-compatible endpoints of Anthropic and Google, which
// provider/openaicompat reaches on net/http alone.
const (
	anthropicCompatURL = "https://api.anthropic.com/v1"
	geminiCompatURL    = "https://generativelanguage.googleapis.com/v1beta/openai"
)

// Compatible returns the adapters of the root module: provider/openaicompat
// for OpenAI and for the OpenAI-compatible endpoints of Anthropic and
// Gemini, and provider/ollama. An example built on them compiles no SDK.
func Compatible() Table {
	return Table{
		"openai": {
			Configured: func(getenv func(string) string) bool {
				return getenv("OPENAI_API_KEY") != "" || getenv("OPENAI_BASE_URL") != ""
			},
			Hint:         "OPENAI_API_KEY or OPENAI_BASE_URL",
			ModelVar:     "AGENTIO_OPENAI_MODEL",
			DefaultModel: "gpt-4.1-mini", // on OpenAI's own API only
			Package:      "openaicompat",
			Build:        compatOpenAI,
		},
		"anthropic": {
			Configured:   func(getenv func(string) string) bool { return getenv("ANTHROPIC_API_KEY") != "" },
			Hint:         "ANTHROPIC_API_KEY",
			ModelVar:     "AGENTIO_ANTHROPIC_MODEL",
			DefaultModel: "claude-haiku-4-5",
			Package:      "openaicompat",
			Build:        compatAnthropic,
		},
		"gemini": {
			Configured:   func(getenv func(string) string) bool { return GeminiKey(getenv) != "" },
			Hint:         "GEMINI_API_KEY or GOOGLE_API_KEY",
			ModelVar:     "AGENTIO_GEMINI_MODEL",
			DefaultModel: "gemini-2.5-flash",
			Package:      "openaicompat",
			Build:        compatGemini,
		},
		"ollama": {
			Configured:   func(getenv func(string) string) bool { return getenv("OLLAMA_HOST") != "" },
			Hint:         "OLLAMA_HOST",
			ModelVar:     "AGENTIO_OLLAMA_MODEL",
			DefaultModel: "qwen3",
			Package:      "ollama",
			Build:        nativeOllama,
		},
	}
}

// compatOpenAI reaches OpenAI with OPENAI_API_KEY, or the OpenAI-compatible
// server OPENAI_BASE_URL names, whose model must be named by
// AGENTIO_OPENAI_MODEL: the default is OpenAI's.
func compatOpenAI(getenv func(string) string, model string) (provider.Provider, string, error) {
	baseURL := getenv("OPENAI_BASE_URL")
	if baseURL != "" && getenv("AGENTIO_OPENAI_MODEL") == "" {
		return nil, "", fmt.Errorf("OPENAI_BASE_URL is set: set AGENTIO_OPENAI_MODEL to the model your server serves")
	}
	p, err := openaicompat.New(&openaicompat.Options{Model: model, APIKey: getenv("OPENAI_API_KEY"), BaseURL: baseURL})
	if baseURL == "" {
		return p, "OpenAI", err
	}
	return p, baseURL, err
}

// compatAnthropic reaches Anthropic's OpenAI-compatible endpoint (or
// ANTHROPIC_BASE_URL) with ANTHROPIC_API_KEY. The endpoint ignores
// response_format, so the model is declared with tools only and the loop
// uses a forced tool call.
func compatAnthropic(getenv func(string) string, model string) (provider.Provider, string, error) {
	p, err := openaicompat.New(&openaicompat.Options{
		Name: "anthropic", Model: model, APIKey: getenv("ANTHROPIC_API_KEY"),
		BaseURL:      orDefault(getenv("ANTHROPIC_BASE_URL"), anthropicCompatURL),
		Capabilities: &provider.Capabilities{Tools: true, ForcedTool: true},
	})
	return p, "Anthropic", err
}

// compatGemini reaches Gemini's OpenAI-compatible endpoint (or
// GOOGLE_GEMINI_BASE_URL) with the key GeminiKey finds, with native
// schemas in the gemini dialect.
func compatGemini(getenv func(string) string, model string) (provider.Provider, string, error) {
	p, err := openaicompat.New(&openaicompat.Options{
		Name: "gemini", Model: model, APIKey: GeminiKey(getenv),
		BaseURL: orDefault(getenv("GOOGLE_GEMINI_BASE_URL"), geminiCompatURL),
		Capabilities: &provider.Capabilities{
			NativeSchema: true, JSONMode: true, Tools: true, ForcedTool: true, Dialect: "gemini",
		},
	})
	return p, "Google", err
}

// GeminiKey returns the Gemini API key from the environment:
// GEMINI_API_KEY, else GOOGLE_API_KEY.
func GeminiKey(getenv func(string) string) string {
	if k := getenv("GEMINI_API_KEY"); k != "" {
		return k
	}
	return getenv("GOOGLE_API_KEY")
}

// nativeOllama builds the adapter for the server OLLAMA_HOST names.
func nativeOllama(getenv func(string) string, model string) (provider.Provider, string, error) {
	host := getenv("OLLAMA_HOST")
	p, err := ollama.New(&ollama.Options{Model: model, BaseURL: host})
	return p, host, err
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
