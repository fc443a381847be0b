package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

func cmdExtract(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("extract", stderr)
	repair := fs.Bool("repair", false, "repair JSON that does not parse, listing each fix on stderr")
	all := fs.Bool("all", false, "list every value found, best first, with its offsets and source")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	data, name, err := readInput(fs.Args(), stdin)
	if err != nil {
		return err
	}
	var opts []extract.Option
	if *repair {
		opts = append(opts, extract.WithRepair())
	}
	if *all {
		cands := extract.Candidates(string(data), opts...)
		if len(cands) == 0 {
			_, err := extract.JSON(string(data), opts...)
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return &exitError{1}
		}
		for i, c := range cands {
			fmt.Fprintf(stdout, "#%d %s bytes %d-%d%s\n%s\n", i+1, c.Source, c.Start, c.End, fixNote(c), c.JSON)
		}
		return nil
	}
	c, err := extract.JSON(string(data), opts...)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return &exitError{1}
	}
	for _, f := range c.Fixes {
		fmt.Fprintf(stderr, "fix: %d %s %q -> %q: %s\n", f.Offset, f.Kind, f.Before, f.After, f.Detail)
	}
	fmt.Fprintf(stdout, "%s\n", c.JSON)
	return nil
}

func fixNote(c extract.Candidate) string {
	if len(c.Fixes) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d fixes)", len(c.Fixes))
}

func cmdCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("check", stderr)
	schemaFile := fs.String("schema", "", "the JSON Schema the reply must satisfy (required)")
	lenient := fs.Bool("lenient", false, "coerce near misses by the schema before validating (enforce.WithLenient)")
	reask := fs.Bool("reask", false, "print the exact re-ask the model would be sent")
	repair := fs.Bool("repair", false, "repair JSON that does not parse (enforce.WithRepair)")
	formats := fs.Bool("formats", false, "assert format (date-time, email, uuid, ...)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *schemaFile == "" {
		return &usageError{"check needs -schema FILE"}
	}
	src, err := os.ReadFile(*schemaFile)
	if err != nil {
		return err
	}
	s, err := schema.ParseWith(src, &schema.ParseOptions{AssertFormat: *formats})
	if err != nil {
		return fmt.Errorf("%s: %w", *schemaFile, err)
	}
	data, name, err := readInput(fs.Args(), stdin)
	if err != nil {
		return err
	}
	var opts []enforce.Option
	if *lenient {
		opts = append(opts, enforce.WithLenient())
	}
	if *repair {
		opts = append(opts, enforce.WithRepair())
	}
	e, err := enforce.New(s, opts...)
	if err != nil {
		return err
	}
	req, st, err := e.Start(enforce.Request{Prompt: "(the prompt)"}, provider.Capabilities{})
	if err != nil {
		return err
	}
	v := e.CheckText(context.Background(), st, string(data))
	if v.OK {
		for _, c := range v.Attempt.Coercions {
			fmt.Fprintf(stderr, "coerced: %v\n", c)
		}
		fmt.Fprintf(stdout, "%s\n", v.JSON)
		return nil
	}
	fmt.Fprintf(stderr, "%s: %s\n", name, v.Outcome)
	for _, viol := range v.Violations {
		fmt.Fprintf(stdout, "%s\n", viol)
	}
	if *reask {
		next := v.Next(req)
		var ve *enforce.ValidationError
		switch {
		case next != nil && len(next.Messages) > 0:
			fmt.Fprintf(stdout, "\n--- re-ask ---\n%s\n", next.Messages[len(next.Messages)-1].Content)
		case errors.As(v.Err, &ve):
			data, _ := json.MarshalIndent(ve, "", "  ")
			fmt.Fprintf(stdout, "\n--- the run would end with ---\n%s\n", data)
		case v.Err != nil:
			fmt.Fprintf(stdout, "\n--- the run would end with ---\n%v\n", v.Err)
		}
	}
	return &exitError{1}
}
