package main

import (
	"fmt"
	"strings"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/ollama"
	"github.com/agentio/agentio/provider/openai"
)

// chooseModel returns the model the Generate activity calls: the real one
// of the given kind when the environment configures it (openai:
// OPENAI_API_KEY or OPENAI_BASE_URL, with AGENTIO_OPENAI_MODEL; ollama:
// OLLAMA_HOST, with AGENTIO_OLLAMA_MODEL), else the scripted model, with a
// line that says which.
func chooseModel(kind string, getenv func(string) string) (provider.Provider, string, error) {
	switch kind {
	case "openai":
		if getenv("OPENAI_API_KEY") == "" && getenv("OPENAI_BASE_URL") == "" {
			return scriptedModel(), "scripted (offline; set OPENAI_API_KEY or OPENAI_BASE_URL to use a real model)", nil
		}
		model, baseURL := getenv("AGENTIO_OPENAI_MODEL"), getenv("OPENAI_BASE_URL")
		if model == "" {
			if baseURL != "" {
				return nil, "", fmt.Errorf("OPENAI_BASE_URL is set: set AGENTIO_OPENAI_MODEL to the model your server serves")
			}
			model = "gpt-4.1-mini"
		}
		p, err := openai.New(&openai.Options{Model: model, APIKey: getenv("OPENAI_API_KEY"), BaseURL: baseURL})
		if err != nil {
			return nil, "", err
		}
		return p, model + " (provider/openai)", nil
	case "ollama":
		if getenv("OLLAMA_HOST") == "" {
			return scriptedModel(), "scripted (offline; set OLLAMA_HOST to use a real model)", nil
		}
		model := getenv("AGENTIO_OLLAMA_MODEL")
		if model == "" {
			model = "qwen3"
		}
		p, err := ollama.New(&ollama.Options{Model: model, BaseURL: getenv("OLLAMA_HOST")})
		if err != nil {
			return nil, "", err
		}
		return p, model + " (provider/ollama)", nil
	default:
		return nil, "", fmt.Errorf("unknown provider %q: use one of %s", kind, strings.Join([]string{"openai", "ollama"}, ", "))
	}
}
