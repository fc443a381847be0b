package main

import (
	"fmt"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openai"
)

// defaultModel is used with OpenAI's own API when AGENTIO_OPENAI_MODEL is unset.
const defaultModel = "gpt-4.1-mini"

// openAIProvider builds the adapter from the environment: OPENAI_API_KEY,
// OPENAI_BASE_URL (an OpenAI-compatible server) and AGENTIO_OPENAI_MODEL.
func openAIProvider(getenv func(string) string) (provider.Provider, string, error) {
	model := getenv("AGENTIO_OPENAI_MODEL")
	baseURL := getenv("OPENAI_BASE_URL")
	if model == "" {
		if baseURL != "" {
			return nil, "", fmt.Errorf("OPENAI_BASE_URL is set: set AGENTIO_OPENAI_MODEL to the model your server serves")
		}
		model = defaultModel
	}
	p, err := openai.New(&openai.Options{Model: model, APIKey: getenv("OPENAI_API_KEY"), BaseURL: baseURL})
	if err != nil {
		return nil, "", err
	}
	where := "OpenAI"
	if baseURL != "" {
		where = baseURL
	}
	return p, fmt.Sprintf("%s at %s (provider/openai adapter)", model, where), nil
}
