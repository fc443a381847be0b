package main

import (
	"fmt"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/anthropic"
)

// defaultAnthropicModel is used when AGENTIO_ANTHROPIC_MODEL is unset.
const defaultAnthropicModel = "claude-haiku-4-5"

// anthropicProvider builds the adapter from the environment:
// ANTHROPIC_API_KEY and AGENTIO_ANTHROPIC_MODEL.
func anthropicProvider(getenv func(string) string) (provider.Provider, string, error) {
	model := getenv("AGENTIO_ANTHROPIC_MODEL")
	if model == "" {
		model = defaultAnthropicModel
	}
	p, err := anthropic.New(&anthropic.Options{Model: model, APIKey: getenv("ANTHROPIC_API_KEY")})
	if err != nil {
		return nil, "", err
	}
	return p, fmt.Sprintf("%s at Anthropic (provider/anthropic adapter)", model), nil
}
