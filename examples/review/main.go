// Command review shows checks a schema cannot make. Three specialist agents
// (security, performance, style) review the same change; where two of them
// disagree about one line, the writer agent is told so in its input, as
// data. The writer's own output must keep its counts equal to its list of
// findings: its first answer miscounts, the invariant catches it, and the
// re-ask fixes it.
//
//	go run ./examples/review
//
// It runs offline against scripted providers.
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

//go:embed writer.agent.json
var writerAgent []byte

// findingsSchema is what each specialist returns.
const findingsSchema = `{
  "type": "object",
  "required": ["findings"],
  "properties": {
    "findings": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["file", "line", "severity", "note"],
        "properties": {
          "file": {"type": "string"},
          "line": {"type": "integer"},
          "severity": {"enum": ["blocker", "major", "minor"]},
          "note": {"type": "string"}
        }
      }
    }
  }
}`

// specialists and what each (scripted) model answers.
var specialists = []struct{ name, reply string }{
	{"security", `{"findings": [
		{"file": "server.go", "line": 42, "severity": "blocker", "note": "The token is compared with ==, not in constant time."},
		{"file": "auth.go", "line": 7, "severity": "major", "note": "Passwords are hashed with SHA-1."}]}`},
	{"performance", `{"findings": [
		{"file": "store.go", "line": 88, "severity": "minor", "note": "The query runs once per item."}]}`},
	{"style", `{"findings": [
		{"file": "server.go", "line": 42, "severity": "minor", "note": "The comparison could be one line shorter."},
		{"file": "auth.go", "line": 8, "severity": "minor", "note": "The hash function name is misspelt."}]}`},
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "review:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	s, err := schema.Parse([]byte(findingsSchema))
	if err != nil {
		return err
	}
	var outputs []crosscheck.Output
	var all []any
	for _, sp := range specialists {
		res, err := enforce.Run(ctx, providertest.New(providertest.Text(sp.reply)), enforce.Request{Prompt: "Review the change."}, s)
		if err != nil {
			return fmt.Errorf("%s: %w", sp.name, err)
		}
		outputs = append(outputs, crosscheck.Output{Name: sp.name, Value: res.Value})
		findings := res.Value.(map[string]any)["findings"].([]any)
		all = append(all, findings...)
		fmt.Fprintf(w, "%s: %d findings\n", sp.name, len(findings))
	}

	writer, err := blueprint.Parse(writerAgent)
	if err != nil {
		return err
	}
	params, cs := writer.Annotate(map[string]any{"prompt": "Write the final review.", "findings": all}, outputs...)
	fmt.Fprintf(w, "\n%d contradictions between the specialists:\n", len(cs))
	for _, c := range cs {
		data, err := json.Marshal(c)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s\n", data)
	}

	// The writer miscounts first (two blockers for one), then fixes it.
	p := providertest.New(
		providertest.Text(`{"summary": "One blocker: the token comparison. Security calls server.go:42 a blocker, style a minor issue; it is a blocker, since timing leaks the token.",
			"counts": {"blocker": 2, "major": 1, "minor": 1},
			"findings": [
				{"file": "server.go", "line": 42, "severity": "blocker", "note": "Compare tokens in constant time."},
				{"file": "auth.go", "line": 7, "severity": "major", "note": "Use a password hash, not SHA-1."},
				{"file": "store.go", "line": 88, "severity": "minor", "note": "Batch the query."}]}`),
		providertest.Text(`{"summary": "One blocker: the token comparison. Security calls server.go:42 a blocker, style a minor issue; it is a blocker, since timing leaks the token.",
			"counts": {"blocker": 1, "major": 1, "minor": 1},
			"findings": [
				{"file": "server.go", "line": 42, "severity": "blocker", "note": "Compare tokens in constant time."},
				{"file": "auth.go", "line": 7, "severity": "major", "note": "Use a password hash, not SHA-1."},
				{"file": "store.go", "line": 88, "severity": "minor", "note": "Batch the query."}]}`),
	)
	r, err := blueprint.Run(ctx, writer, p, params, blueprint.RunSpec{})
	if err != nil {
		return err
	}
	prompt := p.Requests()[0].Messages[0].Content
	for _, line := range strings.Split(prompt, "\n") {
		if strings.HasPrefix(line, "contradictions: ") {
			fmt.Fprintf(w, "\nthe writer's <inputs> block carries them:\n  %.100s…\n", line)
		}
	}
	for _, a := range r.Enforcement().Attempts {
		fmt.Fprintf(w, "\nwriter attempt %d: %s\n", a.Number, a.Outcome)
		for _, v := range a.Violations {
			fmt.Fprintf(w, "  %s\n", v)
		}
	}
	fmt.Fprintf(w, "\nfinal review:\n%s\n", r.Data())
	return nil
}
