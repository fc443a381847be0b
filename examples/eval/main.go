// Command eval evaluates two models' structured output offline: it
// loads a dataset of 220 extraction and triage cases over five inline
// schemas (testdata/cases.jsonl), replays each model's recorded replies
// (testdata/recordings/model-a and model-b, package provider/record),
// runs them through eval.Run, prints the report and the valid-on-first-call
// rate per schema, and holds model-b against model-a as the baseline with
// eval.Compare.
//
//	go run ./examples/eval
//	go run ./examples/eval -html report.html # also the report as one page, with the comparison
//
// The recordings were made by ./internal/gen around two scripted targets,
// not real models: model-a is valid on the first call in 200 of the 220
// cases; model-b, in 159, sends numbers as strings, enums in the wrong
// case, fields left out, replies cut off at the token limit, and now and
// then refuses (go generate ./examples/eval writes them again).
//
// The report's latency columns are left out of what is printed: a replay's
// latency is that of reading a file, and it would change from run to run.
package main

//go:generate go run ./internal/gen -dir testdata

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider/record"
)

// replayed is how a report of replays is printed: without latency, which
// is that of reading files.
var replayed = &eval.MarkdownOptions{OmitLatency: true}

// testdata is where the dataset and the recordings are, relative to the
// example's directory (where go test runs) or to the repository root.
func testdata() string {
	if _, err := os.Stat("testdata/cases.jsonl"); err == nil {
		return "testdata"
	}
	return filepath.Join("examples", "eval", "testdata")
}

// models are the targets, model-a first: it is the baseline.
var models = []string{"model-a", "model-b"}

func main() {
	page := flag.String("html", "", "also write the report as one self-contained HTML page to this file")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *page); err != nil {
		fmt.Fprintln(os.Stderr, "eval:", err)
		os.Exit(1)
	}
}

// run prints the report to w and, when page is not "", writes it there as
// HTML, with the comparison of model-b against model-a.
func run(ctx context.Context, w io.Writer, page string) error {
	dir := testdata()
	cases, err := eval.LoadDataset(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		return err
	}
	targets, err := replays(dir)
	if err != nil {
		return err
	}
	report, err := eval.Run(ctx, cases, targets)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d cases, %d schemas, %d targets replayed\n\n", len(cases), countSchemas(cases), len(targets))
	fmt.Fprint(w, report.MarkdownWith(replayed))
	fmt.Fprint(w, "\nValid on the first call, by schema:\n\n")
	fmt.Fprint(w, bySchema(report))
	v, err := eval.Compare(renamed(report, "model-a", "model-b"), only(report, "model-b"), nil)
	if err != nil {
		return err
	}
	fmt.Fprint(w, "\nmodel-b against model-a as the baseline:\n\n")
	fmt.Fprint(w, v.Markdown())
	if page == "" {
		return nil
	}
	var b bytes.Buffer
	if err := report.HTMLWith(&b, &eval.HTMLOptions{OmitLatency: true, Comparison: &v}); err != nil {
		return err
	}
	return os.WriteFile(page, b.Bytes(), 0o644)
}

// replays returns a target per model, answering from its recordings.
func replays(dir string) ([]eval.Target, error) {
	var targets []eval.Target
	for _, name := range models {
		p, err := record.New(nil, filepath.Join(dir, "recordings", name), record.Replay, &record.Options{Model: name})
		if err != nil {
			return nil, err
		}
		targets = append(targets, eval.Target{Name: name, Provider: p})
	}
	return targets, nil
}

// countSchemas counts the distinct output schemas of cases.
func countSchemas(cases []eval.Case) int {
	seen := map[string]bool{}
	for _, c := range cases {
		seen[string(c.Schema)] = true
	}
	return len(seen)
}

// bySchema renders a table of the valid-on-first-call rate per schema
// and target. A case's schema is the part of its ID before the dash
// ("invoice-007"), schemas in the order they first appear.
func bySchema(r *eval.Report) string {
	type count struct{ first, all int }
	var kinds []string
	counts := map[string]map[string]*count{}
	for _, c := range r.Results {
		kind, _, _ := strings.Cut(c.Case, "-")
		if counts[kind] == nil {
			kinds = append(kinds, kind)
			counts[kind] = map[string]*count{}
		}
		n := counts[kind][c.Target]
		if n == nil {
			n = &count{}
			counts[kind][c.Target] = n
		}
		n.all++
		if c.ValidFirst {
			n.first++
		}
	}
	var b strings.Builder
	b.WriteString("| schema |")
	for _, t := range r.Targets {
		b.WriteString(" " + t.Name + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(r.Targets)) + "\n")
	for _, kind := range kinds {
		b.WriteString("| " + kind + " |")
		for _, t := range r.Targets {
			n := counts[kind][t.Name]
			if n == nil {
				b.WriteString(" n/a |")
				continue
			}
			fmt.Fprintf(&b, " %.1f%% (%d/%d) |", 100*float64(n.first)/float64(n.all), n.first, n.all)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// only returns a report of the named target's results.
func only(r *eval.Report, name string) *eval.Report {
	var results []eval.CaseResult
	for _, c := range r.Results {
		if c.Target == name {
			results = append(results, c)
		}
	}
	return eval.NewReport(results)
}

// renamed returns a report of the from target's results under the name
// to: Compare holds a target against the same-named one of the baseline,
// and here the baseline is another model.
func renamed(r *eval.Report, from, to string) *eval.Report {
	var results []eval.CaseResult
	for _, c := range r.Results {
		if c.Target == from {
			c.Target = to
			results = append(results, c)
		}
	}
	return eval.NewReport(results)
}
