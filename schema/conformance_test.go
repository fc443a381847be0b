package schema_test

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

const suiteDir = "../../shared/conformance/JSON-Schema-Test-Suite"

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string `json:"description"`
		Data        any    `json:"data"`
		Valid       bool   `json:"valid"`
	} `json:"tests"`
}

// suiteLoader serves the suite's remotes (http://localhost:1234/...) from
// disk; nothing else.
func suiteLoader(uri string) ([]byte, error) {
	rest, ok := strings.CutPrefix(uri, "http://localhost:1234/")
	if !ok {
		return nil, os.ErrNotExist
	}
	return os.ReadFile(filepath.Join(suiteDir, "remotes", filepath.FromSlash(rest)))
}

// withDraft adds $schema to a root object that has none.
func withDraft(raw json.RawMessage, uri string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m["$schema"] != nil {
		return raw
	}
	m["$schema"], _ = json.Marshal(uri)
	out, _ := json.Marshal(m)
	return out
}

// authority compiles raw with jsonschema-go alone.
func authority(raw json.RawMessage) (*jsonschema.Resolved, error) {
	var js jsonschema.Schema
	if err := json.Unmarshal(raw, &js); err != nil {
		return nil, err
	}
	load := func(u *url.URL) (*jsonschema.Schema, error) {
		data, err := suiteLoader(u.String())
		if err != nil {
			return nil, err
		}
		var s jsonschema.Schema
		return &s, json.Unmarshal(data, &s)
	}
	return js.Resolve(&jsonschema.ResolveOptions{Loader: load})
}

func TestConformance(t *testing.T) {
	if _, err := os.Stat(suiteDir); err != nil {
		t.Skipf("JSON-Schema-Test-Suite not found at %s: %v", suiteDir, err)
	}
	for _, dr := range []struct{ dir, uri string }{
		{"draft2020-12", "https://json-schema.org/draft/2020-12/schema"},
		{"draft7", "http://json-schema.org/draft-07/schema#"},
	} {
		t.Run(dr.dir, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join(suiteDir, "tests", dr.dir, "*.json"))
			require.NoError(t, err)
			require.NotEmpty(t, files)
			var groups, compiled, refused, authorityRefused, cases, suiteAgree, authorityAgree, diagAgree, fallback int
			for _, file := range files {
				data, err := os.ReadFile(file)
				require.NoError(t, err)
				var gs []suiteGroup
				require.NoError(t, json.Unmarshal(data, &gs))
				for _, g := range gs {
					groups++
					raw := withDraft(g.Schema, dr.uri)
					rs, aerr := authority(raw)
					s, err := schema.ParseWith(raw, &schema.ParseOptions{Loader: suiteLoader})
					if aerr != nil {
						authorityRefused++
						continue
					}
					if err != nil {
						refused++
						t.Logf("%s / %s: refused: %v", filepath.Base(file), g.Description, err)
						continue
					}
					compiled++
					for _, tc := range g.Tests {
						cases++
						name := filepath.Base(file) + " / " + g.Description + " / " + tc.Description
						vs := s.Validate(tc.Data)
						authValid := rs.Validate(tc.Data) == nil
						if assert.Equal(t, authValid, len(vs) == 0, "%s: verdict differs from jsonschema-go: %v", name, vs) {
							authorityAgree++
						}
						if authValid == tc.Valid {
							suiteAgree++
						}
						n := schema.DiagnosticCount(s, tc.Data)
						if (n == 0) == authValid {
							diagAgree++
						} else if !authValid {
							fallback++
						} else {
							t.Errorf("%s: the diagnostic pass finds %d violations in a valid value", name, n)
						}
					}
				}
			}
			t.Logf("%s: %d groups, %d compiled, %d refused by Parse, %d refused by jsonschema-go; %d cases: "+
				"Validate agrees with jsonschema-go on %d (%.2f%%); jsonschema-go agrees with the suite on %d; "+
				"the diagnostic pass alone agrees on %d, falls back to jsonschema-go's message on %d",
				dr.dir, groups, compiled, refused, authorityRefused, cases, authorityAgree,
				100*float64(authorityAgree)/float64(max(cases, 1)), suiteAgree, diagAgree, fallback)
		})
	}
}
