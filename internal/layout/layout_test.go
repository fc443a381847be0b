package layout_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const root = "github.com/agentio/agentio"

// A goFile is one Go file of the repository and its imports of ours.
type goFile struct {
	name    string // relative to the repository, slash-separated
	pkg     string // its package's import path
	module  string // its module's path
	imports []string
}

// files reads every Go file of the repository below ../.., and returns
// them with the path of every module.
func files(t *testing.T) ([]goFile, []string) {
	t.Helper()
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	modules := map[string]string{} // directory (slash, relative) -> module path
	var goFiles []string
	err = filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repo, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.Name() == "go.mod":
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			for _, line := range strings.Split(string(data), "\n") {
				if m, ok := strings.CutPrefix(line, "module "); ok {
					modules[path.Dir(rel)] = strings.TrimSpace(m)
				}
			}
		case strings.HasSuffix(d.Name(), ".go"):
			goFiles = append(goFiles, rel)
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, root, modules["."], "the root module")
	require.Greater(t, len(modules), 5, "nested modules found")

	moduleOf := func(dir string) string {
		best := "."
		for d := range modules {
			if (dir == d || strings.HasPrefix(dir, d+"/")) && len(d) > len(best) {
				best = d
			}
		}
		return modules[best]
	}
	fset := token.NewFileSet()
	var out []goFile
	for _, name := range goFiles {
		f, err := parser.ParseFile(fset, filepath.Join(repo, filepath.FromSlash(name)), nil, parser.ImportsOnly)
		require.NoError(t, err, name)
		gf := goFile{name: name, pkg: path.Join(root, path.Dir(name)), module: moduleOf(path.Dir(name))}
		for _, im := range f.Imports {
			p, err := strconv.Unquote(im.Path.Value)
			require.NoError(t, err)
			if p == root || strings.HasPrefix(p, root+"/") {
				gf.imports = append(gf.imports, p)
			}
		}
		out = append(out, gf)
	}
	var paths []string
	for _, m := range modules {
		paths = append(paths, m)
	}
	return out, paths
}

// owner returns the module of modules that holds the package p: the one
// with the longest path p is under.
func owner(p string, modules []string) string {
	best := ""
	for _, m := range modules {
		if within(p, m) && len(m) > len(best) {
			best = m
		}
	}
	return best
}

// internalTree returns the tree an internal package serves (the import
// path before its "/internal/"), or false when p is not internal.
func internalTree(p string) (string, bool) {
	if i := strings.Index(p+"/", "/internal/"); i >= 0 {
		return p[:i], true
	}
	return "", false
}

// within reports whether p is tree or under it.
func within(p, tree string) bool { return p == tree || strings.HasPrefix(p, tree+"/") }

// TestNoModuleImportsAnotherModulesInternal checks the first rule.
func TestNoModuleImportsAnotherModulesInternal(t *testing.T) {
	all, modules := files(t)
	var bad []string
	for _, f := range all {
		if strings.HasPrefix(f.name, "examples/") {
			continue
		}
		for _, im := range f.imports {
			if _, ok := internalTree(im); ok && owner(im, modules) != f.module {
				bad = append(bad, f.name+" imports "+im)
			}
		}
	}
	slices.Sort(bad)
	assert.Empty(t, bad, "a nested library module imports another module's internal/ package")
}

// TestInternalImportsStayInTheirTree checks the second rule.
func TestInternalImportsStayInTheirTree(t *testing.T) {
	all, _ := files(t)
	var bad []string
	for _, f := range all {
		tree, ok := internalTree(f.pkg)
		if !ok || strings.HasPrefix(f.name, "examples/") || strings.HasSuffix(f.name, "_test.go") {
			continue
		}
		for _, im := range f.imports {
			if _, isInternal := internalTree(im); isInternal {
				continue // the first rule keeps these within the module
			}
			if tree != root && within(im, tree) {
				continue // X/internal/... imports X or a package under it
			}
			bad = append(bad, f.name+" imports "+im)
		}
	}
	slices.Sort(bad)
	assert.Empty(t, bad, "an internal package imports a package of ours outside the tree it serves")
}

// TestRootModuleDependencies: the root module's packages build on the
// standard library and jsonschema-go alone, and its go.mod requires
// nothing else but testify and, marked indirect, what testify itself
// requires at testify's own versions (Go wants those listed because our
// tests import assert). An SDK belongs in a nested module.
func TestRootModuleDependencies(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	golist := func(args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GOWORK=off")
		out, err := cmd.Output()
		require.NoError(t, err, "go %s", strings.Join(args, " "))
		return string(out)
	}

	// What the library's packages (tests aside) import.
	for _, p := range strings.Fields(golist("list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...")) {
		if p == root || strings.HasPrefix(p, root+"/") || strings.HasPrefix(p, "github.com/google/jsonschema-go/") {
			continue
		}
		t.Errorf("a root-module package imports %s: only the standard library and jsonschema-go may be built into agentio", p)
	}

	// What go.mod requires.
	data, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	require.NoError(t, err)
	testifyMod := strings.TrimSpace(golist("list", "-m", "-f", "{{.GoMod}}", "github.com/stretchr/testify"))
	testifyData, err := os.ReadFile(testifyMod)
	require.NoError(t, err)
	ofTestify := requirements(string(testifyData))
	for path, r := range requirements(string(data)) {
		switch {
		case path == "github.com/google/jsonschema-go" || path == "github.com/stretchr/testify":
		case ofTestify[path].version == r.version && r.indirect:
		default:
			t.Errorf("go.mod requires %s %s: the root module may require only jsonschema-go, testify and, indirect, testify's own requirements at its versions", path, r.version)
		}
	}
}

type requirement struct {
	version  string
	indirect bool
}

// requirements reads the require lines of a go.mod file.
func requirements(gomod string) map[string]requirement {
	out := map[string]requirement{}
	block := false
	for _, line := range strings.Split(gomod, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			block = true
			continue
		case block && line == ")":
			block = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !block:
			continue
		}
		f := strings.Fields(line)
		if len(f) >= 2 {
			out[f[0]] = requirement{version: f[1], indirect: strings.Contains(line, "// indirect")}
		}
	}
	return out
}

// TestMakefilePassesOnFailures checks that every Makefile recipe running
// go test or go vet ends with their status: a shell line that runs them
// and then prints a timing would otherwise exit 0, and make test would
// pass whatever failed. A recipe passes the status on with set -e, or by
// keeping it ("status=$$?") and ending with "exit $$status".
func TestMakefilePassesOnFailures(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	require.NoError(t, err)
	commands := strings.Split(strings.ReplaceAll(string(data), "\\\n", " "), "\n")
	checked := 0
	for _, c := range commands {
		if !strings.HasPrefix(c, "\t") || !strings.Contains(c, "$(GO) test") && !strings.Contains(c, "$(GO) vet") {
			continue
		}
		checked++
		c = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(c), "@"))
		if strings.HasPrefix(c, "set -e;") {
			continue
		}
		assert.True(t, strings.Contains(c, "status=$$?") && strings.HasSuffix(c, "exit $$status"),
			"this recipe's status is lost (end it with exit $$status, or start it with set -e): %s", c)
	}
	assert.GreaterOrEqual(t, checked, 4, "the Makefile's go test and go vet recipes")
}
