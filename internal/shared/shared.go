package shared

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvRequired names the environment variable that makes missing data a
// failure: AGENTIO_CONFORMANCE=required.
const EnvRequired = "AGENTIO_CONFORMANCE"

// SuiteCommit is the JSON-Schema-Test-Suite commit the tests and their
// figures are pinned to.
const SuiteCommit = "44401e0c046704b476ec9d2e2fccdaee618f259d"

// Suite returns the directory of the JSON-Schema-Test-Suite (holding
// tests/ and remotes/), or ends t as [Missing] says.
func Suite(t testing.TB) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatalf("shared: %v", err)
	}
	dirs := suiteDirs(root)
	if d, ok := firstSuite(dirs); ok {
		return d
	}
	Missing(t, "the JSON-Schema-Test-Suite", dirs, "run `make conformance-data` to clone it at "+SuiteCommit[:12])
	return ""
}

// SuiteDir is [Suite] for a caller that goes on without the suite (a fuzz
// target seeding from it when it is there): ok is false when it is not.
func SuiteDir() (dir string, ok bool) {
	root, err := repoRoot()
	if err != nil {
		return "", false
	}
	return firstSuite(suiteDirs(root))
}

// suiteDirs are where the suite is looked for under the repository root.
func suiteDirs(root string) []string {
	return []string{
		filepath.Join(root, "..", "shared", "conformance", "JSON-Schema-Test-Suite"),
		filepath.Join(root, ".cache", "JSON-Schema-Test-Suite"),
	}
}

// firstSuite returns the first of dirs that holds a tests directory.
func firstSuite(dirs []string) (string, bool) {
	for _, d := range dirs {
		if st, err := os.Stat(filepath.Join(d, "tests")); err == nil && st.IsDir() {
			return d, true
		}
	}
	return "", false
}

// Corpus returns the path of the corpus file name ("repair.jsonl",
// "schema_tests.sample.jsonl") in ../shared/corpora, or ends t as
// [Missing] says.
func Corpus(t testing.TB, name string) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatalf("shared: %v", err)
	}
	p := filepath.Join(root, "..", "shared", "corpora", name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	Missing(t, "the corpus "+name, []string{p}, "it comes with the project's shared data, beside the repository")
	return ""
}

// Missing ends t for data that is not there: it fails t when
// AGENTIO_CONFORMANCE=required, and skips it otherwise, in one line that
// says what is missing, where it was looked for, and how to get it.
func Missing(t testing.TB, what string, looked []string, how string) {
	t.Helper()
	msg := fmt.Sprintf("%s is not here (looked in %v): %s", what, looked, how)
	if os.Getenv(EnvRequired) == "required" {
		t.Fatalf("%s; %s=required makes this a failure", msg, EnvRequired)
	}
	t.Skipf("%s; set %s=required to make this a failure", msg, EnvRequired)
}

// repoRoot returns the repository's root: the nearest directory above the
// working directory (a test's package) holding go.work.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.work above the working directory: run the tests inside the repository")
		}
		dir = parent
	}
}

// Measuring marks a test that measures against a corpus or the suite,
// times how work grows, or soaks the loop under injected faults: thousands
// of schemas compiled, values validated or runs timed, which the race
// detector slows five-fold and can find no race in. Built with -race it
// skips, saying so; `make test` runs these tests (their names hold Corpus,
// Conformance, Scaling or Soak) in a pass of their own without -race.
func Measuring(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("a measuring test: make test runs it without -race (go test -run 'Corpus|Conformance|Scaling|Soak')")
	}
}
