package layout_test

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libraryPackages returns the packages a user may import, relative to the
// repository: every package with code but the root's doc, internal/
// packages, the examples, the benchmarks and the modules that hold tests
// only (.../sqltest).
func libraryPackages(t *testing.T) []string {
	all, _ := files(t)
	var out []string
	for _, f := range all {
		dir := path.Dir(f.name)
		_, internal := internalTree(f.pkg)
		if strings.HasSuffix(f.name, "_test.go") || internal || dir == "." || isTestModule(f.name) ||
			strings.HasPrefix(dir, "examples/") || strings.HasPrefix(dir, "benchmarks/") {
			continue
		}
		out = append(out, dir)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// docMap returns the packages the root doc.go's "# Packages" section
// lists, one per line, in order.
func docMap(t *testing.T, doc string) []string {
	_, section, ok := strings.Cut(doc, "// # Packages\n")
	require.True(t, ok, "doc.go has a # Packages section")
	section, _, _ = strings.Cut(section, "// # ")
	var out []string
	for _, line := range strings.Split(section, "\n") {
		if p, ok := strings.CutPrefix(line, "//\t"); ok {
			name, desc, _ := strings.Cut(p, " ")
			require.NotEmpty(t, strings.TrimSpace(desc), "doc.go: %s has no description", name)
			out = append(out, name)
		}
	}
	return out
}

// readmeRow is a row of the README's package table: | [`p`](p) | job |.
var readmeRow = regexp.MustCompile("(?m)^\\| \\[`([^`]+)`\\]\\(([^)]+)\\) \\| (.+) \\|$")

// readmeMap returns the packages the README's package table (the one
// headed "| package | job |") lists, in order.
func readmeMap(t *testing.T, readme string) []string {
	_, table, ok := strings.Cut(readme, "| package | job |\n")
	require.True(t, ok, "the README has a package table")
	table, _, _ = strings.Cut(table, "\n\n")
	var out []string
	for _, m := range readmeRow.FindAllStringSubmatch(table, -1) {
		require.Equal(t, m[1], m[2], "README: the row of %s links to %s", m[1], m[2])
		out = append(out, m[1])
	}
	return out
}

// TestPackageMap: the root doc.go and the README's table each list every
// library package once, and nothing else.
func TestPackageMap(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	pkgs := libraryPackages(t)
	require.Contains(t, pkgs, "schema")
	require.Contains(t, pkgs, "mcpagentio", "nested modules count")

	doc, err := os.ReadFile(filepath.Join(repo, "doc.go"))
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join(repo, "README.md"))
	require.NoError(t, err)
	for name, listed := range map[string][]string{"doc.go": docMap(t, string(doc)), "README.md": readmeMap(t, string(readme))} {
		assert.ElementsMatch(t, pkgs, listed, "%s lists each package there is, once", name)
	}
}

// TestPackageMapCanFail checks the readers on a map made up.
func TestPackageMapCanFail(t *testing.T) {
	doc := "// # Packages\n//\n// Intro.\n//\n//\tschema   compile\n//\tenforce  the loop\n//\n// # Imports\n//\n//\tnot a package\n"
	assert.Equal(t, []string{"schema", "enforce"}, docMap(t, doc))
	readme := "| package | job |\n|---|---|\n| [`schema`](schema) | compile |\n| [`eval`](eval) | evaluate |\n| `x` | no link |\n\n| example | what |\n| [`examples/a`](examples/a) | not a package |\n"
	assert.Equal(t, []string{"schema", "eval"}, readmeMap(t, readme))
}
