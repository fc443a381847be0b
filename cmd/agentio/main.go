// Command agentio checks agent blueprints and JSON Schemas before they
// ship, and shows what the library does with a model's reply.
//
//	agentio lint [-format text|json|github] [-dialect NAME] [-registry DIR] [paths...]
//	agentio fmt [-w] [-d] [-l] paths...
//	agentio extract [-repair] [-all] [file]
//	agentio check -schema FILE [-lenient] [-reask] [file]
//	agentio run -blueprint FILE [-params FILE] -provider ollama|script [-model M] [-script FILE]
//	agentio eval -dataset FILE [-recordings DIR] [-provider NAME [-model M]] [-baseline FILE] [-out FILE] [-markdown] [-html FILE]
//
// lint walks the paths (default ".") for agent.json and *.schema.json
// files and reports, with file, line and column, every schema that does
// not compile, every lint warning (an unknown keyword, with "did you
// mean"), every blueprint field that is wrong, and with -dialect what a
// provider's dialect would drop or rewrite. fmt writes those files in the
// canonical form: two-space indent, the author's key order, agent.json's
// known fields first in the documented order. extract and check read a
// reply from a file or standard input: extract prints the JSON found,
// check prints the violations the model would be told (-reask: the exact
// re-ask). run runs an agent once. eval runs a dataset of cases offline
// against recorded replies, one target per subdirectory of -recordings,
// and reports per target how often and at what cost the output was valid;
// with -baseline it fails when a target regressed.
//
// Exit status: 0 when all is well, 1 for findings (lint), unformatted
// files (fmt without -w), no JSON (extract), an invalid reply (check), a
// failed run or a regression (eval), 2 for a usage or I/O error, 130 for
// an eval interrupted by SIGINT (Ctrl-C), whose outputs are written with
// the runs that finished and marked partial.
//
// Install it with
//
//	go install github.com/agentio/agentio/cmd/agentio@latest
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageError is a command-line mistake: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// exitError carries an exit status whose message was already printed.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

const usage = `agentio checks agent blueprints and JSON Schemas, and shows what agentio does with a reply.

Usage:
  agentio lint [-format text|json|github] [-dialect NAME] [-registry DIR] [paths...]
  agentio fmt [-w] [-d] [-l] paths...
  agentio extract [-repair] [-all] [file]
  agentio check -schema FILE [-lenient] [-reask] [file]
  agentio run -blueprint FILE [-params FILE] -provider ollama|script [-model M] [-script FILE]
  agentio eval -dataset FILE [-recordings DIR] [-provider NAME [-model M]] [-baseline FILE] [-out FILE] [-markdown] [-html FILE]

Run "agentio COMMAND -h" for a command's flags.
Exit status: 0 ok, 1 findings, an invalid reply or a regression, 2 usage or I/O error,
130 an eval interrupted (its outputs written, marked partial).
`

// run runs the command line args and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "agentio: internal error: %v\n", r)
			code = 2
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "lint":
		err = cmdLint(args[1:], stdout, stderr)
	case "fmt":
		err = cmdFmt(args[1:], stdout, stderr)
	case "extract":
		err = cmdExtract(args[1:], stdin, stdout, stderr)
	case "check":
		err = cmdCheck(args[1:], stdin, stdout, stderr)
	case "run":
		err = cmdRun(args[1:], stdout, stderr)
	case "eval":
		err = cmdEval(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = &usageError{fmt.Sprintf("unknown command %q", args[0])}
	}
	var ue *usageError
	var ee *exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "agentio: %s\n\n%s", ue.msg, usage)
		return 2
	default:
		fmt.Fprintf(stderr, "agentio: %v\n", err)
		return 2
	}
}

// newFlags returns a flag set for a command that reports to stderr and
// returns errors instead of exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("agentio "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args, turning a flag mistake into a usageError.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &usageError{err.Error()}
	}
	return nil
}

// readInput reads the file named by the only argument, or stdin when there
// is none or it is "-". It returns the name to report.
func readInput(args []string, stdin io.Reader) ([]byte, string, error) {
	switch len(args) {
	case 0:
	case 1:
		if args[0] != "-" {
			data, err := os.ReadFile(args[0])
			return data, args[0], err
		}
	default:
		return nil, "", &usageError{fmt.Sprintf("one input file at most, got %d", len(args))}
	}
	data, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
	if err != nil {
		return nil, "", err
	}
	if len(data) > maxInput {
		return nil, "", fmt.Errorf("standard input is larger than %d bytes", maxInput)
	}
	return data, "<stdin>", nil
}

// maxInput bounds what extract and check read.
const maxInput = 64 << 20
