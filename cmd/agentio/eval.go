package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider/record"
)

// cmdEval runs a dataset offline against recorded replies, one target per
// subdirectory of -recordings, and with -baseline gates on regressions.
func cmdEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	dataset := fs.String("dataset", "", "the JSONL dataset of cases (required)")
	recordings := fs.String("recordings", "", "a directory with one recording store per target, named by it (required);\n"+
		"each store is replayed with the target's name as its model label")
	baseline := fs.String("baseline", "", "a report of an earlier run: exit 1 when a target regressed against it")
	out := fs.String("out", "", "write the JSON report to this file (default: standard output, unless -markdown)")
	htmlOut := fs.String("html", "", "also write the report as one self-contained HTML page to this file")
	markdown := fs.Bool("markdown", false, "print a Markdown summary (for a pull-request comment) to standard output")
	concurrency := fs.Int("concurrency", 2, "how many runs go at once")
	prov := fs.String("provider", "", "a model to run live as one more target (see agentio run -h for the names);\n"+
		"with -recordings its calls are recorded there, under the target's name, and replayed when asked again")
	model := fs.String("model", "", "with -provider: the model name (default: the provider's); also the target's name")
	script := fs.String("script", "", "for -provider script: a JSON array of replies")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dataset == "" || (*recordings == "" && *prov == "") {
		return &usageError{"eval needs -dataset FILE and -recordings DIR, -provider NAME or both"}
	}
	if fs.NArg() > 0 {
		return &usageError{fmt.Sprintf("eval takes no arguments, got %q", fs.Arg(0))}
	}
	cases, err := eval.LoadDataset(*dataset)
	if err != nil {
		return err
	}
	var live *eval.Target
	if *prov != "" {
		if live, err = liveTarget(*prov, *model, *script, *recordings); err != nil {
			return err
		}
	}
	var targets []eval.Target
	if *recordings != "" {
		if targets, err = replayTargets(*recordings, live); err != nil {
			return err
		}
	}
	replayOnly := live == nil
	if live != nil {
		targets = append(targets, *live)
	}
	var base *eval.Report
	if *baseline != "" {
		if base, err = readReport(*baseline); err != nil {
			return err
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := []eval.Option{eval.WithConcurrency(*concurrency)}
	terminal := isTerminal(stderr)
	if terminal {
		opts = append(opts, eval.WithProgress(func(p eval.Progress) {
			fmt.Fprint(stderr, "\r\033[K"+progressBar(p))
		}))
	}
	report, err := eval.Run(ctx, cases, targets, opts...)
	stop() // a second interrupt ends the command at once
	if terminal {
		fmt.Fprint(stderr, "\r\033[K")
	}
	// Interrupted, Run returns the report of the runs that finished: it
	// is written like a whole one, marked partial, and not gated.
	interrupted := err != nil && report != nil && report.Partial
	if err != nil && !interrupted {
		return err
	}
	// The gate, on a whole run only; its verdict goes on the page too.
	var verdict *eval.Comparison
	if base != nil && !interrupted {
		v, err := eval.Compare(base, report, nil)
		if err != nil {
			return err
		}
		verdict = &v
	}
	data, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	switch {
	case *out != "":
		if err := os.WriteFile(*out, data, 0o644); err != nil {
			return err
		}
	case !*markdown:
		if _, err := stdout.Write(data); err != nil {
			return err
		}
	}
	if *htmlOut != "" {
		// A replay's latency is that of reading files: shown only when a
		// model was called.
		if err := writeHTML(*htmlOut, report, &eval.HTMLOptions{OmitLatency: replayOnly, Comparison: verdict}); err != nil {
			return err
		}
	}
	if *markdown {
		fmt.Fprint(stdout, report.MarkdownWith(&eval.MarkdownOptions{OmitLatency: replayOnly}))
	}
	for _, t := range report.Targets {
		fmt.Fprintf(stderr, "%s: %d cases, valid on first call %.1f%%, valid %.1f%%, %.2f calls per valid output\n",
			t.Name, t.Cases, 100*t.ValidFirstRate, 100*t.ValidRate, t.CallsPerValid)
	}
	if interrupted {
		fmt.Fprintf(stderr, "interrupted: the report is partial, %d of %d runs not run", report.NotRun, report.NotRun+len(report.Results))
		if base != nil {
			fmt.Fprint(stderr, "; not compared with the baseline")
		}
		fmt.Fprintln(stderr)
		return &exitError{130}
	}
	if verdict == nil {
		return nil
	}
	v := *verdict
	for _, t := range v.Targets {
		switch {
		case !t.InBaseline:
			fmt.Fprintf(stderr, "%s: not in the baseline\n", t.Name)
		case t.Regressed:
			for _, r := range t.Reasons {
				fmt.Fprintf(stderr, "%s: regression: %s\n", t.Name, r)
			}
		}
	}
	if *markdown {
		fmt.Fprintf(stdout, "\nAgainst the baseline:\n\n%s", v.Markdown())
	}
	if v.Regressed {
		return &exitError{1}
	}
	return nil
}

// writeHTML writes the report's HTML page to path.
func writeHTML(path string, report *eval.Report, opts *eval.HTMLOptions) error {
	var b bytes.Buffer
	if err := report.HTMLWith(&b, opts); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// liveTarget returns the target of a model called live, named by the model
// (or, without one, the provider). With a recordings directory its calls
// go through record.RecordMissing in the target's subdirectory, the
// provider's API keys redacted, so that the next eval replays them.
func liveTarget(prov, model, script, recordings string) (*eval.Target, error) {
	p, err := newProvider(prov, model, script, false)
	if err != nil {
		return nil, err
	}
	name := model
	if name == "" {
		name = prov
	}
	if recordings != "" {
		var secrets []string
		for _, k := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"} {
			if v := os.Getenv(k); v != "" {
				secrets = append(secrets, v)
			}
		}
		p, err = record.New(p, filepath.Join(recordings, name), record.RecordMissing, &record.Options{Model: name, Secrets: secrets})
		if err != nil {
			return nil, err
		}
	}
	return &eval.Target{Name: name, Provider: p}, nil
}

// replayTargets returns a target per subdirectory of dir, replaying its
// recordings under the subdirectory's name as the model label; the live
// target's own subdirectory, if any, is left to it.
func replayTargets(dir string, live *eval.Target) ([]eval.Target, error) {
	entries, err := os.ReadDir(dir)
	if err != nil && !(live != nil && errors.Is(err, fs.ErrNotExist)) {
		return nil, err
	}
	var targets []eval.Target
	for _, e := range entries {
		if !e.IsDir() || live != nil && e.Name() == live.Name {
			continue
		}
		p, err := record.New(nil, filepath.Join(dir, e.Name()), record.Replay, &record.Options{Model: e.Name()})
		if err != nil {
			return nil, err
		}
		targets = append(targets, eval.Target{Name: e.Name(), Provider: p})
	}
	if len(targets) == 0 && live == nil {
		return nil, fmt.Errorf("%s: no recording directories (one per target)", dir)
	}
	return targets, nil
}

// readReport reads a JSON report written by an earlier eval, whole: a
// partial one (an interrupted run) is no baseline.
func readReport(path string) (*eval.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r eval.Report
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not an eval report: %w", path, err)
	}
	if r.Partial {
		return nil, fmt.Errorf("%s: %w: %d of %d runs not run; run the baseline to the end", path, eval.ErrPartialReport, r.NotRun, r.NotRun+len(r.Results))
	}
	return &r, nil
}

// progressBar is the progress line agentio eval keeps on a terminal:
// "[#####·····] 50/100 runs, 45 valid".
func progressBar(p eval.Progress) string {
	const width = 30
	filled := 0
	if p.Total > 0 {
		filled = width * p.Done / p.Total
	}
	return fmt.Sprintf("[%s%s] %d/%d runs, %d valid", strings.Repeat("#", filled), strings.Repeat("·", width-filled), p.Done, p.Total, p.Valid)
}
