package extract_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
)

func TestJSONStrategies(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		opts   []extract.Option
		want   string
		source extract.Source
	}{
		// The whole text.
		{name: "whole object", text: `{"a": 1}`, want: `{"a": 1}`, source: extract.SourceWhole},
		{name: "whole with blanks", text: "\n\t {\"a\": 1}  \n", want: `{"a": 1}`, source: extract.SourceWhole},
		{name: "whole with no-break spaces and a byte order mark", text: "\ufeff\u00a0[1]\u00a0", want: `[1]`, source: extract.SourceWhole},
		{name: "whole array", text: `[1, 2]`, want: `[1, 2]`, source: extract.SourceWhole},
		{name: "whole string", text: `"yes"`, want: `"yes"`, source: extract.SourceWhole},
		{name: "whole number", text: ` 42 `, want: `42`, source: extract.SourceWhole},
		{name: "whole keeps tags inside strings", text: `{"note": "<think>x</think>"}`, want: `{"note": "<think>x</think>"}`, source: extract.SourceWhole},

		// Reasoning blocks.
		{name: "think block before the value", text: "<think>try {\"a\": 0}</think>\n{\"a\": 1}", want: `{"a": 1}`, source: extract.SourceWhole},
		{name: "thinking block before the value", text: "<thinking>[0]</thinking>[1]", want: `[1]`, source: extract.SourceWhole},
		{name: "block in the middle", text: "Answer: <think>{\"draft\": 1}</think> {\"final\": 2}", want: `{"final": 2}`, source: extract.SourceScan},
		{name: "closing tag without opening tag", text: "planning {\"draft\": 1}</think>{\"final\": 2}", want: `{"final": 2}`, source: extract.SourceWhole},
		{name: "unclosed tag in the middle is text", text: "use <think> tags: {\"a\": 1}", want: `{"a": 1}`, source: extract.SourceScan},

		// Fences.
		{name: "json fence", text: "Here:\n```json\n{\"a\": 1}\n```\nDone.", want: `{"a": 1}`, source: extract.SourceFence},
		{name: "label in capitals", text: "```JSON\n[1]\n```", want: `[1]`, source: extract.SourceFence},
		{name: "label after a space", text: "``` json\n[1]\n```", want: `[1]`, source: extract.SourceFence},
		{name: "jsonc label", text: "```jsonc\n{\"a\": 1}\n```", want: `{"a": 1}`, source: extract.SourceFence},
		{name: "unlabelled fence", text: "Result:\n```\n{\"a\": 1}\n```", want: `{"a": 1}`, source: extract.SourceFence},
		{name: "other label", text: "```python\n{\"a\": 1}\n```", want: `{"a": 1}`, source: extract.SourceFence},
		{name: "inline fence", text: "see ```json{\"a\":1}``` above", want: `{"a":1}`, source: extract.SourceFence},
		{name: "json fence beats an earlier plain fence", text: "```\n{\"plain\": 1}\n```\n```json\n{\"json\": 1}\n```", want: `{"json": 1}`, source: extract.SourceFence},
		{name: "first of two json fences", text: "```json\n{\"n\": 1}\n```\n```json\n{\"n\": 2}\n```", want: `{"n": 1}`, source: extract.SourceFence},
		{name: "last of two json fences", text: "```json\n{\"n\": 1}\n```\n```json\n{\"n\": 2}\n```", opts: []extract.Option{extract.WithPreferLast()}, want: `{"n": 2}`, source: extract.SourceFence},
		{name: "unterminated fence", text: "```json\n{\"a\": 1}\n", want: `{"a": 1}`, source: extract.SourceFence},
		{name: "backticks after a space inside a string", text: "```json\n{\"tip\": \"wrap code in ``` fences\"}\n```", want: `{"tip": "wrap code in ` + "```" + ` fences"}`, source: extract.SourceFence},
		{name: "backticks ending a string's line", text: "```json\n{\"a\": \"x ```\",\n \"b\": 1}\n```", want: "{\"a\": \"x ```\",\n \"b\": 1}", source: extract.SourceFence},
		{name: "escaped quote before backticks", text: "```json\n{\"q\": \"say \\\" ``` \\\"\"}\n```", want: "{\"q\": \"say \\\" ``` \\\"\"}", source: extract.SourceFence},
		{name: "closing fence after a bracket still closes", text: "```json\n{\"a\": 1}```\nthanks", want: `{"a": 1}`, source: extract.SourceFence},
		{name: "backticks inside a string are no closing fence", text: "```json\n{\"code\": \"```py```\"}\n```", want: `{"code": "` + "```py```" + `"}`, source: extract.SourceFence},
		{name: "fence value then a note", text: "```json\n{\"a\": 1}\nnote: see {\"b\": 2}\n```", want: `{"a": 1}`, source: extract.SourceFence},
		{name: "fence beats prose", text: "{\"prose\": 1}\n```json\n{\"fenced\": 1}\n```", want: `{"fenced": 1}`, source: extract.SourceFence},
		{name: "empty fence falls back to the scan", text: "``` ```\nthen {\"a\": 1}", want: `{"a": 1}`, source: extract.SourceScan},

		// The scan.
		{name: "value then a note", text: "{\"a\": [1, 2]}\n\nHope this helps!", want: `{"a": [1, 2]}`, source: extract.SourceScan},
		{name: "value then a note, objects only", text: "{\"a\": 1} and [2]", opts: []extract.Option{extract.WithObjectsOnly(), extract.WithPreferLast()}, want: `{"a": 1}`, source: extract.SourceScan},
		{name: "object in prose", text: `The result is {"a": 1}. Hope it helps.`, want: `{"a": 1}`, source: extract.SourceScan},
		{name: "array in prose", text: `Items: [1, 2, 3] as asked.`, want: `[1, 2, 3]`, source: extract.SourceScan},
		{name: "braces in prose are skipped", text: `Use {curly} braces and {name} fields: {"a": 1}`, want: `{"a": 1}`, source: extract.SourceScan},
		{name: "braces inside strings", text: `Here {"t": "a } and ] and {"} done`, want: `{"t": "a } and ] and {"}`, source: extract.SourceScan},
		{name: "quotes in prose", text: `He said "see {this}" and wrote {"a": "b"}`, want: `{"a": "b"}`, source: extract.SourceScan},
		{name: "a broken value does not stop the scan", text: `Try {"a": 1,} or rather {"a": 2}`, want: `{"a": 2}`, source: extract.SourceScan},
		{name: "template braces", text: `{{"a": 1}}`, want: `{"a": 1}`, source: extract.SourceScan},
		{name: "first of two", text: `{"n": 1} then {"n": 2}`, want: `{"n": 1}`, source: extract.SourceScan},
		{name: "last of two", text: `{"n": 1} then {"n": 2}`, opts: []extract.Option{extract.WithPreferLast()}, want: `{"n": 2}`, source: extract.SourceScan},
		{name: "objects only skips arrays", text: `See [1] and {"a": 1}`, opts: []extract.Option{extract.WithObjectsOnly()}, want: `{"a": 1}`, source: extract.SourceScan},
		{name: "objects only finds objects inside an array", text: `[{"a": 1}, {"a": 2}]`, opts: []extract.Option{extract.WithObjectsOnly()}, want: `{"a": 1}`, source: extract.SourceScan},
		{name: "multi-byte prose", text: "Résumé — voilà: {\"ok\": \"oui\"} ✓", want: `{"ok": "oui"}`, source: extract.SourceScan},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extract.JSON(tt.text, tt.opts...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got.JSON))
			assert.Equal(t, tt.source, got.Source)
			assert.Equal(t, tt.want, tt.text[got.Start:got.End], "the span holds the value")
			assert.Empty(t, got.Fixes)
		})
	}
}

func TestJSONNotFound(t *testing.T) {
	tests := []struct {
		name string
		text string
		opts []extract.Option
		desc string
	}{
		{name: "empty", text: "", desc: "no JSON value found; the reply was empty"},
		{name: "blank", text: " \n\t", desc: "no JSON value found; the reply was empty"},
		{name: "prose", text: "I apologize, but I cannot help with that request today.", desc: `no JSON value found; the reply began with "I apologize, but I cannot help with that..."`},
		{name: "prose with braces", text: "Fill in {name} and {date}.", desc: `no JSON value found; the reply began with "Fill in {name} and {date}."`},
		{name: "objects only", text: "[1, 2]", opts: []extract.Option{extract.WithObjectsOnly()}, desc: `no JSON object found; the reply began with "[1, 2]"`},
		{name: "only reasoning", text: "<think>{\"a\": 1}</think>", desc: "no JSON value found; the reply held nothing but reasoning"},
		{name: "unclosed leading reasoning", text: "<think>let me see {\"a\": 1}", desc: "no JSON value found; the reply ended inside an unclosed reasoning block"},
		{name: "truncated", text: `Here: {"a": [1, 2`, desc: "the JSON value at byte 6 does not parse: the text ends before the value is complete (the reply may have been cut off)"},
		{name: "broken json fence", text: "```json\n{\"a\": 1,}\n```", desc: `the JSON value at byte 8 does not parse: unexpected '}' at byte 16, after "{\"a\": 1," (remove the trailing comma)`},
		{name: "quote cut at a character", text: "{\"ab\": \"" + strings.Repeat("é", 12) + "\"  x}", desc: `the JSON value at byte 0 does not parse: unexpected 'x' at byte 35, after "éééééééé\""`},
		{name: "bare word", text: "True", desc: `no JSON value found; the reply began with "True"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extract.JSON(tt.text, tt.opts...)
			require.ErrorIs(t, err, extract.ErrNoJSON)
			assert.Zero(t, got)
			var re *extract.ReplyError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, tt.desc, re.Description)
			assert.Equal(t, "extract: no JSON value found in text: "+tt.desc, err.Error())
			assert.Empty(t, extract.Candidates(tt.text, tt.opts...))
		})
	}
}

func TestStrictJSONOnly(t *testing.T) {
	strict := extract.WithStrictJSONOnly()
	accepted := []struct {
		name string
		text string
		want string
	}{
		{name: "value alone", text: ` {"a": 1} `, want: `{"a": 1}`},
		{name: "after a reasoning block", text: "<think>hmm</think>\n{\"a\": 1}", want: `{"a": 1}`},
		{name: "one json fence", text: "```json\n{\"a\": 1}\n```\n", want: `{"a": 1}`},
		{name: "one unlabelled fence", text: "```\n[1]\n```", want: `[1]`},
	}
	for _, tt := range accepted {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extract.JSON(tt.text, strict)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got.JSON))
		})
	}
	refused := []struct {
		name string
		text string
		desc string
	}{
		{name: "text before", text: `Sure! {"a": 1}`, desc: `the reply must be JSON alone, but text precedes the value at byte 6: "Sure!"`},
		{name: "text after", text: `{"a": 1} Hope this helps.`, desc: `the reply must be JSON alone, but text follows the value at byte 0: "Hope this helps."`},
		{name: "text around a fence", text: "Here:\n```json\n{\"a\": 1}\n```\nBye", desc: `the reply must be JSON alone, but text surrounds the value at byte 14: "Here:" before it, "Bye" after it`},
		{name: "a python fence", text: "```python\n{\"a\": 1}\n```", desc: "the reply must be JSON alone, but text surrounds the value at byte 10: \"```python\" before it, \"```\" after it"},
		{name: "two values", text: `{"a": 1} {"a": 2}`, desc: `the reply must be JSON alone, but text follows the value at byte 0: "{\"a\": 2}"`},
		{name: "long text is cut", text: strings.Repeat("word ", 20) + `{"a": 1}`, desc: `the reply must be JSON alone, but text precedes the value at byte 100: "... word word word word word word word word"`},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extract.JSON(tt.text, strict)
			require.ErrorIs(t, err, extract.ErrNonJSONText)
			assert.Zero(t, got)
			var re *extract.ReplyError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, tt.desc, re.Description)
			assert.NotEmpty(t, extract.Candidates(tt.text, strict), "Candidates does not filter")
		})
	}
	t.Run("nothing found is ErrNoJSON", func(t *testing.T) {
		_, err := extract.JSON("no json here", strict)
		assert.ErrorIs(t, err, extract.ErrNoJSON)
		assert.NotErrorIs(t, err, extract.ErrNonJSONText)
	})
	t.Run("repaired value alone", func(t *testing.T) {
		got, err := extract.JSON(`{"a": 1,}`, strict, extract.WithRepair())
		require.NoError(t, err)
		assert.Equal(t, `{"a":1}`, string(got.JSON))
	})
}

func TestCandidatesOrder(t *testing.T) {
	text := "Intro {\"scan\": 1}\n```\n{\"plain\": 1}\n```\n```json\n{\"json\": 1}\n```\n```json\n{\"json\": 2}\n```\nand [2]"
	var got []string
	for _, c := range extract.Candidates(text) {
		got = append(got, string(c.Source)+" "+string(c.JSON))
	}
	assert.Equal(t, []string{
		`fence {"json": 1}`,
		`fence {"json": 2}`,
		`fence {"plain": 1}`,
		`scan {"scan": 1}`,
		`scan [2]`,
	}, got)

	got = got[:0]
	for _, c := range extract.Candidates(text, extract.WithPreferLast()) {
		got = append(got, string(c.JSON))
	}
	assert.Equal(t, []string{`{"json": 2}`, `{"json": 1}`, `{"plain": 1}`, `[2]`, `{"scan": 1}`}, got)
}

// A whole reply that starts with a value and goes on is read once: the scan
// takes the value the whole-text check read. That value must not be taken
// past the end of the text the scan may read, here the start of a fence
// opened inside one of its strings.
func TestCandidatesValueSpanningAFence(t *testing.T) {
	var got []string
	for _, c := range extract.Candidates("{\"a\": \" ```json{}``` \"} note") {
		got = append(got, string(c.Source)+" "+string(c.JSON))
	}
	assert.Equal(t, []string{"fence {}"}, got)
}

func TestCandidatesWithRepair(t *testing.T) {
	t.Run("values that parse come before repaired ones", func(t *testing.T) {
		cands := extract.Candidates(`First {'a': 1} then {"b": 2}`, extract.WithRepair())
		require.Len(t, cands, 2)
		assert.Equal(t, `{"b": 2}`, string(cands[0].JSON))
		assert.Equal(t, extract.SourceScan, cands[0].Source)
		assert.Equal(t, `{"a":1}`, string(cands[1].JSON))
		assert.Equal(t, extract.SourceRepaired, cands[1].Source)
		assert.Equal(t, 6, cands[1].Start)
		assert.Equal(t, 14, cands[1].End)
	})
	t.Run("fragments of a repaired value come last", func(t *testing.T) {
		cands := extract.Candidates(`Config: {name: 'x', tags: ["a", "b"]}`, extract.WithRepair())
		require.Len(t, cands, 2)
		assert.Equal(t, `{"name":"x","tags":["a","b"]}`, string(cands[0].JSON))
		assert.Equal(t, `["a", "b"]`, string(cands[1].JSON))
		c, err := extract.JSON(`Config: {name: 'x', tags: ["a", "b"]}`, extract.WithRepair())
		require.NoError(t, err)
		assert.Equal(t, extract.SourceRepaired, c.Source)
	})
	t.Run("a broken json fence is repaired, not mined for fragments", func(t *testing.T) {
		cands := extract.Candidates("```json\n{'a': [1, 2]}\n```", extract.WithRepair())
		require.Len(t, cands, 1)
		assert.Equal(t, `{"a":[1,2]}`, string(cands[0].JSON))
	})
	t.Run("without repair a broken json fence yields nothing", func(t *testing.T) {
		assert.Empty(t, extract.Candidates("```json\n{'a': [1, 2]}\n```"))
	})
	t.Run("prose in braces is not repaired into a value", func(t *testing.T) {
		assert.Empty(t, extract.Candidates(`Keep { to open and } to close.`, extract.WithRepair()))
	})
}

func TestOptions(t *testing.T) {
	t.Run("max size", func(t *testing.T) {
		text := `{"a": "` + strings.Repeat("x", 100) + `"}`
		_, err := extract.JSON(text, extract.WithMaxSize(50))
		require.ErrorIs(t, err, extract.ErrTooLarge)
		assert.EqualError(t, err, "extract: input too large: 109 bytes, limit 50")
		assert.Nil(t, extract.Candidates(text, extract.WithMaxSize(50)))
		_, err = extract.JSON(text, extract.WithMaxSize(len(text)))
		assert.NoError(t, err)
	})
	t.Run("default max size", func(t *testing.T) {
		_, err := extract.JSON(strings.Repeat(" ", extract.DefaultMaxSize+1))
		assert.ErrorIs(t, err, extract.ErrTooLarge)
	})
	for _, n := range []int{0, -1} {
		t.Run("bad max size", func(t *testing.T) {
			_, err := extract.JSON(`{}`, extract.WithMaxSize(n))
			require.ErrorIs(t, err, extract.ErrInvalidOption)
			assert.Contains(t, err.Error(), "extract: invalid option: WithMaxSize(")
			assert.Nil(t, extract.Candidates(`{}`, extract.WithMaxSize(n)))
		})
	}
	t.Run("nil option is invalid", func(t *testing.T) {
		_, err := extract.JSON(`{}`, extract.WithRepair(), nil)
		require.ErrorIs(t, err, extract.ErrInvalidOption)
		assert.Contains(t, err.Error(), "extract: invalid option: option 1 is nil")
		assert.Nil(t, extract.Candidates(`{}`, nil))
	})
}

func TestCandidateOwnsItsBytes(t *testing.T) {
	text := `{"a": 1} and {"a": 2}`
	cands := extract.Candidates(text)
	require.Len(t, cands, 2)
	cands[0].JSON[2] = 'X'
	cands[0].JSON = append(cands[0].JSON, "tail"...)
	assert.Equal(t, `{"a": 2}`, string(cands[1].JSON))

	// Repaired candidates are built in one reused buffer: each must own a
	// copy of its bytes and of its fixes.
	repaired := extract.Candidates(`{'a': 1,} and {'b': 2,}`, extract.WithRepair())
	require.Len(t, repaired, 2)
	require.Equal(t, extract.SourceRepaired, repaired[0].Source)
	repaired[0].JSON[2] = 'X'
	repaired[0].JSON = append(repaired[0].JSON, "tail"...)
	repaired[0].Fixes[0].Detail = "changed"
	repaired[0].Fixes = append(repaired[0].Fixes, extract.Fix{Kind: extract.FixComment})
	assert.Equal(t, `{"b":2}`, string(repaired[1].JSON))
	assert.Equal(t, []extract.Fix{
		{Kind: extract.FixSingleQuote, Offset: 15, Before: "'", After: `"`, Detail: "replaced single quotes with double quotes"},
		{Kind: extract.FixTrailingComma, Offset: 21, Before: ",", Detail: "removed a trailing comma"},
	}, repaired[1].Fixes)
}

func TestReplyErrorUnwrap(t *testing.T) {
	err := error(&extract.ReplyError{Err: extract.ErrNoJSON, Offset: -1})
	assert.True(t, errors.Is(err, extract.ErrNoJSON))
	assert.Equal(t, "extract: no JSON value found in text", err.Error(), "no description, no colon")
}
