package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/ollama"
	"github.com/agentio/agentio/provider/providertest"
)

const providerHelp = `the model to call:
  ollama  an Ollama server: OLLAMA_HOST (default http://localhost:11434) and -model
  script  replies read from -script, a JSON array of strings, one a call (offline)
The OpenAI, Anthropic and Gemini adapters are modules of their own
(github.com/agentio/agentio/provider/...): call blueprint.Run from Go to use them.`

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	bpFile := fs.String("blueprint", "", "the agent.json (or its directory) to run (required)")
	paramsFile := fs.String("params", "", `a JSON object of parameters (default {"prompt": ...} from -prompt)`)
	prompt := fs.String("prompt", "", "the prompt, when -params does not give one")
	prov := fs.String("provider", "", providerHelp)
	model := fs.String("model", "", "the model name, for -provider ollama")
	script := fs.String("script", "", "for -provider script: a JSON array of replies")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *bpFile == "" || *prov == "" {
		return &usageError{"run needs -blueprint FILE and -provider NAME"}
	}
	bp, err := blueprint.Load(*bpFile)
	if err != nil {
		return err
	}
	params := map[string]any{}
	if *paramsFile != "" {
		data, err := os.ReadFile(*paramsFile)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, &params); err != nil {
			return fmt.Errorf("%s: not a JSON object: %w", *paramsFile, err)
		}
	}
	if *prompt != "" {
		params["prompt"] = *prompt
	}
	p, err := newProvider(*prov, *model, *script)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	progress := isTerminal(stderr)
	hook := enforce.WithAttemptHook(func(_ context.Context, a enforce.Attempt) {
		if progress {
			fmt.Fprint(stderr, "\r\033[K")
		}
		line := fmt.Sprintf("attempt %d: %s (%s, %d tokens, %s)", a.Number, a.Outcome, a.Mode, a.Usage.TotalTokens, a.Duration.Round(1e6))
		if len(a.Violations) > 0 {
			line += fmt.Sprintf(": %d violations, first %s", len(a.Violations), a.Violations[0])
		}
		fmt.Fprintln(stderr, line)
		if progress {
			fmt.Fprintf(stderr, "attempt %d…", a.Number+1)
		}
	})
	if progress {
		fmt.Fprint(stderr, "attempt 1…")
	}
	r, err := blueprint.Run(ctx, bp, p, params, blueprint.RunSpec{}, blueprint.WithEnforceOptions(hook))
	if progress {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		fmt.Fprintf(stderr, "agentio: run %s: %v\n", bp.Name(), err)
		return &exitError{1}
	}
	out, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n", out)
	return nil
}

// newProvider builds the provider a run asks for.
func newProvider(name, model, script string) (provider.Provider, error) {
	switch name {
	case "ollama":
		return ollama.New(&ollama.Options{Model: model, BaseURL: os.Getenv("OLLAMA_HOST")})
	case "script":
		if script == "" {
			return nil, &usageError{"-provider script needs -script FILE"}
		}
		data, err := os.ReadFile(script)
		if err != nil {
			return nil, err
		}
		var replies []string
		if err := json.Unmarshal(data, &replies); err != nil {
			return nil, fmt.Errorf("%s: not a JSON array of strings: %w", script, err)
		}
		var rs []providertest.Reply
		for _, r := range replies {
			rs = append(rs, providertest.Text(r))
		}
		return providertest.New(rs...), nil
	case "openai", "anthropic", "gemini":
		return nil, &usageError{fmt.Sprintf("-provider %s: its adapter is a module of its own; use it from Go (blueprint.Run), or run an OpenAI-compatible model through Ollama", name)}
	default:
		return nil, &usageError{fmt.Sprintf("-provider %q: use %s", name, strings.Join([]string{"ollama", "script"}, " or "))}
	}
}

// isTerminal reports whether w is a terminal, for the progress line.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
