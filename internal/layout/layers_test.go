package layout_test

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// layers are the library's packages from the bottom up, relative to the
// root module's path: a package's code (its tests aside) imports only
// packages of lower layers and internal/ packages. This list is the one
// place the layers are written; a package in no layer fails the test, so
// a new package is placed when it is added. The example programs, at the
// top, may import anything but an internal/ package of another tree.
var layers = [][]string{
	// What everything builds on; none imports another.
	{"schema", "extract", "inputs", "provider", "provider/wiretest"},
	// Each over one foundation.
	{"schema/dialect", "registry", "crosscheck", "provider/providertest", "provider/record", "provider/internal/httpstream"},
	// Adapters and the registry's stores and kits.
	{"provider/ollama", "provider/openaicompat", "provider/anthropic", "provider/gemini",
		"registry/registryhttp", "registry/registrytest", "registry/sqlregistry"},
	// The loop; the OpenAI adapter, over the Chat Completions one.
	{"enforce", "provider/openai"},
	// What runs the loop.
	{"enforce/enforcetest", "batch", "blueprint"},
	// What runs blueprints and batches, and the integrations.
	{"batch/batchtest", "batch/sqlstore", "eval", "otelagentio", "mcpagentio", "langchaingoagentio", "einoagentio", "genkitagentio"},
	// The command.
	{"cmd/agentio"},
}

// layerOf returns the layer of the package p (an import path), or -1 when
// it is in none.
func layerOf(p string) int {
	rel, _ := strings.CutPrefix(p, root+"/")
	for i, l := range layers {
		if slices.Contains(l, rel) {
			return i
		}
	}
	return -1
}

// TestLayers checks that imports run down the layers.
func TestLayers(t *testing.T) {
	all, _ := files(t)
	assert.Empty(t, upward(all), "an import runs up the layers (or across one)")
}

// upward returns what breaks the layers in files: an import up or across,
// a package in no layer.
func upward(all []goFile) []string {
	var bad []string
	placed := map[string]bool{}
	for _, f := range all {
		if strings.HasSuffix(f.name, "_test.go") || strings.HasPrefix(f.name, "examples/") || strings.HasPrefix(f.name, "benchmarks/") {
			continue
		}
		if _, internal := internalTree(f.pkg); internal && f.pkg != root+"/provider/internal/httpstream" {
			continue // internal packages: the rules above
		}
		if f.pkg == root || isTestModule(f.name) {
			continue // the root's doc, and modules holding tests only
		}
		from := layerOf(f.pkg)
		if from < 0 {
			if !placed[f.pkg] {
				bad = append(bad, fmt.Sprintf("%s is in no layer: add it to layers", strings.TrimPrefix(f.pkg, root+"/")))
				placed[f.pkg] = true
			}
			continue
		}
		for _, im := range f.imports {
			if _, internal := internalTree(im); internal && im != root+"/provider/internal/httpstream" {
				continue
			}
			to := layerOf(im)
			if to < 0 {
				bad = append(bad, fmt.Sprintf("%s (layer %d) imports %s, which is in no layer", f.name, from, strings.TrimPrefix(im, root+"/")))
				continue
			}
			if to >= from {
				bad = append(bad, fmt.Sprintf("%s (layer %d) imports %s (layer %d)", f.name, from, strings.TrimPrefix(im, root+"/"), to))
			}
		}
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

// isTestModule reports whether the file name (slash-separated, from the
// repository) belongs to a module that holds tests of another package
// against real databases (.../sqltest).
func isTestModule(name string) bool {
	return path.Base(path.Dir(name)) == "sqltest"
}

// TestUpward checks the check on imports made up.
func TestUpward(t *testing.T) {
	file := func(pkg string, imports ...string) goFile {
		f := goFile{name: pkg + "/x.go", pkg: root + "/" + pkg}
		for _, im := range imports {
			f.imports = append(f.imports, root+"/"+im)
		}
		return f
	}
	for _, tc := range []struct {
		f    goFile
		want string
	}{
		{file("enforce", "schema", "internal/clip"), ""},
		{file("schema", "enforce"), "schema/x.go (layer 0) imports enforce (layer 3)"},
		{file("schema", "extract"), "schema/x.go (layer 0) imports extract (layer 0)"},
		{file("enforce", "eval"), "enforce/x.go (layer 3) imports eval (layer 5)"},
		{file("newpkg", "schema"), "newpkg is in no layer: add it to layers"},
		{file("provider", "provider/internal/httpstream"), "provider/x.go (layer 0) imports provider/internal/httpstream (layer 1)"},
		{file("enforce", "examples/quickstart"), "enforce/x.go (layer 3) imports examples/quickstart, which is in no layer"},
	} {
		got := upward([]goFile{tc.f})
		if tc.want == "" {
			assert.Empty(t, got, tc.f.name)
		} else {
			assert.Equal(t, []string{tc.want}, got)
		}
	}
	for _, l := range layers {
		for _, p := range l {
			n := 0
			for _, m := range layers {
				for _, q := range m {
					if q == p {
						n++
					}
				}
			}
			assert.Equal(t, 1, n, "%s is in exactly one layer", p)
		}
	}
}
