package readme_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sources are the test files, relative to this folder, that hold the
// README's snippets. provider/openai, registry/sqlregistry/sqltest, otelagentio, mcpagentio and the framework modules (langchaingoagentio, einoagentio, genkitagentio) are
// modules of their own: their snippets are compiled and run by those
// modules' tests, and only compared here.
var sources = []string{"snippets_test.go", "../../provider/openai/readme_test.go", "../../registry/sqlregistry/sqltest/readme_test.go", "../../otelagentio/readme_test.go", "../../mcpagentio/readme_test.go", "../../langchaingoagentio/readme_test.go", "../../einoagentio/readme_test.go", "../../genkitagentio/readme_test.go"}

var (
	readmeSnippet = regexp.MustCompile("(?s)<!-- snippet: ([a-z0-9-]+) -->\n```go\n(.*?)```")
	sourceSnippet = regexp.MustCompile(`(?s)\n([ \t]*)// snippet: ([a-z0-9-]+)\n(.*?)\n[ \t]*// end snippet\n`)
)

// TestSnippetsMatchREADME fails when a Go snippet in README.md is not,
// to the character, a region of tested code.
func TestSnippetsMatchREADME(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)

	tested := map[string]string{}
	for _, src := range sources {
		data, err := os.ReadFile(src)
		require.NoError(t, err)
		for _, m := range sourceSnippet.FindAllStringSubmatch(string(data), -1) {
			tested[m[2]] = dedent(m[3], m[1])
		}
	}

	shown := readmeSnippet.FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, shown, "README.md marks no snippets")
	for _, m := range shown {
		name, code := m[1], m[2]
		t.Run(name, func(t *testing.T) {
			want, ok := tested[name]
			require.True(t, ok, "README snippet %q is in no tested source (%v)", name, sources)
			assert.Equal(t, want, strings.TrimRight(code, "\n"), "README snippet %q differs from the tested code", name)
		})
	}
	assert.Equal(t, len(tested), len(shown), "every tested snippet is shown once in the README")
}

// dedent removes indent from the start of every line of s.
func dedent(s, indent string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, indent)
	}
	return strings.Join(lines, "\n")
}
