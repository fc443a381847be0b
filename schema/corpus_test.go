package schema_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/shared"
	"github.com/agentio/agentio/schema"
)

// TestCorpusAgreement compiles the real-world schemas of the corpus and
// checks Validate's verdict against each instance's label, by default and
// with ParseOptions.AssertFormat; every disagreement of the latter must be
// listed, with its class and reason, in testdata/corpus-disagreements.tsv,
// and every listed one must still occur. It also checks the diagnostic
// pass against jsonschema-go.
func TestCorpusAgreement(t *testing.T) {
	shared.Measuring(t)
	listed := readDisagreements(t)
	seen := map[string]bool{}
	var schemas, compiled, cases, labelAgree, formatAgree, diagAgree, fallback, authorityCases, authorityAgree int
	for _, rec := range readCorpus(t) {
		schemas++
		cases += len(rec.Tests)
		s, err := schema.Parse(rec.Schema)
		sf, ferr := schema.ParseWith(rec.Schema, &schema.ParseOptions{AssertFormat: true})
		require.Equal(t, err == nil, ferr == nil, "%s: AssertFormat changes whether the schema compiles", rec.ID)
		if err != nil {
			var ie *schema.InvalidSchemaError
			require.True(t, errors.As(err, &ie), "%s: %v", rec.ID, err)
			key := rec.ID + "\tcompile"
			seen[key] = true
			assert.Contains(t, listed, key, "%s: refused and not listed: %v", rec.ID, err)
			continue
		}
		compiled++
		// Where jsonschema-go applies the document as written, its verdict
		// must be Validate's: the document names a $schema it knows, or none
		// and no draft-07-only form (Parse reads those as draft-07, where
		// jsonschema-go would read them as 2020-12).
		var rs *jsonschema.Resolved
		var head struct {
			Schema string `json:"$schema"`
		}
		if json.Unmarshal(rec.Schema, &head) == nil && authorityDialects[head.Schema] &&
			(head.Schema != "" || !draft7Forms.Match(rec.Schema)) && !caseVariants(s) {
			var js jsonschema.Schema
			if json.Unmarshal(rec.Schema, &js) == nil {
				rs, _ = js.Resolve(nil)
			}
		}
		for i, tc := range rec.Tests {
			vs, err := s.ValidateJSON(tc.Data)
			require.NoError(t, err)
			fvs, err := sf.ValidateJSON(tc.Data)
			require.NoError(t, err)
			var v any
			require.NoError(t, json.Unmarshal(tc.Data, &v))
			if rs != nil {
				authorityCases++
				if assert.Equal(t, rs.Validate(v) == nil, len(vs) == 0, "%s: %s: verdict differs from jsonschema-go: %v", rec.ID, tc.Data, vs) {
					authorityAgree++
				}
			}
			if (len(vs) == 0) == tc.Valid {
				labelAgree++
			} else if (len(fvs) == 0) == tc.Valid {
				// A disagreement AssertFormat removes is a format the
				// label asserts.
				assert.True(t, bytes.Contains(rec.Schema, []byte(`"format"`)), "%s[%d]: AssertFormat changes a verdict without a format", rec.ID, i)
			}
			if (len(fvs) == 0) == tc.Valid {
				formatAgree++
			} else {
				key := rec.ID + "\t" + strconv.Itoa(i)
				seen[key] = true
				assert.Contains(t, listed, key, "%s[%d]: disagrees with its label (valid=%v) and is not listed: %v", rec.ID, i, tc.Valid, fvs)
			}
			n := schema.DiagnosticCount(s, v)
			switch {
			case (n == 0) == (len(vs) == 0):
				diagAgree++
			case len(vs) > 0:
				fallback++
			default:
				assert.Fail(t, "diagnostic pass reports violations in a valid value", "%s: %s", rec.ID, tc.Data)
			}
		}
	}
	for key := range listed {
		assert.True(t, seen[key], "%s is listed in testdata/corpus-disagreements.tsv but agrees now: remove it", key)
	}
	t.Logf("corpus: %d schemas, %d compile with Parse (%.1f%%); %d instances: "+
		"verdict matches the label on %d (%.2f%%), with AssertFormat on %d (%.2f%%); "+
		"diagnostic pass agrees with jsonschema-go on %d, falls back on %d; "+
		"Validate agrees with jsonschema-go on %d of the %d instances whose schema it applies as written",
		schemas, compiled, 100*float64(compiled)/float64(schemas), cases,
		labelAgree, 100*float64(labelAgree)/float64(max(cases, 1)), formatAgree, 100*float64(formatAgree)/float64(max(cases, 1)),
		diagAgree, fallback, authorityAgree, authorityCases)
	assert.GreaterOrEqual(t, labelAgree, 8908)
	assert.GreaterOrEqual(t, formatAgree, 9107)
}

// A corpusRecord is one real-world schema of the corpus with its
// labelled instances.
type corpusRecord struct {
	ID     string          `json:"id"`
	Schema json.RawMessage `json:"schema"`
	Tests  []struct {
		Data  json.RawMessage `json:"data"`
		Valid bool            `json:"valid"`
	} `json:"tests"`
}

// readCorpus reads the real-world corpus (or ends t as shared.Corpus
// says when it is missing).
func readCorpus(t *testing.T) []corpusRecord {
	f, err := os.Open(shared.Corpus(t, "schema_tests.sample.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var out []corpusRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var rec corpusRecord
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		out = append(out, rec)
	}
	require.NoError(t, sc.Err())
	return out
}

// readDisagreements reads testdata/corpus-disagreements.tsv into a set of
// "id\tindex" keys, checking each line has a known class and a reason.
func readDisagreements(t *testing.T) map[string]bool {
	data, err := os.ReadFile("testdata/corpus-disagreements.tsv")
	require.NoError(t, err)
	out := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		require.Len(t, f, 4, "line %q", line)
		require.Contains(t, []string{"schema-invalid", "label-wrong", "spec", "re2"}, f[2], "line %q", line)
		require.NotEmpty(t, f[3], "line %q: no reason", line)
		out[f[0]+"\t"+f[1]] = true
	}
	return out
}

// TestRE2Lookahead checks the minimal case of the re2 class: Parse refuses
// a pattern with lookaround with a clear reason, as jsonschema-go does.
func TestRE2Lookahead(t *testing.T) {
	data, err := os.ReadFile("testdata/re2-lookahead.json")
	require.NoError(t, err)
	_, err = schema.Parse(data)
	var ie *schema.InvalidSchemaError
	require.True(t, errors.As(err, &ie), "%v", err)
	assert.Equal(t, "$.pattern", ie.Path)
	assert.Contains(t, ie.Reason, "not a regular expression Go supports")
	var js jsonschema.Schema
	require.NoError(t, json.Unmarshal(data, &js))
	_, err = js.Resolve(nil)
	assert.Error(t, err, "jsonschema-go refuses it too")
}

// authorityDialects are the $schema values jsonschema-go validates under
// as they are written ("" is none).
var authorityDialects = map[string]bool{
	"": true,
	"https://json-schema.org/draft/2020-12/schema": true,
	"http://json-schema.org/draft-07/schema#":      true,
	"https://json-schema.org/draft-07/schema#":     true,
}

// caseVariants reports whether s's document writes a keyword in another
// case ("anyof"), which Parse ignores as JSON Schema says (with a warning)
// but jsonschema-go, decoding with encoding/json, applies: a deliberate
// difference.
func caseVariants(s *schema.Schema) bool {
	for _, w := range s.Warnings() {
		if m := didYouMean.FindStringSubmatch(w.Message); m != nil && strings.EqualFold(m[1], w.Keyword) {
			return true
		}
	}
	return false
}

var didYouMean = regexp.MustCompile(`did you mean '([^']+)'`)

// draft7Forms finds the keywords that make Parse read a document without
// $schema as draft-07 (array-form items, additionalItems, dependencies).
var draft7Forms = regexp.MustCompile(`"(additionalItems|dependencies)"\s*:|"items"\s*:\s*\[`)
