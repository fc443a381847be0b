// Command stream shows a structured answer while the model writes it, and
// a reply stopped as soon as it goes wrong: the findings of a review are
// printed one by one as they complete; the first reply gives a severity the
// schema does not allow, so it is stopped there, before the model is paid
// for the rest, and re-asked.
//
//	go run ./examples/stream [-provider openai|anthropic|gemini|ollama]
//
// Offline (the default), a scripted provider streams the replies in small
// chunks. When the chosen provider is configured in the environment
// (openai, the default: OPENAI_API_KEY or OPENAI_BASE_URL; anthropic:
// ANTHROPIC_API_KEY; gemini: GEMINI_API_KEY or GOOGLE_API_KEY; ollama:
// OLLAMA_HOST; AGENTIO_<PROVIDER>_MODEL picks the model), the same run
// streams from that model through its adapter. The choose package,
// examples/internal/choose, lists every variable it reads.
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/examples/internal/choose"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

//go:embed review.schema.json
var reviewSchema []byte

// The scripted replies: the first goes wrong at its third finding.
const (
	wrongReply = `{"findings": [
  {"file": "server/files.go", "line": 41, "severity": "high", "message": "The name comes from the query string unchecked: path traversal."},
  {"file": "server/files.go", "line": 42, "severity": "medium", "message": "The error of ReadFile is dropped."},
  {"file": "server/files.go", "line": 43, "severity": "urgent", "message": "Write's error is ignored."},
  {"file": "server/files.go", "line": 43, "severity": "low", "message": "No Content-Type is set."}
], "summary": "Unsafe file serving."}`
	goodReply = `{"findings": [
  {"file": "server/files.go", "line": 41, "severity": "high", "message": "The name comes from the query string unchecked: path traversal."},
  {"file": "server/files.go", "line": 42, "severity": "medium", "message": "The error of ReadFile is dropped."},
  {"file": "server/files.go", "line": 43, "severity": "low", "message": "Write's error is ignored."}
], "summary": "Unsafe file serving: reject names with path separators."}`
)

func main() {
	delay := flag.Duration("delay", 30*time.Millisecond, "pause between the scripted provider's chunks")
	kind := flag.String("provider", "openai", "the model provider: "+strings.Join(choose.Kinds, ", "))
	flag.Parse()
	p, name, err := sdkAdapters().Model(*kind, os.Getenv, scripted(*delay))
	if err == nil {
		err = run(context.Background(), os.Stdout, p, name)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "stream:", err)
		os.Exit(1)
	}
}

// scripted returns the scripted provider, streaming its replies in chunks of
// 24 bytes with delay between them.
func scripted(delay time.Duration) func() provider.Provider {
	return func() provider.Provider {
		return providertest.New(
			providertest.Reply{Text: wrongReply, ChunkSize: 24, Delay: delay},
			providertest.Reply{Text: goodReply, ChunkSize: 24, Delay: delay},
		)
	}
}

// run streams a review from p and prints each finding as it completes.
func run(ctx context.Context, w io.Writer, p provider.Provider, name string) error {
	s, err := schema.Parse(reviewSchema)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "provider: %s\n", name)
	req := enforce.Request{Prompt: "Review this change to server/files.go, which serves the file named by ?name= from s.root, and report every finding."}
	attempt, shown := 0, 0
	show := func(part enforce.Partial) {
		if part.Attempt != attempt {
			attempt, shown = part.Attempt, 0
			fmt.Fprintf(w, "attempt %d streaming:\n", attempt)
		}
		var v struct {
			Findings []struct {
				Line     int    `json:"line"`
				Severity string `json:"severity"`
				Message  string `json:"message"`
			} `json:"findings"`
		}
		if json.Unmarshal(part.JSON, &v) != nil {
			return
		}
		for ; shown < len(v.Findings); shown++ {
			if slices.Contains(part.Open, fmt.Sprintf("$.findings[%d]", shown)) {
				break // still being written
			}
			f := v.Findings[shown]
			fmt.Fprintf(w, "  line %d, %s: %s\n", f.Line, f.Severity, f.Message)
		}
	}
	res, err := enforce.Run(ctx, p, req, s, enforce.WithMode(enforce.ModePrompt), enforce.WithPartials(show),
		enforce.WithAttemptHook(func(_ context.Context, a enforce.Attempt) {
			fmt.Fprintf(w, "attempt %d: %s", a.Number, a.Outcome)
			if a.StoppedEarly {
				fmt.Fprintf(w, ", stopped after %d bytes", len(a.Response.Text))
			}
			fmt.Fprintln(w)
			for _, v := range a.Violations {
				fmt.Fprintf(w, "  %s\n", v)
			}
		}))
	if err != nil {
		return err
	}
	out, err := json.MarshalIndent(json.RawMessage(res.JSON), "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "valid after %d attempts:\n%s\n", len(res.Attempts), out)
	return nil
}
