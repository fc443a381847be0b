package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/schema"
)

// TestPathsRoundTrip follows a path through every package that writes or
// reads one, for member names that once broke it: a '$' inside a name,
// which crosscheck rejected, and a newline, which one package escaped and
// another did not. A violation's path selects, through crosscheck, the
// very value it names; and agentio lint points at the member itself, not
// at the document's root.
func TestPathsRoundTrip(t *testing.T) {
	for _, key := range []string{"a$b", "line\nkey", "it's [odd].", "tab\there"} {
		t.Run(key, func(t *testing.T) {
			name, err := json.Marshal(key)
			require.NoError(t, err)
			s, err := schema.Parse([]byte(`{"type":"object","properties":{` + string(name) + `:{"type":"integer"}}}`))
			require.NoError(t, err)
			var value any
			require.NoError(t, json.Unmarshal([]byte(`{`+string(name)+`:"x","other":1}`), &value))

			vs := s.Validate(value)
			require.Len(t, vs, 1)
			p, err := crosscheck.ParsePath(vs[0].Path)
			require.NoError(t, err, "crosscheck reads the violation's path %s", vs[0].Path)
			matches := p.Select(value)
			require.Len(t, matches, 1)
			assert.Equal(t, "x", matches[0].Value)
			assert.Equal(t, vs[0].Path, matches[0].Path)

			// A schema problem under that member: lint names its line.
			doc := "{\n  \"type\": \"object\",\n  \"properties\": {\n    " + string(name) + ": {\"type\": \"strin\"}\n  }\n}\n"
			file := filepath.Join(t.TempDir(), "odd.schema.json")
			require.NoError(t, os.WriteFile(file, []byte(doc), 0o644))
			out, _, code := agentio(t, "", "lint", "-format", "json", file)
			assert.Equal(t, 1, code)
			var findings []struct {
				Line, Column int
				Path         string
				Pointer      *string
			}
			require.NoError(t, json.Unmarshal([]byte(out), &findings), out)
			require.Len(t, findings, 1)
			assert.Equal(t, 4, findings[0].Line, "%+v", findings[0])
			line := strings.Split(doc, "\n")[3]
			assert.Equal(t, strings.Index(line, `"strin"`)+1, findings[0].Column, "the column of the bad type value")
			require.NotNil(t, findings[0].Pointer)
			assert.Equal(t, "/properties/"+key+"/type", *findings[0].Pointer)
		})
	}
}
