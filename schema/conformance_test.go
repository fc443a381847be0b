package schema_test

import (
	"encoding/json"
	"iter"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/shared"
	"github.com/agentio/agentio/schema"
)

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string `json:"description"`
		Data        any    `json:"data"`
		Valid       bool   `json:"valid"`
	} `json:"tests"`
}

// suiteGroups yields the name and groups of each test file in the suite's
// folder tests/dir, which must hold some.
func suiteGroups(tb testing.TB, suiteDir, dir string) iter.Seq2[string, []suiteGroup] {
	return func(yield func(string, []suiteGroup) bool) {
		files, err := filepath.Glob(filepath.Join(suiteDir, "tests", filepath.FromSlash(dir), "*.json"))
		require.NoError(tb, err)
		require.NotEmpty(tb, files, "the suite's tests in %s", dir)
		for _, file := range files {
			data, err := os.ReadFile(file)
			require.NoError(tb, err)
			var gs []suiteGroup
			require.NoError(tb, json.Unmarshal(data, &gs), file)
			if !yield(filepath.Base(file), gs) {
				return
			}
		}
	}
}

// suiteLoader serves the remotes (http://localhost:1234/...) of the suite
// in dir from disk; nothing else.
func suiteLoader(dir string) schema.Loader {
	return func(uri string) ([]byte, error) {
		rest, ok := strings.CutPrefix(uri, "http://localhost:1234/")
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.ReadFile(filepath.Join(dir, "remotes", filepath.FromSlash(rest)))
	}
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

// authority compiles raw with jsonschema-go alone, serving it the suite's
// remotes and the meta-schemas Parse has built in.
func authority(raw json.RawMessage, suiteDir string) (*jsonschema.Resolved, error) {
	var js jsonschema.Schema
	if err := json.Unmarshal(raw, &js); err != nil {
		return nil, err
	}
	load := func(u *url.URL) (*jsonschema.Schema, error) {
		data, ok := schema.BuiltinDocument(u.String())
		if !ok {
			var err error
			if data, err = suiteLoader(suiteDir)(u.String()); err != nil {
				return nil, err
			}
		}
		var s jsonschema.Schema
		return &s, json.Unmarshal(data, &s)
	}
	return js.Resolve(&jsonschema.ResolveOptions{Loader: load})
}

// knownFailures lists the suite tests Validate fails, with the reason. The
// test fails when one of them passes (update the list) or another fails.
var knownFailures = map[string]string{
	"draft2020-12/vocabulary.json / schema that uses custom metaschema with with no validation vocabulary / no validation: invalid number, but it still validates": "a custom meta-schema's $vocabulary is not applied: the schema is read under draft 2020-12 rules with every vocabulary (Parse warns so)",
}

// customMetaSchema reports whether raw's $schema names a document other
// than the two drafts: jsonschema-go then refuses to validate anything as
// valid, while Parse reads the schema under its meta-schema's draft.
func customMetaSchema(raw json.RawMessage) bool {
	var head struct {
		Schema string `json:"$schema"`
	}
	return json.Unmarshal(raw, &head) == nil && strings.HasPrefix(head.Schema, "http://localhost:1234/")
}

// TestConformance runs the whole JSON-Schema-Test-Suite for draft 2020-12
// and draft-07 (refRemote included, its remotes served from disk, the
// meta-schemas built in) through Parse and Validate, and through
// jsonschema-go alone on the same files, and checks: the suite's verdict
// for every test but knownFailures, never fewer passes than jsonschema-go,
// Validate's verdict equal to jsonschema-go's wherever both compile, and
// the diagnostic pass agreeing with both.
func TestConformance(t *testing.T) {
	shared.Measuring(t)
	suiteDir := shared.Suite(t)
	for _, dr := range []struct {
		dir, uri string
		want     int // the least number of suite tests Validate must pass
	}{
		{"draft2020-12", "https://json-schema.org/draft/2020-12/schema", 1298},
		{"draft7", "http://json-schema.org/draft-07/schema#", 927},
	} {
		t.Run(dr.dir, func(t *testing.T) {
			var total, pass, authorityPass, refused, authorityRefused, diagAgree, fallback int
			for file, gs := range suiteGroups(t, suiteDir, dr.dir) {
				for _, g := range gs {
					raw := withDraft(g.Schema, dr.uri)
					rs, aerr := authority(raw, suiteDir)
					s, err := schema.ParseWith(raw, &schema.ParseOptions{Loader: suiteLoader(suiteDir)})
					if err != nil {
						refused++
						t.Logf("%s / %s: refused by Parse: %v", file, g.Description, err)
					}
					if aerr != nil {
						authorityRefused++
						t.Logf("%s / %s: refused by jsonschema-go: %v", file, g.Description, aerr)
					}
					for _, tc := range g.Tests {
						total++
						name := dr.dir + "/" + file + " / " + g.Description + " / " + tc.Description
						authValid := false
						if aerr == nil {
							authValid = rs.Validate(tc.Data) == nil
							if authValid == tc.Valid {
								authorityPass++
							} else {
								t.Logf("jsonschema-go fails %s", name)
							}
						}
						if err != nil {
							assert.Contains(t, knownFailures, name, "%s: schema refused: %v", name, err)
							continue
						}
						vs := s.Validate(tc.Data)
						if (len(vs) == 0) == tc.Valid {
							pass++
							assert.NotContains(t, knownFailures, name, "%s passes now: remove it from knownFailures", name)
						} else {
							assert.Contains(t, knownFailures, name, "%s: want valid=%v, got violations %v", name, tc.Valid, vs)
						}
						if aerr == nil && !customMetaSchema(raw) {
							assert.Equal(t, authValid, len(vs) == 0, "%s: verdict differs from jsonschema-go: %v", name, vs)
						}
						n := schema.DiagnosticCount(s, tc.Data)
						switch {
						case (n == 0) == (len(vs) == 0):
							diagAgree++
						case len(vs) > 0:
							fallback++
						default:
							t.Errorf("%s: the diagnostic pass finds %d violations in a valid value", name, n)
						}
					}
				}
			}
			t.Logf("%s: %d tests: Parse+Validate pass %d (%d groups refused), jsonschema-go alone passes %d (%d groups refused); "+
				"the diagnostic pass alone agrees with Validate on %d, falls back to jsonschema-go's message on %d",
				dr.dir, total, pass, refused, authorityPass, authorityRefused, diagAgree, fallback)
			assert.GreaterOrEqual(t, pass, dr.want)
			assert.GreaterOrEqual(t, pass, authorityPass, "Validate passes fewer suite tests than jsonschema-go")
		})
	}
}

// TestFormatConformance runs the suite's optional format tests (draft
// 2020-12) with ParseOptions.AssertFormat. The failures are the formats
// not asserted (idn-email, idn-hostname), Punycode A-labels in host names,
// ECMA-262 regular expressions (checked with Go's RE2 syntax) and IPvFuture
// hosts.
func TestFormatConformance(t *testing.T) {
	shared.Measuring(t)
	suiteDir := shared.Suite(t)
	notAsserted := regexp.MustCompile(`^(idn-email|idn-hostname|ecmascript-regex)\.json|A-label|IPvFuture`)
	var total, pass int
	for file, gs := range suiteGroups(t, suiteDir, "draft2020-12/optional/format") {
		for _, g := range gs {
			s, err := schema.ParseWith(withDraft(g.Schema, "https://json-schema.org/draft/2020-12/schema"), &schema.ParseOptions{AssertFormat: true})
			require.NoError(t, err)
			for _, tc := range g.Tests {
				total++
				name := file + " / " + g.Description + " / " + tc.Description
				vs := s.Validate(tc.Data)
				if (len(vs) == 0) == tc.Valid {
					pass++
					continue
				}
				assert.Regexp(t, notAsserted, name, "%s: want valid=%v, got %v", name, tc.Valid, vs)
			}
		}
	}
	t.Logf("optional/format with AssertFormat: %d of %d tests pass", pass, total)
	assert.GreaterOrEqual(t, pass, 675)
}
