package choose

import (
	"fmt"
	"strings"

	"github.com/agentio/agentio/provider"
)

// Kinds are the kinds of model a [Table] holds, in the order help texts
// list them.
var Kinds = []string{"openai", "anthropic", "gemini", "ollama"}

// An Adapter builds one kind's provider from the environment.
type Adapter struct {
	// Configured reports whether the environment configures the kind (a
	// key or a server is set); when not, the scripted provider is used.
	Configured func(getenv func(string) string) bool
	// Hint names the variables that would configure the kind.
	Hint string
	// ModelVar names the variable that picks the model, DefaultModel the
	// model used when it is unset.
	ModelVar, DefaultModel string
	// Package names the adapter package, for the description.
	Package string
	// Build makes the provider for model, and says where it runs.
	Build func(getenv func(string) string, model string) (p provider.Provider, where string, err error)
}

// A Table holds an Adapter for each of [Kinds].
type Table map[string]Adapter

// Model returns the model of the given kind (one of [Kinds]) from
// [Compatible], the adapters of the root module, and a line that describes
// it: the real provider when getenv configures the kind (see the package
// doc for the variables), else scripted(), described as "scripted (offline;
// set ... to use a real model)". An unknown kind, or an environment that
// configures the kind wrongly, is an error.
func Model(kind string, getenv func(string) string, scripted func() provider.Provider) (provider.Provider, string, error) {
	return Compatible().Model(kind, getenv, scripted)
}

// Model is the package's Model with t's adapters.
func (t Table) Model(kind string, getenv func(string) string, scripted func() provider.Provider) (provider.Provider, string, error) {
	a, ok := t[kind]
	if !ok {
		return nil, "", fmt.Errorf("unknown provider %q: use one of %s", kind, strings.Join(Kinds, ", "))
	}
	if !a.Configured(getenv) {
		return scripted(), fmt.Sprintf("scripted (offline; set %s to use a real model)", a.Hint), nil
	}
	model := getenv(a.ModelVar)
	if model == "" {
		model = a.DefaultModel
	}
	p, where, err := a.Build(getenv, model)
	if err != nil {
		return nil, "", err
	}
	return p, fmt.Sprintf("%s at %s (provider/%s adapter)", model, where, a.Package), nil
}
