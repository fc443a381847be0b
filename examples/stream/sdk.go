package main

import (
	"fmt"

	"github.com/agentio/agentio/examples/internal/choose"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/anthropic"
	"github.com/agentio/agentio/provider/gemini"
	"github.com/agentio/agentio/provider/openai"
)

// sdkAdapters are the kinds this example streams from through the SDK
// adapters (provider/openai, provider/anthropic, provider/gemini, each its
// own module), read from the same variables as choose.Compatible; Ollama
// has no SDK, so it keeps provider/ollama.
func sdkAdapters() choose.Table {
	t := choose.Compatible()
	openaiKind, anthropicKind, geminiKind := t["openai"], t["anthropic"], t["gemini"]
	openaiKind.Package, openaiKind.Build = "openai", sdkOpenAI
	anthropicKind.Package, anthropicKind.Build = "anthropic", sdkAnthropic
	geminiKind.Package, geminiKind.Build = "gemini", sdkGemini
	t["openai"], t["anthropic"], t["gemini"] = openaiKind, anthropicKind, geminiKind
	return t
}

// sdkOpenAI builds the SDK adapter with OPENAI_API_KEY, at OpenAI or at the
// OpenAI-compatible server OPENAI_BASE_URL names, whose model must be named
// by AGENTIO_OPENAI_MODEL.
func sdkOpenAI(getenv func(string) string, model string) (provider.Provider, string, error) {
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

// sdkAnthropic builds the SDK adapter with ANTHROPIC_API_KEY (the SDK reads
// ANTHROPIC_BASE_URL itself).
func sdkAnthropic(getenv func(string) string, model string) (provider.Provider, string, error) {
	p, err := anthropic.New(&anthropic.Options{Model: model, APIKey: getenv("ANTHROPIC_API_KEY")})
	return p, "Anthropic", err
}

// sdkGemini builds the SDK adapter with the key choose.GeminiKey finds (the
// SDK reads GOOGLE_GEMINI_BASE_URL itself).
func sdkGemini(getenv func(string) string, model string) (provider.Provider, string, error) {
	p, err := gemini.New(&gemini.Options{Model: model, APIKey: choose.GeminiKey(getenv)})
	return p, "Google", err
}
