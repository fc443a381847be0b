package crosscheck_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/crosscheck"
)

// TestQuoteWordBoundaries: a quote, and each part of one, matches only
// where it starts and ends at word boundaries of the input; letters and
// digits of one word are not split; in scripts written without spaces
// every character stands alone.
func TestQuoteWordBoundaries(t *testing.T) {
	tests := []struct {
		name, input, quote string
		ok                 bool
	}{
		{"safe in unsafe", "The operation is unsafe.", "safe", false},
		{"safe as a word", "The operation is safe.", "safe", true},
		{"word inside a longer one at the end", "All fees are due.", "fee", false},
		{"digits not split", "within 300 days", "00 days", false},
		{"digits whole", "within 30 days", "30 days", true},
		{"a later occurrence is whole", "unsafe here, safe there", "safe there", true},
		{"a later occurrence of a short word", "unsafe, unsafer, then safe", "safe", true},
		{"punctuation is a boundary", "the fee (net) applies", "(net)", true},
		{"quote ending in punctuation", "It is safe. Really.", "is safe.", true},
		{"letter after the quote", "the safest route", "the safe", false},
		{"accented letters are letters", "le café ouvert", "caf", false},
		{"accented word whole", "le café ouvert", "café", true},
		{"parts each at boundaries", "the fee is due ... in thirty days", "fee ... thirty days", true},
		{"a part inside a word", "the fee is due within thirty days", "fee ... irty days", false},
		{"Chinese without spaces", "本合同自签署之日起生效。", "签署之日", true},
		{"Japanese without spaces", "東京の事務所は九時に開きます", "事務所は九時", true},
		{"Thai without spaces", "สัญญานี้มีผลบังคับใช้ทันที", "มีผลบังคับใช้", true},
		{"Latin word beside Chinese", "使用API接口", "API", true},
		{"Latin inside a Latin word beside Chinese", "使用APIs接口", "API", false},
		{"Korean words have spaces", "계약은 즉시 유효합니다", "유효", false},
		{"Korean word whole", "계약은 즉시 유효합니다", "즉시", true},
	}
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q", MinQuoteLength: 1})
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := crosscheck.NewGrounds(crosscheck.Inputs{Text: tt.input})
			vs := invs.CheckGrounded(map[string]any{"q": tt.quote}, g)
			assert.Equal(t, tt.ok, len(vs) == 0, "%v", vs)
			// The part check while streaming agrees.
			assert.Equal(t, tt.ok, len(invs.CheckPart("$.q", tt.quote, g)) == 0)
		})
	}
}

// TestQuoteTooShort: an empty or blank quote, one that is only an
// ellipsis, and one shorter than the minimum (3 characters by default,
// spaces not counted) are violations that say so.
func TestQuoteTooShort(t *testing.T) {
	input := "a b c. It is no. Yes, it is safe."
	tests := []struct {
		name, quote string
		min         int
		message     string // "" for none
	}{
		{"empty", "", 0, "is an empty quote"},
		{"blank", " \t ", 0, "is an empty quote"},
		{"only an ellipsis", " … ", 0, "is an empty quote"},
		{"one character", "a", 0, "is too short to ground anything (1 character; at least 3)"},
		{"two", "no", 0, "(2 characters; at least 3)"},
		{"spaces do not count", "a b", 0, "(2 characters; at least 3)"},
		{"three", "yes", 0, ""},
		{"raised minimum", "it is safe", 12, "(8 characters; at least 12)"},
		{"lowered minimum", "a", 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q", MinQuoteLength: tt.min})
			require.NoError(t, err)
			g := crosscheck.NewGrounds(crosscheck.Inputs{Text: input})
			vs := invs.CheckGrounded(map[string]any{"q": tt.quote}, g)
			if tt.message == "" {
				assert.Empty(t, vs)
				return
			}
			require.Len(t, vs, 1)
			assert.Equal(t, "$.q", vs[0].Path)
			assert.Contains(t, vs[0].Message, tt.message)
			assert.Contains(t, vs[0].Message, "quote the inputs exactly, or leave the quote out")
		})
	}
	_, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q", MinQuoteLength: -1})
	assert.ErrorIs(t, err, crosscheck.ErrInvalidRule)
}

// TestMissingParameters: a grounding invariant whose declared parameter
// is not among the inputs is not checked, whatever its kind, by Check and
// by CheckGrounded alike; Invariants.Grounds reports it as a configuration
// error before any output is checked.
func TestMissingParameters(t *testing.T) {
	invs, err := crosscheck.CompileInvariants(
		crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.quote", Parameter: "contract"},
		crosscheck.Invariant{Kind: crosscheck.ValueInInput, Refs: "$.ticket", Targets: "$.tickets[*]"},
	)
	require.NoError(t, err)
	out := map[string]any{"quote": "anything at all", "ticket": "T-9"}
	for name, params := range map[string]map[string]any{"none": nil, "others only": {"prompt": "Read it."}} {
		t.Run(name, func(t *testing.T) {
			in := crosscheck.Inputs{Text: "Read it.", Parameters: params}
			assert.Empty(t, invs.CheckGrounded(out, crosscheck.NewGrounds(in)))
			assert.Empty(t, invs.Check(out))

			g, err := invs.Grounds(in)
			assert.Nil(t, g)
			require.ErrorIs(t, err, crosscheck.ErrMissingInput)
			var ie *crosscheck.InputError
			require.True(t, errors.As(err, &ie))
			assert.ErrorContains(t, err, `parameter "contract"`)
			assert.ErrorContains(t, err, `parameter "tickets"`)
		})
	}
	in := crosscheck.Inputs{Text: "Read it.", Parameters: map[string]any{"contract": "The fee is due.", "tickets": []any{"T-1"}}}
	g, err := invs.Grounds(in)
	require.NoError(t, err)
	vs := invs.CheckGrounded(out, g)
	require.Len(t, vs, 2, "given, both are checked")
}

// FuzzQuoteWholeWords checks the word-boundary rule as properties: a run
// of whole words of the input (split at spaces) is always a quote of it;
// with a letter glued to its front, it is none where the input does not
// hold it.
func FuzzQuoteWholeWords(f *testing.F) {
	f.Add("The fee is due within thirty days.", uint8(1), uint8(3))
	f.Add("unsafe and safe", uint8(2), uint8(1))
	f.Add("本合同 自签署之日起 生效", uint8(1), uint8(1))
	f.Add("300 days, not 30", uint8(0), uint8(2))
	f.Fuzz(func(t *testing.T, input string, from, n uint8) {
		if !utf8.ValidString(input) {
			return
		}
		words := strings.Fields(input)
		if len(words) == 0 {
			return
		}
		i := int(from) % len(words)
		j := min(len(words), i+1+int(n)%4)
		quote := strings.Join(words[i:j], " ")
		if strings.Contains(quote, "...") || strings.ContainsRune(quote, '…') || strings.Contains(crosscheck.Normalize(quote), "...") {
			return // an ellipsis splits the quote: another rule
		}
		invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$", MinQuoteLength: 1})
		require.NoError(t, err)
		g := crosscheck.NewGrounds(crosscheck.Inputs{Text: input})
		if len(crosscheck.QuoteParts(quote)) == 0 {
			return
		}
		assert.Empty(t, invs.CheckGrounded(quote, g), "whole words %q of %q", quote, input)

		glued := "x" + quote
		if !strings.Contains(crosscheck.Normalize(input), crosscheck.Normalize(glued)) {
			assert.NotEmpty(t, invs.CheckGrounded(glued, g), "%q is no quote of %q", glued, input)
		}
	})
}
