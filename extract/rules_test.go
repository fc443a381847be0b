package extract_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
)

// ruleCase is one case of testdata/repair_rules.json: a reply, the
// validator (if any) standing for a schema, and the JSON repair gives (null
// for an error) with the kinds of fix it makes, in order of first use.
type ruleCase struct {
	Rule  string  `json:"rule"`
	Name  string  `json:"name"`
	Text  string  `json:"text"`
	Valid string  `json:"valid"`
	Want  *string `json:"want"`
	// Fixes lists every fix made, in order, as kind, before and after.
	Fixes [][3]string `json:"fixes"`
	// Truncated is true for a reply cut off inside the value.
	Truncated bool `json:"truncated"`
}

// validatorFor builds the stand-in for a schema a rule case names:
// "any", "string", "boolean", "object", "has:<key>" (an object with that
// key) or "len:<n>" (an array of n elements).
func validatorFor(t *testing.T, name string) func(json.RawMessage) bool {
	t.Helper()
	kind, arg, _ := strings.Cut(name, ":")
	return func(data json.RawMessage) bool {
		var v any
		require.NoError(t, json.Unmarshal(data, &v), "the validator is handed valid JSON")
		switch kind {
		case "any":
			return true
		case "string":
			_, ok := v.(string)
			return ok
		case "boolean":
			_, ok := v.(bool)
			return ok
		case "object":
			_, ok := v.(map[string]any)
			return ok
		case "has":
			m, ok := v.(map[string]any)
			_, has := m[arg]
			return ok && has
		case "len":
			n, err := strconv.Atoi(arg)
			require.NoError(t, err)
			a, ok := v.([]any)
			return ok && len(a) == n
		}
		t.Fatalf("unknown validator %q", name)
		return false
	}
}

// TestRepairRules runs the table of repair rules in
// testdata/repair_rules.json: each shape, its fix kinds, and what is a
// guess (an error without a validator, settled by one).
func TestRepairRules(t *testing.T) {
	data, err := os.ReadFile("testdata/repair_rules.json")
	require.NoError(t, err)
	var cases []ruleCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	for _, tc := range cases {
		t.Run(tc.Rule+"/"+tc.Name, func(t *testing.T) {
			opts := []extract.Option{extract.WithRepair()}
			if tc.Valid != "" {
				opts = append(opts, extract.WithAccept(validatorFor(t, tc.Valid)))
			}
			got, err := extract.JSON(tc.Text, opts...)
			if tc.Want == nil {
				assert.ErrorIs(t, err, extract.ErrNoJSON, "got %s", got.JSON)
				return
			}
			require.NoError(t, err)
			var want, have any
			require.NoError(t, json.Unmarshal([]byte(*tc.Want), &want))
			require.NoError(t, json.Unmarshal(got.JSON, &have))
			assert.True(t, reflect.DeepEqual(want, have), "want %s, got %s", *tc.Want, got.JSON)
			var fixes [][3]string
			for _, f := range got.Fixes {
				assertFix(t, tc.Text, f)
				fixes = append(fixes, [3]string{string(f.Kind), f.Before, f.After})
			}
			assert.Equal(t, tc.Fixes, fixes)
			assert.Equal(t, tc.Truncated, got.Truncated())
		})
	}
}

func TestWithAcceptRanksCandidates(t *testing.T) {
	isArray := func(data json.RawMessage) bool { return len(data) > 0 && data[0] == '[' }
	got, err := extract.JSON(`First {"a": 1}, then [1, 2].`, extract.WithAccept(isArray))
	require.NoError(t, err)
	assert.Equal(t, `[1, 2]`, string(got.JSON), "the first value the validator accepts")

	never := func(json.RawMessage) bool { return false }
	got, err = extract.JSON(`First {"a": 1}, then [1, 2].`, extract.WithAccept(never))
	require.NoError(t, err)
	assert.Equal(t, `{"a": 1}`, string(got.JSON), "none accepted: the best, for the caller to report")

	_, err = extract.JSON(`{}`, extract.WithAccept(nil))
	assert.ErrorIs(t, err, extract.ErrInvalidOption)
}

func TestValuesSideBySideError(t *testing.T) {
	_, err := extract.JSON("{\"a\": 1}\n{\"a\": 2}", extract.WithRepair())
	var re *extract.ReplyError
	require.ErrorAs(t, err, &re)
	assert.Contains(t, re.Description, "several JSON values side by side")

	got, err := extract.JSON("{\"a\": 1}\n{\"a\": 2}", extract.WithRepair(), extract.WithPreferLast())
	require.NoError(t, err)
	assert.Equal(t, `{"a": 2}`, string(got.JSON), "WithPreferLast says which one is meant")

	got, err = extract.JSON("{\"a\": 1}\n{\"a\": 2}")
	require.NoError(t, err)
	assert.Equal(t, `{"a": 1}`, string(got.JSON), "strict extraction is unchanged")
}
