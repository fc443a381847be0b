// Command blueprint drives agents declared in agent.json files the way an
// orchestrator does: it loads every blueprint below a folder, rejects a call
// whose parameters do not match before anything expensive starts, renders the
// prompt of a call that does, and runs an agent whose default output schema
// makes its result structured data.
//
//	go run ./examples/blueprint [-agents DIR]
//
// It runs offline against a scripted provider.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

func main() {
	dir := flag.String("agents", defaultAgentsDir(), "folder holding <name>/agent.json files")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "blueprint:", err)
		os.Exit(1)
	}
}

// defaultAgentsDir finds the example's agents folder from the repository
// root (go run ./examples/blueprint) or from the example's own folder.
func defaultAgentsDir() string {
	for _, dir := range []string{"examples/blueprint/agents", "agents"} {
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			return dir
		}
	}
	return "agents"
}

func run(ctx context.Context, w io.Writer, dir string) error {
	agents, err := blueprint.LoadDir(dir)
	if err != nil {
		return err // one *blueprint.LoadError per bad file, joined
	}
	byName := map[string]*blueprint.Blueprint{}
	for _, a := range agents {
		byName[a.Name()] = a
		fmt.Fprintf(w, "loaded %s (%s): %s\n", a.Name(), a.Type(), a.Description())
	}

	// 1. A call to parametric-agent without its prompt and with a format it
	// does not know is refused before any model is called.
	writer := byName["parametric-agent"]
	bad := map[string]any{"topic": "Go generics", "format": "poem"}
	err = writer.ValidateParameters(bad)
	var pe *blueprint.ParameterError
	if !errors.As(err, &pe) {
		return fmt.Errorf("expected a parameter error, got %v", err)
	}
	out, err := json.MarshalIndent(pe, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nrejected %v:\n%s\n", bad, out)

	// 2. A good call: its parameters become the <inputs> block before the prompt.
	good := map[string]any{"prompt": "Write it for newcomers.", "topic": "Go generics", "format": "bullet_points", "max_words": 300}
	if err := writer.ValidateParameters(good); err != nil {
		return err
	}
	prompt, err := writer.Prompt(good)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nprompt sent for a valid call:\n%s\n", prompt)

	// 3. security-scanner's default_output_schema makes its result data. The
	// scripted model first reports a severity the schema does not allow.
	scanner := byName["security-scanner"]
	model := providertest.New(
		providertest.Reply{
			Text:  `{"scan_complete": true, "vulnerabilities": [{"id": "V1", "severity": "severe", "description": "SQL built by string concatenation", "affected_files": ["store/query.go"]}]}`,
			Usage: provider.Usage{InputTokens: 350, OutputTokens: 60},
		},
		providertest.Reply{
			Text:  `{"scan_complete": true, "vulnerabilities": [{"id": "V1", "severity": "high", "description": "SQL built by string concatenation", "affected_files": ["store/query.go"]}]}`,
			Usage: provider.Usage{InputTokens: 520, OutputTokens: 58},
		},
	)
	res, err := blueprint.Run(ctx, scanner, model,
		map[string]any{"prompt": "Scan the store package."},
		blueprint.RunSpec{}, // no inline or named schema: the blueprint's default applies
	)
	if err != nil {
		return err // a *enforce.ValidationError encodes to the OutputSchemaValidationError shape
	}
	fmt.Fprintf(w, "\nsecurity-scanner answered in %d attempt(s), %d tokens\n",
		len(res.Enforcement().Attempts), res.Usage().TotalTokens)

	event := blueprint.ResultEvent{
		SessionID: "ses_scan42",
		Timestamp: time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC),
		Result:    res,
	}
	ev, err := json.Marshal(event)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nresult event:\n%s\n", ev)
	fmt.Fprintf(w, "\ncallback to the parent session:\n%s\n", blueprint.Callback("ses_scan42", "completed", res))
	return nil
}
