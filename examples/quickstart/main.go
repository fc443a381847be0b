// Command quickstart shows agentio's whole job in one run: a model is asked
// for a code review as JSON matching a schema, its first answer is wrong in
// the ways real answers are (prose around the JSON, a severity out of range,
// a missing field), and the enforcement loop re-asks with every violation
// until the answer is valid.
//
//	go run ./examples/quickstart [-provider openai|anthropic|gemini|ollama]
//
// Offline (the default), a scripted provider plays the model. When the
// chosen provider is configured in the environment, the same run goes to a
// real model through its adapter (examples/internal/choose lists the
// variables each reads):
//
//   - openai (the default): OPENAI_API_KEY, or OPENAI_BASE_URL for a local
//     OpenAI-compatible server (vLLM, llama.cpp, Ollama's /v1);
//     AGENTIO_OPENAI_MODEL picks the model.
//   - anthropic: ANTHROPIC_API_KEY; AGENTIO_ANTHROPIC_MODEL picks the model.
//   - gemini: GEMINI_API_KEY (or GOOGLE_API_KEY); AGENTIO_GEMINI_MODEL picks
//     the model; GOOGLE_GEMINI_BASE_URL sends it to a proxy.
//   - ollama: OLLAMA_HOST names the server (Ollama's native API);
//     AGENTIO_OLLAMA_MODEL picks a model it has pulled.
package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/examples/internal/choose"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

//go:embed review.schema.json
var reviewSchema []byte

// diff is what the model is asked to review.
const diff = `--- a/server/files.go
+++ b/server/files.go
@@ -40,6 +40,9 @@ func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
+	name := r.URL.Query().Get("name")
+	data, _ := os.ReadFile(filepath.Join(s.root, name))
+	w.Write(data)
`

func main() {
	kind := flag.String("provider", "openai", "the model provider: "+strings.Join(choose.Kinds, ", "))
	flag.Parse()
	p, name, err := choose.Model(*kind, os.Getenv, scripted)
	if err == nil {
		err = run(context.Background(), os.Stdout, p, name)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// run does the whole demonstration with the model p (described by name),
// writing what happens to w. It returns the enforcement error when the
// model never gives a valid answer, after printing what the caller would
// receive.
func run(ctx context.Context, w io.Writer, p provider.Provider, name string) error {
	s, err := schema.Parse(reviewSchema)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "provider: %s\n\n", name)

	req := enforce.Request{
		System: "You are a careful code reviewer.",
		Prompt: "Review this diff and report every finding.\n\n" + diff,
	}
	// The re-ask for an attempt is written before the attempt is reported,
	// so keep it until the attempt hook prints the attempt.
	var reask string
	res, err := enforce.Run(ctx, p, req, s,
		enforce.WithMaxRetries(2),
		// Keep the default re-ask text, but show it.
		enforce.WithReask(func(r enforce.Reask) string {
			reask = enforce.DefaultReask(r)
			return reask
		}),
		enforce.WithAttemptHook(func(_ context.Context, a enforce.Attempt) {
			printAttempt(w, a)
			if reask != "" {
				fmt.Fprintf(w, "  re-ask sent back to the model:\n%s\n", quote(foldSchema(reask)))
				reask = ""
			}
		}),
	)
	var ve *enforce.ValidationError
	switch {
	case errors.As(err, &ve):
		out, jerr := json.MarshalIndent(ve, "", "  ")
		if jerr != nil {
			return errors.Join(err, jerr)
		}
		fmt.Fprintf(w, "\nno valid answer after %d attempt(s); the error JSON for the caller:\n%s\n", len(ve.Attempts), out)
		return err
	case err != nil:
		return err
	}

	var pretty bytes.Buffer
	if err := json.Indent(&pretty, res.JSON, "", "  "); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nvalid after %d attempt(s) in %s mode, %d tokens in all:\n%s\n",
		len(res.Attempts), res.Mode, res.Usage.TotalTokens, pretty.String())
	return nil
}

// printAttempt writes one attempt: its outcome, usage, violations and fixes.
func printAttempt(w io.Writer, a enforce.Attempt) {
	fmt.Fprintf(w, "attempt %d (%s mode): %s, %d tokens\n", a.Number, a.Mode, a.Outcome, a.Usage.TotalTokens)
	for _, v := range a.Violations {
		fmt.Fprintf(w, "  %s\n", v)
	}
	for _, f := range a.Fixes {
		fmt.Fprintf(w, "  repaired: %s\n", f.Kind)
	}
}

// foldSchema shortens the schema section of a re-ask to one line: the
// model sees it whole, the reader of this demo has seen it in the file.
func foldSchema(text string) string {
	const heading = "## Required schema\n"
	i := strings.Index(text, heading)
	if i < 0 {
		return text
	}
	body := text[i+len(heading):]
	end := strings.Index(body, "\n```\n")
	if end < 0 {
		return text
	}
	lines := strings.Count(body[:end], "\n")
	return text[:i+len(heading)] + fmt.Sprintf("(the schema of review.schema.json, %d lines)\n", lines) + body[end+len("\n```\n"):]
}

// quote prefixes every line of text with "  | ".
func quote(text string) string {
	return "  | " + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n  | ")
}

// scripted plays a model whose first answer is realistically wrong and whose
// second, after the re-ask, is right.
func scripted() provider.Provider {
	first := "Here is my review of the diff:\n\n```json\n" + `{
  "findings": [
    {"severity": "critical", "file": "server/files.go", "line": 41,
     "description": "User input reaches filepath.Join unchecked: path traversal.", "raisedBy": "security"},
    {"severity": "minor", "file": "server/files.go", "line": 42,
     "description": "The error from os.ReadFile is ignored."}
  ],
  "counts": {"blocker": 1, "major": 0, "minor": 1, "nit": 0}
}` + "\n```\n\nLet me know if you want a deeper look."
	second := `{
  "findings": [
    {"severity": "blocker", "file": "server/files.go", "line": 41,
     "description": "User input reaches filepath.Join unchecked: path traversal.", "raisedBy": "security"},
    {"severity": "minor", "file": "server/files.go", "line": 42,
     "description": "The error from os.ReadFile is ignored.", "raisedBy": "correctness"}
  ],
  "counts": {"blocker": 1, "major": 0, "minor": 1, "nit": 0}
}`
	return providertest.New(
		providertest.Reply{Text: first, Usage: provider.Usage{InputTokens: 412, OutputTokens: 168}},
		providertest.Reply{Text: second, Usage: provider.Usage{InputTokens: 905, OutputTokens: 131}},
	)
}
