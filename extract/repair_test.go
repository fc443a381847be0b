package extract_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
)

// allFixKinds lists every kind of fix; TestRepairFixes has a case for each.
var allFixKinds = []extract.FixKind{
	extract.FixTrailingComma, extract.FixMissingComma, extract.FixMissingColon, extract.FixComment,
	extract.FixSingleQuote, extract.FixSmartQuote, extract.FixUnquotedKey, extract.FixUnquotedString,
	extract.FixMissingQuote, extract.FixEscapedJSON, extract.FixPythonLiteral, extract.FixStringEscape,
	extract.FixNonFinite, extract.FixNumber, extract.FixEllipsis, extract.FixMissingValue,
	extract.FixDanglingKey, extract.FixBracket, extract.FixWhitespace, extract.FixWrapper,
	extract.FixConcatenation, extract.FixTruncated,
}

func TestRepairFixes(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		want      string
		kinds     []extract.FixKind // every kind of fix made, in order of first use
		truncated bool
	}{
		{name: "trailing comma in object", text: `{"a": 1,}`, want: `{"a":1}`, kinds: []extract.FixKind{extract.FixTrailingComma}},
		{name: "trailing comma in array", text: `[1, 2, ]`, want: `[1,2]`, kinds: []extract.FixKind{extract.FixTrailingComma}},
		{name: "leading comma", text: `[, 1]`, want: `[1]`, kinds: []extract.FixKind{extract.FixTrailingComma}},
		{name: "missing comma between elements", text: `[1 2]`, want: `[1,2]`, kinds: []extract.FixKind{extract.FixMissingComma}},
		{name: "missing comma between members", text: "{\"a\": 1\n\"b\": 2}", want: `{"a":1,"b":2}`, kinds: []extract.FixKind{extract.FixMissingComma}},
		{name: "missing colon", text: `{"a" 1}`, want: `{"a":1}`, kinds: []extract.FixKind{extract.FixMissingColon}},
		{name: "tabs between tokens", text: "{'a':\t1,\t'b': 2}", want: `{"a":1,"b":2}`, kinds: []extract.FixKind{extract.FixSingleQuote}},
		{name: "lines ending in CRLF", text: "{'a': 1,\r\n'b': 2\r\n}", want: `{"a":1,"b":2}`, kinds: []extract.FixKind{extract.FixSingleQuote}},
		{name: "line comment", text: "{\"a\": 1 // the count\n}", want: `{"a":1}`, kinds: []extract.FixKind{extract.FixComment}},
		{name: "hash comment", text: "{\"a\": 1, # the count\n\"b\": 2}", want: `{"a":1,"b":2}`, kinds: []extract.FixKind{extract.FixComment}},
		{name: "block comment", text: `{"a": /* count */ 1}`, want: `{"a":1}`, kinds: []extract.FixKind{extract.FixComment}},
		{name: "single quotes", text: `{'a': 'it is'}`, want: `{"a":"it is"}`, kinds: []extract.FixKind{extract.FixSingleQuote}},
		{name: "apostrophe inside single quotes", text: `{'a': 'it's'}`, want: `{"a":"it's"}`, kinds: []extract.FixKind{extract.FixSingleQuote}},
		{name: "double quote inside single quotes", text: `{'a': 'say "hi"'}`, want: `{"a":"say \"hi\""}`, kinds: []extract.FixKind{extract.FixSingleQuote}},
		{name: "smart quotes", text: `{“a”: ‘b’}`, want: `{"a":"b"}`, kinds: []extract.FixKind{extract.FixSmartQuote}},
		{name: "unquoted key", text: `{a: 1, b_2: 2}`, want: `{"a":1,"b_2":2}`, kinds: []extract.FixKind{extract.FixUnquotedKey}},
		{name: "unquoted string", text: `{"city": New York}`, want: `{"city":"New York"}`, kinds: []extract.FixKind{extract.FixUnquotedString}},
		{name: "control characters in a bare word", text: "{\"a\": b\x01c\x1fd}", want: `{"a":"b\u0001c\u001fd"}`, kinds: []extract.FixKind{extract.FixUnquotedString}},
		{name: "number-like word", text: `{"v": 1.2.3}`, want: `{"v":"1.2.3"}`, kinds: []extract.FixKind{extract.FixUnquotedString}},
		{name: "leading zeros stay text", text: `{"zip": 0789}`, want: `{"zip":"0789"}`, kinds: []extract.FixKind{extract.FixUnquotedString}},
		{name: "missing closing quote before a key", text: `{"a": "b, "c": 1}`, want: `{"a":"b","c":1}`, kinds: []extract.FixKind{extract.FixMissingQuote}},
		{name: "missing opening quote", text: `[a", "b"]`, want: `["a","b"]`, kinds: []extract.FixKind{extract.FixMissingQuote}},
		{name: "escaped JSON", text: `{\"a\": \"b\"}`, want: `{"a":"b"}`, kinds: []extract.FixKind{extract.FixEscapedJSON}},
		{name: "python literals", text: `{"a": True, "b": False, "c": None}`, want: `{"a":true,"b":false,"c":null}`, kinds: []extract.FixKind{extract.FixPythonLiteral}},
		{name: "raw newline and tab in a string", text: "{\"a\": \"one\ntwo\tthree\"}", want: `{"a":"one\ntwo\tthree"}`, kinds: []extract.FixKind{extract.FixStringEscape}},
		{name: "unescaped quotes in a string", text: `{"a": "say "hi" now"}`, want: `{"a":"say \"hi\" now"}`, kinds: []extract.FixKind{extract.FixStringEscape}},
		{name: "invalid escape of an apostrophe", text: `{"a": "it\'s"}`, want: `{"a":"it's"}`, kinds: []extract.FixKind{extract.FixStringEscape}},
		{name: "lone backslash", text: `{"path": "C:\Users"}`, want: `{"path":"C:\\Users"}`, kinds: []extract.FixKind{extract.FixStringEscape}},
		{name: "non-finite numbers", text: `[NaN, Infinity, -Infinity]`, want: `[null,null,null]`, kinds: []extract.FixKind{extract.FixNonFinite}},
		{name: "numbers JSON lacks", text: `[+1, .5, 2., 3e]`, want: `[1,0.5,2.0,3]`, kinds: []extract.FixKind{extract.FixNumber}},
		{name: "ellipsis", text: `[1, 2, ...]`, want: `[1,2]`, kinds: []extract.FixKind{extract.FixTrailingComma, extract.FixEllipsis}},
		{name: "ellipsis in an object", text: `{"a": 1, … }`, want: `{"a":1}`, kinds: []extract.FixKind{extract.FixTrailingComma, extract.FixEllipsis}},
		{name: "missing value", text: `{"a": , "b": 1}`, want: `{"a":null,"b":1}`, kinds: []extract.FixKind{extract.FixMissingValue}},
		{name: "mismatched bracket", text: `[1, 2}`, want: `[1,2]`, kinds: []extract.FixKind{extract.FixBracket}},
		{name: "missing bracket before its parent's", text: `{"a": [1, 2}`, want: `{"a":[1,2]}`, kinds: []extract.FixKind{extract.FixBracket}},
		{name: "missing brace between elements", text: `[{"i": 1, {"i": 2}]`, want: `[{"i":1},{"i":2}]`, kinds: []extract.FixKind{extract.FixBracket}},
		{name: "odd space", text: "{\"a\":\u00a0\u200b1}", want: `{"a":1}`, kinds: []extract.FixKind{extract.FixWhitespace}},
		{name: "truncated string", text: `{"a": "hel`, want: `{"a":"hel"}`, kinds: []extract.FixKind{extract.FixTruncated}, truncated: true},
		{name: "truncated array", text: `{"a": [1, 2`, want: `{"a":[1,2]}`, kinds: []extract.FixKind{extract.FixTruncated}, truncated: true},
		{name: "truncated after a comma", text: `[1, 2,`, want: `[1,2]`, kinds: []extract.FixKind{extract.FixTrailingComma, extract.FixTruncated}, truncated: true},
		{name: "truncated escape", text: `{"a": "x\u00`, want: `{"a":"x"}`, kinds: []extract.FixKind{extract.FixTruncated}, truncated: true},
		{name: "dangling key", text: `{"a": 1, "b":`, want: `{"a":1}`, kinds: []extract.FixKind{extract.FixDanglingKey, extract.FixTruncated}, truncated: true},
		{name: "dangling key without colon", text: `{"a": 1, "b"`, want: `{"a":1}`, kinds: []extract.FixKind{extract.FixDanglingKey, extract.FixTruncated}, truncated: true},
		{name: "string cut before closing brackets", text: `{"a": ["b]}`, want: `{"a":["b"]}`, kinds: []extract.FixKind{extract.FixMissingQuote}},
		{name: "truncated reply in prose", text: "Sure:\n{\"items\": [{\"id\": 1}, {\"id\": 2, \"tags\": [\"x\"", want: `{"items":[{"id":1},{"id":2,"tags":["x"]}]}`, kinds: []extract.FixKind{extract.FixTruncated}, truncated: true},
		{name: "top-level broken string", text: `"abc`, want: `"abc"`, kinds: []extract.FixKind{extract.FixTruncated}, truncated: true},
		{name: "missing closing quote before a bare key", text: `{"a": "first, b: "second"}`, want: `{"a":"first","b":"second"}`, kinds: []extract.FixKind{extract.FixMissingQuote, extract.FixUnquotedKey}},
		{name: "missing closing quote found at the end", text: `{"a": "first, b: 2}`, want: `{"a":"first","b":2}`, kinds: []extract.FixKind{extract.FixMissingQuote, extract.FixUnquotedKey}},
		{name: "a quote and comma inside a string stay", text: `{"a": "say, "hi" twice"}`, want: `{"a":"say, \"hi\" twice"}`, kinds: []extract.FixKind{extract.FixStringEscape}},
		{name: "bare key on the next line", text: "{\"first\": \"John\"\n  last: \"Smith\"}", want: `{"first":"John","last":"Smith"}`, kinds: []extract.FixKind{extract.FixMissingComma, extract.FixUnquotedKey}},
		{name: "quote then a number ends a string", text: `["a" 2]`, want: `["a",2]`, kinds: []extract.FixKind{extract.FixMissingComma}},
		{name: "escaped JSON with an escaped quote inside", text: `{\"a\": \"say \\\"hi\\\"\"}`, want: `{"a":"say \"hi\""}`, kinds: []extract.FixKind{extract.FixEscapedJSON}},
		{name: "valid escapes are kept", text: `{'a': "\u00e9\/\b\f\r\n"}`, want: `{"a":"\u00e9\/\b\f\r\n"}`, kinds: []extract.FixKind{extract.FixSingleQuote}},
		{name: "raw carriage return and form feed", text: "{\"a\": \"x\r\fy\"}", want: `{"a":"x\r\fy"}`, kinds: []extract.FixKind{extract.FixStringEscape}},
		{name: "exponents", text: `[1e5, -2.5E-3, +1e+2]`, want: `[1e5,-2.5E-3,1e+2]`, kinds: []extract.FixKind{extract.FixNumber}},
		{name: "lone minus", text: `{"a": -}`, want: `{"a":0}`, kinds: []extract.FixKind{extract.FixNumber}},
		{name: "German quotes", text: `{„a“: ‚b‘}`, want: `{"a":"b"}`, kinds: []extract.FixKind{extract.FixSmartQuote}},
		{name: "function call", text: `{"id": ObjectId("5f1")}`, want: `{"id":"5f1"}`, kinds: []extract.FixKind{extract.FixWrapper}},
		{name: "concatenation", text: `{"a": "x" + "y"}`, want: `{"a":"xy"}`, kinds: []extract.FixKind{extract.FixConcatenation}},
		{name: "upper-case literals", text: `[TRUE, Null, undefined]`, want: `[true,null,null]`, kinds: []extract.FixKind{extract.FixPythonLiteral}},
	}
	covered := map[extract.FixKind]bool{}
	for _, tt := range tests {
		for _, k := range tt.kinds {
			covered[k] = true
		}
	}
	for _, k := range allFixKinds {
		assert.True(t, covered[k], "no case makes a %s fix", k)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extract.JSON(tt.text, extract.WithRepair())
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got.JSON))
			assert.Equal(t, extract.SourceRepaired, got.Source)
			var kinds []extract.FixKind
			seen := map[extract.FixKind]bool{}
			for i, f := range got.Fixes {
				if i > 0 {
					assert.GreaterOrEqual(t, f.Offset, got.Fixes[i-1].Offset, "fixes in input order")
				}
				assert.GreaterOrEqual(t, f.Offset, got.Start, "fix inside the span")
				assertFix(t, tt.text, f)
				if !seen[f.Kind] {
					seen[f.Kind] = true
					kinds = append(kinds, f.Kind)
				}
			}
			assert.Equal(t, tt.kinds, kinds)
			assert.Equal(t, tt.truncated, got.Truncated())

			if plain, err := extract.JSON(tt.text); err == nil {
				assert.NotEqual(t, tt.want, string(plain.JSON), "without repair only a fragment parses")
			}
		})
	}
}

// assertFix checks what every fix promises: Before is the input's text at
// Offset, the fix changed something, and it says what.
func assertFix(t *testing.T, text string, f extract.Fix) {
	t.Helper()
	if assert.LessOrEqual(t, f.Offset+len(f.Before), len(text), "fix %+v", f) && assert.GreaterOrEqual(t, f.Offset, 0) {
		assert.Equal(t, f.Before, text[f.Offset:f.Offset+len(f.Before)], "the fix's Before is the input at its Offset")
	}
	assert.NotEqual(t, f.Before, f.After, "fix %+v changes nothing", f)
	assert.NotEmpty(t, f.Detail)
}

// TestRepairFixBeforeAfter shows, for each kind of fix, the text it
// replaced and what it wrote.
func TestRepairFixBeforeAfter(t *testing.T) {
	tests := []struct {
		text  string
		fixes [][3]string // kind, before, after
	}{
		{"{\"a\": 1,}", [][3]string{{"trailing_comma", ",", ""}}},
		{"[1 2]", [][3]string{{"missing_comma", "", ","}}},
		{`{"a" 1}`, [][3]string{{"missing_colon", "", ":"}}},
		{"{\"a\": 1 // the count\r\n}", [][3]string{{"comment", "// the count", ""}}},
		{`{"a": /* n */ 1}`, [][3]string{{"comment", "/* n */", ""}}},
		{`{'a': 1}`, [][3]string{{"single_quote", "'", `"`}}},
		{`{“a”: 1}`, [][3]string{{"smart_quote", "“", `"`}}},
		{`{a: 1}`, [][3]string{{"unquoted_key", "a", `"a"`}}},
		{`{a": 1}`, [][3]string{{"missing_quote", `a"`, `"a"`}}},
		{`{"city": New York}`, [][3]string{{"unquoted_string", "New York", `"New York"`}}},
		{`{"a": "b, "c": 1}`, [][3]string{{"missing_quote", "", `"`}}},
		{`{\"a\": 1}`, [][3]string{{"escaped_json", `\"`, `"`}}},
		{`[True, None]`, [][3]string{{"python_literal", "True", "true"}, {"python_literal", "None", "null"}}},
		{"[\"a\tb\"]", [][3]string{{"string_escape", "\t", `\t`}}},
		{`["say "hi" now"]`, [][3]string{{"string_escape", `"`, `\"`}, {"string_escape", `"`, `\"`}}},
		{`["it\'s", "C:\Users"]`, [][3]string{{"string_escape", `\'`, "'"}, {"string_escape", `\`, `\\`}}},
		{`[NaN, -Infinity]`, [][3]string{{"non_finite", "NaN", "null"}, {"non_finite", "-Infinity", "null"}}},
		{`[+1, .5, 1_000]`, [][3]string{{"number", "+1", "1"}, {"number", ".5", "0.5"}, {"number", "1_000", "1000"}}},
		{`[1, ...]`, [][3]string{{"trailing_comma", ",", ""}, {"ellipsis", "...", ""}}},
		{`{"a": }`, [][3]string{{"missing_value", "", "null"}}},
		{`[1, 2}`, [][3]string{{"bracket", "}", "]"}}},
		{"[1,\u00a02]", [][3]string{{"whitespace", "\u00a0", ""}}},
		{`cb({"a": 1});`, [][3]string{{"wrapper", "cb(", ""}, {"wrapper", ";", ""}}},
		{`["a" + "b"]`, [][3]string{{"concatenation", `" + "`, ""}}},
		{`{"a": 1, "b":`, [][3]string{{"dangling_key", `"b":`, ""}, {"truncated", "", "}"}}},
		{`["x\u00`, [][3]string{{"truncated", `\u00`, ""}, {"truncated", "", `"`}, {"truncated", "", "]"}}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := extract.JSON(tt.text, extract.WithRepair())
			require.NoError(t, err)
			var fixes [][3]string
			for _, f := range got.Fixes {
				assertFix(t, tt.text, f)
				fixes = append(fixes, [3]string{string(f.Kind), f.Before, f.After})
			}
			assert.Equal(t, tt.fixes, fixes)
		})
	}
}

func TestRepairFixOffsets(t *testing.T) {
	got, err := extract.JSON(`x {'a': 1,}`, extract.WithRepair())
	require.NoError(t, err)
	assert.Equal(t, 2, got.Start)
	assert.Equal(t, 11, got.End)
	assert.Equal(t, []extract.Fix{
		{Kind: extract.FixSingleQuote, Offset: 3, Before: "'", After: `"`, Detail: "replaced single quotes with double quotes"},
		{Kind: extract.FixTrailingComma, Offset: 9, Before: ",", Detail: "removed a trailing comma"},
	}, got.Fixes)
}

func TestRepairLeavesValidJSONAlone(t *testing.T) {
	for _, text := range []string{
		`{"a": [1, 2.50, "x"], "b": null}`,
		"  [\n  1,\n  2\n]  ",
		"```json\n{\"a\":   1}\n```",
		`Here: {"a": "it's {fine}"} done`,
	} {
		plain, err := extract.JSON(text)
		require.NoError(t, err)
		repaired, err := extract.JSON(text, extract.WithRepair())
		require.NoError(t, err)
		assert.Equal(t, plain, repaired, "%q", text)
		assert.Empty(t, repaired.Fixes)
	}
}

func TestRepairGivesUp(t *testing.T) {
	for _, text := range []string{
		`Keep { to open.`,
		`{ see the docs }`,
		`[: 1]`,
		"{\"a\": \"x\x00\"}",
		`{"a": "\uZZZZ"}`,
		`True`,
		`True story`,
		`She said: no way`,
		"{\"a\": 1}\n{\"a\": 2}",
		`["a, "b"]`,
	} {
		_, err := extract.JSON(text, extract.WithRepair())
		assert.ErrorIs(t, err, extract.ErrNoJSON, "%q", text)
	}
}

// TestRepairDetailKeepsCharacters: a long token quoted in a fix's detail is
// cut on a character boundary.
func TestRepairDetailKeepsCharacters(t *testing.T) {
	got, err := extract.JSON("00"+strings.Repeat("é", 30), extract.WithRepair())
	require.NoError(t, err)
	require.Len(t, got.Fixes, 1)
	assert.True(t, utf8.ValidString(got.Fixes[0].Detail), got.Fixes[0].Detail)
	assert.Contains(t, got.Fixes[0].Detail, "…")
}

// TestRepairRereadAllowance: strings the reply ends inside, which the
// second reading of a guess cuts short one after another, each read to
// the end again, are repaired while what is read twice stays within a
// few times the reply (a hundred of them), and left unrepaired beyond
// (two thousand), so that no reply makes repair superlinear.
func TestRepairRereadAllowance(t *testing.T) {
	for _, tc := range []struct {
		name    string
		strings int
		ok      bool
	}{
		{"six", 6, true},
		{"a hundred", 100, true},
		{"two thousand", 2000, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := "[" + strings.Repeat(`"a, `, tc.strings) + "]"
			c, err := extract.JSON(text, extract.WithRepair(), extract.WithAccept(severalStrings))
			if !tc.ok {
				assert.ErrorIs(t, err, extract.ErrNoJSON)
				return
			}
			require.NoError(t, err)
			var got []string
			require.NoError(t, json.Unmarshal(c.JSON, &got))
			assert.Len(t, got, tc.strings)
			quotes := 0
			for _, f := range c.Fixes {
				if f.Kind == extract.FixMissingQuote {
					quotes++
				}
			}
			assert.Equal(t, tc.strings, quotes, "a closing quote supplied for each")
		})
	}
}

// severalStrings is a validator that accepts an array of two strings or
// more: the reading of a list of strings missing their closing quotes
// that keeps them apart.
func severalStrings(v json.RawMessage) bool {
	var a []string
	return json.Unmarshal(v, &a) == nil && len(a) > 1
}
