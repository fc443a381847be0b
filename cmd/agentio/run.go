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
	"github.com/agentio/agentio/internal/clip"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/ollama"
	"github.com/agentio/agentio/provider/openaicompat"
	"github.com/agentio/agentio/provider/providertest"
)

const providerHelp = `the model to call:
  openai     OpenAI's Chat Completions: OPENAI_API_KEY; OPENAI_BASE_URL for another
             OpenAI-compatible server (vLLM, LM Studio, OpenRouter, ...)
  anthropic  Claude through Anthropic's OpenAI-compatible endpoint, in tool mode:
             ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL for a proxy)
  gemini     Gemini through Google's OpenAI-compatible endpoint: GEMINI_API_KEY or
             GOOGLE_API_KEY (GOOGLE_GEMINI_BASE_URL for a proxy)
  ollama     an Ollama server: OLLAMA_HOST (default http://localhost:11434)
  script     replies read from -script, a JSON array of strings, one a call (offline;
             with -stream, each streams in pieces of 8 bytes)
-model picks the model; each provider has a default. For the native APIs of
Anthropic and Gemini (their own structured outputs), call blueprint.Run from Go
with the adapters github.com/agentio/agentio/provider/{anthropic,gemini}.`

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	bpFile := fs.String("blueprint", "", "the agent.json (or its directory) to run (required)")
	paramsFile := fs.String("params", "", `a JSON object of parameters (default {"prompt": ...} from -prompt)`)
	prompt := fs.String("prompt", "", "the prompt, when -params does not give one")
	prov := fs.String("provider", "", providerHelp)
	model := fs.String("model", "", "the model name (default: the provider's, see -provider)")
	script := fs.String("script", "", "for -provider script: a JSON array of replies")
	stream := fs.Bool("stream", false, "stream the replies: show the value on stderr as it is written, and stop a\n"+
		"reply as soon as a finished part of it breaks the schema (it is re-asked at once)")
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
	p, err := newProvider(*prov, *model, *script, *stream)
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
		if a.StoppedEarly {
			line += ", stopped early"
		}
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
	opts := []blueprint.Option{blueprint.WithEnforceOptions(hook)}
	if *stream {
		opts = append(opts, blueprint.WithEnforceOptions(enforce.WithPartials(func(part enforce.Partial) {
			if progress {
				fmt.Fprintf(stderr, "\r\033[Kattempt %d… %s", part.Attempt, clip.Ellipsis(string(part.JSON), partialWidth))
			} else {
				fmt.Fprintf(stderr, "attempt %d partial: %s\n", part.Attempt, clip.Ellipsis(string(part.JSON), 2*partialWidth))
			}
		})))
	}
	r, err := blueprint.Run(ctx, bp, p, params, blueprint.RunSpec{}, opts...)
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

// partialWidth is how much of a partial value a progress line shows.
const partialWidth = 100

// defaultModels are the models a run asks when -model is not given.
var defaultModels = map[string]string{
	"openai":    "gpt-4.1-mini",
	"anthropic": "claude-haiku-4-5",
	"gemini":    "gemini-2.5-flash",
	"ollama":    "qwen3",
}

// newProvider builds the provider a run asks for, from the environment.
// With stream, the script provider streams each reply in small pieces, as
// a model would.
func newProvider(name, model, script string, stream bool) (provider.Provider, error) {
	if model == "" {
		model = defaultModels[name]
	}
	switch name {
	case "openai":
		base := os.Getenv("OPENAI_BASE_URL")
		key := os.Getenv("OPENAI_API_KEY")
		if key == "" && base == "" {
			return nil, &usageError{"-provider openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server)"}
		}
		return openaicompat.New(&openaicompat.Options{Name: "openai", Model: model, APIKey: key, BaseURL: base})
	case "anthropic":
		key := os.Getenv("ANTHROPIC_API_KEY")
		if key == "" {
			return nil, &usageError{"-provider anthropic needs ANTHROPIC_API_KEY"}
		}
		// The compatible endpoint ignores response_format: tool mode.
		return openaicompat.New(&openaicompat.Options{
			Name: "anthropic", Model: model, APIKey: key, MaxTokens: 4096,
			BaseURL:      apiBase(os.Getenv("ANTHROPIC_BASE_URL"), "https://api.anthropic.com", "/v1"),
			Capabilities: &provider.Capabilities{Tools: true, ForcedTool: true, Dialect: "anthropic"},
		})
	case "gemini":
		key := os.Getenv("GEMINI_API_KEY")
		if key == "" {
			key = os.Getenv("GOOGLE_API_KEY")
		}
		if key == "" {
			return nil, &usageError{"-provider gemini needs GEMINI_API_KEY or GOOGLE_API_KEY"}
		}
		return openaicompat.New(&openaicompat.Options{
			Name: "gemini", Model: model, APIKey: key,
			BaseURL:      apiBase(os.Getenv("GOOGLE_GEMINI_BASE_URL"), "https://generativelanguage.googleapis.com", "/v1beta/openai"),
			Capabilities: &provider.Capabilities{NativeSchema: true, JSONMode: true, Tools: true, ForcedTool: true, Dialect: "gemini"},
		})
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
			if stream {
				rs = append(rs, providertest.Chunked(scriptPiece, r))
			} else {
				rs = append(rs, providertest.Text(r))
			}
		}
		return providertest.New(rs...), nil
	default:
		return nil, &usageError{fmt.Sprintf("-provider %q: use openai, anthropic, gemini, ollama or script", name)}
	}
}

// scriptPiece is the size of the pieces a script reply streams in.
const scriptPiece = 8

// apiBase returns the base URL of an OpenAI-compatible endpoint: the
// host the SDKs' variable names (or def), and the endpoint's path.
func apiBase(env, def, path string) string {
	if env == "" {
		env = def
	}
	return strings.TrimRight(env, "/") + path
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
