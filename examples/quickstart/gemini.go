package main

import (
	"fmt"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/gemini"
)

// defaultGeminiModel is used when AGENTIO_GEMINI_MODEL is unset.
const defaultGeminiModel = "gemini-2.5-flash"

// geminiKey returns the Gemini API key from the environment: GEMINI_API_KEY,
// else GOOGLE_API_KEY.
func geminiKey(getenv func(string) string) string {
	if k := getenv("GEMINI_API_KEY"); k != "" {
		return k
	}
	return getenv("GOOGLE_API_KEY")
}

// geminiProvider builds the adapter from the environment: GEMINI_API_KEY
// (or GOOGLE_API_KEY) and AGENTIO_GEMINI_MODEL.
func geminiProvider(getenv func(string) string) (provider.Provider, string, error) {
	model := getenv("AGENTIO_GEMINI_MODEL")
	if model == "" {
		model = defaultGeminiModel
	}
	p, err := gemini.New(&gemini.Options{Model: model, APIKey: geminiKey(getenv)})
	if err != nil {
		return nil, "", err
	}
	return p, fmt.Sprintf("%s at Google (provider/gemini adapter)", model), nil
}
