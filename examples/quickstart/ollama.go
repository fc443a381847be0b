package main

import (
	"fmt"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/ollama"
)

// defaultOllamaModel is used when AGENTIO_OLLAMA_MODEL is unset.
const defaultOllamaModel = "qwen3"

// ollamaProvider builds the adapter from the environment: OLLAMA_HOST (the
// server) and AGENTIO_OLLAMA_MODEL.
func ollamaProvider(getenv func(string) string) (provider.Provider, string, error) {
	model := getenv("AGENTIO_OLLAMA_MODEL")
	if model == "" {
		model = defaultOllamaModel
	}
	host := getenv("OLLAMA_HOST")
	p, err := ollama.New(&ollama.Options{Model: model, BaseURL: host})
	if err != nil {
		return nil, "", err
	}
	return p, fmt.Sprintf("%s at %s (provider/ollama adapter)", model, host), nil
}
