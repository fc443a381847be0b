// Command typed gets a Go struct out of a model: enforce.Typed infers the
// JSON Schema from the type, enforces it, and decodes the valid JSON. A custom
// validator adds the rule a schema cannot state (a consistency check: each
// count must equal the number of findings of that severity), and
// a violation of it is re-asked like any other.
//
//	go run ./examples/typed
//
// It runs offline against a scripted provider.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// Review is the output we want. Fields without omitempty are required; the
// jsonschema tags become descriptions in the schema the model sees.
type Review struct {
	Findings []Finding `json:"findings" jsonschema:"every finding of the review"`
	Counts   Counts    `json:"counts" jsonschema:"how many findings there are of each severity"`
}

// Finding is one problem found in the code.
type Finding struct {
	Severity    string `json:"severity" jsonschema:"one of blocker, major, minor, nit"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Description string `json:"description"`
}

// Counts are the number of findings per severity.
type Counts struct {
	Blocker int `json:"blocker"`
	Major   int `json:"major"`
	Minor   int `json:"minor"`
	Nit     int `json:"nit"`
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "typed:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	// The first answer is valid against the schema but claims two blockers
	// while listing one: only the custom validator can see that.
	p := providertest.New(
		providertest.Text(`{"findings": [
			{"severity": "blocker", "file": "auth.go", "line": 12, "description": "Token compared with ==, not in constant time."},
			{"severity": "nit", "file": "auth.go", "line": 30, "description": "Comment repeats the code."}
		], "counts": {"blocker": 2, "major": 0, "minor": 0, "nit": 1}}`),
		providertest.Text(`{"findings": [
			{"severity": "blocker", "file": "auth.go", "line": 12, "description": "Token compared with ==, not in constant time."},
			{"severity": "nit", "file": "auth.go", "line": 30, "description": "Comment repeats the code."}
		], "counts": {"blocker": 1, "major": 0, "minor": 0, "nit": 1}}`),
	)

	review, res, err := enforce.Typed[Review](ctx, p,
		enforce.Request{Prompt: "Review auth.go and list your findings."},
		enforce.WithValidator(countsMatchFindings),
		enforce.WithAttemptHook(func(_ context.Context, a enforce.Attempt) {
			fmt.Fprintf(w, "attempt %d: %s\n", a.Number, a.Outcome)
			for _, v := range a.Violations {
				fmt.Fprintf(w, "  %s\n", v)
			}
		}),
	)
	var ve *enforce.ValidationError
	if errors.As(err, &ve) {
		return fmt.Errorf("no valid review after %d re-asks: %w", ve.Retries, err)
	}
	if err != nil {
		return err
	}

	fmt.Fprintf(w, "\n%d finding(s) after %d attempt(s):\n", len(review.Findings), len(res.Attempts))
	for _, f := range review.Findings {
		fmt.Fprintf(w, "  [%s] %s:%d %s\n", f.Severity, f.File, f.Line, f.Description)
	}
	fmt.Fprintf(w, "counts: %+v\n", review.Counts)

	// The re-ask the model received names the violated rule and its path.
	reask := p.Requests()[1]
	fmt.Fprintf(w, "\nthe re-ask began:\n%s\n", firstLines(reask.Messages[len(reask.Messages)-1].Content, 4))
	return nil
}

// countsMatchFindings checks each count against the findings. It runs only on
// values the schema accepted, so the shape is known; it still reads the
// decoded value defensively, as a validator must never panic.
func countsMatchFindings(_ context.Context, _ enforce.Attempt, value any) []schema.Violation {
	obj, _ := value.(map[string]any)
	findings, _ := obj["findings"].([]any)
	counts, _ := obj["counts"].(map[string]any)
	seen := map[string]int{}
	for _, f := range findings {
		if m, ok := f.(map[string]any); ok {
			if sev, ok := m["severity"].(string); ok {
				seen[sev]++
			}
		}
	}
	var out []schema.Violation
	for _, sev := range []string{"blocker", "major", "minor", "nit"} {
		got, _ := counts[sev].(float64)
		if int(got) != seen[sev] {
			out = append(out, schema.Violation{
				Path:    "$.counts." + sev,
				Pointer: "/counts/" + sev,
				Keyword: "counts",
				Message: fmt.Sprintf("counts.%s is %d but %d finding(s) have severity %q", sev, int(got), seen[sev], sev),
			})
		}
	}
	return out
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitAfterN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "")
}
