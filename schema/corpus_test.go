package schema_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

const corpusFile = "../../shared/corpora/schema_tests.sample.jsonl"

// TestCorpusAgreement compiles the real-world schemas of the corpus and
// checks Validate's verdict against each instance's label, and the
// diagnostic pass against jsonschema-go.
func TestCorpusAgreement(t *testing.T) {
	f, err := os.Open(corpusFile)
	if err != nil {
		t.Skipf("corpus not found at %s: %v", corpusFile, err)
	}
	defer f.Close()
	var schemas, compiled, cases, labelAgree, diagAgree, fallback, formatMiss, rejected, otherMiss, authorityCases, authorityAgree int
	reasons := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var rec struct {
			ID     string          `json:"id"`
			Schema json.RawMessage `json:"schema"`
			Tests  []struct {
				Data  json.RawMessage `json:"data"`
				Valid bool            `json:"valid"`
			} `json:"tests"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		schemas++
		s, err := schema.Parse(rec.Schema)
		if err != nil {
			var ie *schema.InvalidSchemaError
			require.True(t, errors.As(err, &ie), "%s: %v", rec.ID, err)
			reasons[firstWords(ie.Reason)]++
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
			(head.Schema != "" || !draft7Forms.Match(rec.Schema)) {
			var js jsonschema.Schema
			if json.Unmarshal(rec.Schema, &js) == nil {
				rs, _ = js.Resolve(nil)
			}
		}
		for _, tc := range rec.Tests {
			cases++
			vs, err := s.ValidateJSON(tc.Data)
			require.NoError(t, err)
			if rs != nil {
				var v any
				require.NoError(t, json.Unmarshal(tc.Data, &v))
				authorityCases++
				if assert.Equal(t, rs.Validate(v) == nil, len(vs) == 0, "%s: %s: verdict differs from jsonschema-go: %v", rec.ID, tc.Data, vs) {
					authorityAgree++
				}
			}
			if (len(vs) == 0) == tc.Valid {
				labelAgree++
			} else if tc.Valid {
				rejected++
			} else if bytes.Contains(rec.Schema, []byte(`"format"`)) {
				formatMiss++ // jsonschema-go does not assert "format"
			} else {
				otherMiss++
			}
			var v any
			require.NoError(t, json.Unmarshal(tc.Data, &v))
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
	require.NoError(t, sc.Err())
	t.Logf("corpus: %d schemas, %d compile with Parse (%.1f%%); %d instances: "+
		"verdict matches the label on %d (%.2f%%); labelled valid but rejected: %d; labelled invalid but accepted: %d in schemas using \"format\" (not asserted), %d others; "+
		"diagnostic pass agrees with jsonschema-go on %d, falls back on %d; "+
		"Validate agrees with jsonschema-go on %d of the %d instances whose schema it applies as written",
		schemas, compiled, 100*float64(compiled)/float64(schemas), cases,
		labelAgree, 100*float64(labelAgree)/float64(max(cases, 1)), rejected, formatMiss, otherMiss, diagAgree, fallback,
		authorityAgree, authorityCases)
	t.Logf("refusal reasons: %v", reasons)
}

// authorityDialects are the $schema values jsonschema-go validates under
// as they are written ("" is none).
var authorityDialects = map[string]bool{
	"": true,
	"https://json-schema.org/draft/2020-12/schema": true,
	"http://json-schema.org/draft-07/schema#":      true,
	"https://json-schema.org/draft-07/schema#":     true,
}

// draft7Forms finds the keywords that make Parse read a document without
// $schema as draft-07 (array-form items, additionalItems, dependencies).
var draft7Forms = regexp.MustCompile(`"(additionalItems|dependencies)"\s*:|"items"\s*:\s*\[`)

func firstWords(s string) string {
	n := 0
	for i, r := range s {
		if r == ' ' {
			n++
			if n == 3 {
				return s[:i]
			}
		}
	}
	return s
}
