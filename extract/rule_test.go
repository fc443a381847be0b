package extract_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
)

// TestRepairRulesTable checks the table of rules: one rule per kind of
// fix, each saying what it recognises and writes.
func TestRepairRulesTable(t *testing.T) {
	rules := extract.RepairRules()
	var kinds []extract.FixKind
	for _, r := range rules {
		kinds = append(kinds, r.Kind)
		assert.NotEmpty(t, r.Recognises, r.Kind)
		assert.NotEmpty(t, r.Writes, r.Kind)
	}
	assert.Equal(t, allFixKinds, kinds, "one rule per kind of fix, in declaration order")
	rules[0].Kind = "changed"
	assert.Equal(t, extract.FixTrailingComma, extract.RepairRules()[0].Kind, "the caller owns the slice")
}

// TestWithoutRepairRule turns each rule off in turn on a reply that needs
// it: the reply is then not repaired, while a reply that needs only other
// rules still is.
func TestWithoutRepairRule(t *testing.T) {
	needs := map[extract.FixKind]string{
		extract.FixTrailingComma:  `{"a": 1,}`,
		extract.FixMissingComma:   `[1 2]`,
		extract.FixMissingColon:   `{"a" 1}`,
		extract.FixComment:        `{"a": 1 /* n */}`,
		extract.FixSingleQuote:    `{'a': 1}`,
		extract.FixSmartQuote:     `{“a”: 1}`,
		extract.FixUnquotedKey:    `{a: 1}`,
		extract.FixUnquotedString: `{"a": New York}`,
		extract.FixMissingQuote:   `{"a": "b, "c": 1}`,
		extract.FixEscapedJSON:    `{\"a\": 1}`,
		extract.FixPythonLiteral:  `[True]`,
		extract.FixStringEscape:   "[\"a\tb\"]",
		extract.FixNonFinite:      `[NaN]`,
		extract.FixNumber:         `[+1]`,
		extract.FixEllipsis:       `[1 ...]`,
		extract.FixMissingValue:   `{"a": , "b": 1}`,
		extract.FixDanglingKey:    `{"a": 1, "b":`,
		extract.FixBracket:        `[1, 2}`,
		extract.FixWhitespace:     "[1,\u00a02]",
		extract.FixWrapper:        `cb({"a": 1})`,
		extract.FixConcatenation:  `["a" + "b"]`,
		extract.FixTruncated:      `{"a": [1`,
	}
	for _, kind := range allFixKinds {
		text, ok := needs[kind]
		require.True(t, ok, "no reply needs %s", kind)
		t.Run(string(kind), func(t *testing.T) {
			got, err := extract.JSON(text, extract.WithRepair())
			require.NoError(t, err)
			var made bool
			for _, f := range got.Fixes {
				made = made || f.Kind == kind
			}
			require.True(t, made, "the reply makes a %s fix: %+v", kind, got.Fixes)

			for _, c := range extract.Candidates(text, extract.WithRepair(), extract.WithoutRepairRule(kind)) {
				for _, f := range c.Fixes {
					assert.NotEqual(t, kind, f.Kind, "%s turned off, yet %s gave %s", kind, text, c.JSON)
				}
			}
		})
	}

	got, err := extract.JSON(`{'a': 1,}`, extract.WithRepair(), extract.WithoutRepairRule(extract.FixComment))
	require.NoError(t, err, "other rules still apply")
	assert.Equal(t, `{"a":1}`, string(got.JSON))

	_, err = extract.JSON(`{}`, extract.WithoutRepairRule("no_such_rule"))
	assert.True(t, errors.Is(err, extract.ErrInvalidOption), "%v", err)
}
