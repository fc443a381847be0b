package choose

import (
	"fmt"
	"strings"

	"github.com/agentio/agentio/provider"
)

// Kinds are the kinds [Model] knows, in the order help texts list them.
var Kinds = []string{"openai", "anthropic", "gemini", "ollama"}

// Model returns the model of the given kind (one of [Kinds]) and a line
// that describes it: the real provider when getenv configures the kind (see
// the package doc for the variables), else scripted(), described as
// "scripted (offline; set ... to use a real model)". An unknown kind, or an
// environment that configures the kind wrongly, is an error.
func Model(kind string, getenv func(string) string, scripted func() provider.Provider) (provider.Provider, string, error) {
	a, ok := adapters[kind]
	if !ok {
		return nil, "", fmt.Errorf("unknown provider %q: use one of %s", kind, strings.Join(Kinds, ", "))
	}
	if !a.configured(getenv) {
		return scripted(), fmt.Sprintf("scripted (offline; set %s to use a real model)", a.hint), nil
	}
	model := getenv(a.modelVar)
	if model == "" {
		model = a.defaultModel
	}
	p, where, err := a.build(getenv, model)
	if err != nil {
		return nil, "", err
	}
	return p, fmt.Sprintf("%s at %s (provider/%s adapter)", model, where, kind), nil
}
