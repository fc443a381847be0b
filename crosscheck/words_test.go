package crosscheck_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

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
		{"thousands separator", "Refunds are accepted within 1,300 days.", "300 days", false},
		{"number with separator whole", "Refunds are accepted within 1,300 days.", "1,300 days", true},
		{"decimal point", "The interest rate is 3.25% a year.", "25% a year", false},
		{"number cut before its decimals", "The interest rate is 3.25% a year.", "rate is 3", false},
		{"version number", "Version 10.2.1 fixes the bug.", "2.1 fixes the bug", false},
		{"comma after a number", "We owe 300, not 30.", "owe 300", true},
		{"full stop after a number", "It costs 300. Pay now.", "costs 300", true},
		{"contraction", "We can't refund the deposit.", "We can", false},
		{"contraction with a curly apostrophe", "The tenant doesn’t pay the fee.", "The tenant doesn", false},
		{"contraction's tail", "It isn't safe to proceed.", "t safe to proceed", false},
		{"contraction whole", "We can't refund the deposit.", "can't refund", true},
		{"contraction written with another apostrophe", "We can't refund the deposit.", "can’t refund", true},
		{"elision", "l’homme arrive", "homme arrive", true},
		{"possessive", "The Supplier's liability is capped.", "The Supplier", true},
		{"possessive whole", "The Supplier's liability is capped.", "Supplier's liability", true},
		{"shortened is", "It's safe to proceed.", "It", true},
		{"a word ending in s after an apostrophe is no possessive", "We can'st go", "We can", false},
		{"elision of two letters", "Je pense qu'il viendra", "il viendra", true},
		{"closing quotation mark", "He said 'no'. Then left", "no", true},
		{"hyphenated negation", "The deposit is non-refundable.", "refundable", false},
		{"hyphenated word cut", "The deposit is non-refundable.", "deposit is non", false},
		{"hyphenated word whole", "The deposit is non-refundable.", "non-refundable", true},
		{"range of numbers", "pages 10-12 apply", "10", true},
		{"em dash between words", "It is safe—unless wet.", "is safe", true},
		{"combining accent", "le cafe\u0301 ouvert", "le cafe", false},
		{"combining accent whole", "le cafe\u0301 ouvert", "le cafe\u0301", true},
		{"Thai tone mark cut off", "ราคาไม่รวมภาษี", "ราคาไม", false},
		{"Thai quote starting with a bare mark", "ราคาไม่รวมภาษี", "\u0e48รวมภาษี", false},
		{"Thai cluster whole", "ราคาไม่รวมภาษี", "ไม่รวม", true},
		{"Thai SARA AM stays on its consonant", "ทำงานดี", "ท", false},
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

// oracleBoundary is the word-boundary rule written out, apart from the
// package's code, for normalised inputs of the letters a, b and s, the
// digits 1 and 2, single spaces, commas, apostrophes (written '"') and
// hyphens: a boundary at the ends and beside a space; none inside a word
// of letters and digits; beside a separator, none when it joins: a comma
// between digits, a hyphen between letters, an apostrophe between digits,
// or between letters unless after a word of one or two characters (an
// elision) or before a final "s" (a possessive).
func oracleBoundary(s string, i int) bool {
	digit := func(j int) bool { return j >= 0 && j < len(s) && s[j] >= '0' && s[j] <= '9' }
	letter := func(j int) bool { return j >= 0 && j < len(s) && s[j] >= 'a' && s[j] <= 'z' }
	word := func(j int) bool { return digit(j) || letter(j) }
	joins := func(j int) bool {
		if j <= 0 || j >= len(s)-1 {
			return false
		}
		switch s[j] {
		case ',':
			return digit(j-1) && digit(j+1)
		case '-':
			return letter(j-1) && letter(j+1)
		case '"':
			if digit(j-1) && digit(j+1) {
				return true
			}
			n := 0
			for k := j - 1; word(k); k-- {
				n++
			}
			possessive := s[j+1] == 's' && !word(j+2)
			return letter(j-1) && letter(j+1) && n > 2 && !possessive
		}
		return false
	}
	switch {
	case i <= 0 || i >= len(s):
		return true
	case joins(i-1) || joins(i):
		return false
	}
	return !word(i-1) || !word(i)
}

// oracleQuote reports whether quote is a quote of input by oracleBoundary:
// it occurs in the normalised input starting and ending at boundaries.
func oracleQuote(input, quote string) bool {
	n, q := crosscheck.Normalize(input), crosscheck.Normalize(quote)
	if q == "" {
		return false
	}
	for from := 0; ; {
		j := strings.Index(n[from:], q)
		if j < 0 {
			return false
		}
		if oracleBoundary(n, from+j) && oracleBoundary(n, from+j+len(q)) {
			return true
		}
		from += j + 1
	}
}

// fuzzText maps bytes to a text of oracleBoundary's characters.
func fuzzText(data []byte) string {
	const alphabet = "abs12 ,'-"
	b := make([]byte, len(data))
	for i, c := range data {
		b[i] = alphabet[int(c)%len(alphabet)]
	}
	return string(b)
}

// FuzzQuoteWholeWords checks the word-boundary rule against oracleQuote,
// which states it apart: any substring of an input of letters, digits,
// spaces, commas, apostrophes and hyphens (the cases where it starts or
// ends inside a word, a number, a contraction or a hyphenated word
// included) is accepted as a quote exactly when the oracle accepts it. TestQuoteOracleCatchesSubstrings shows the property fails for a
// matcher without the rule.
func FuzzQuoteWholeWords(f *testing.F) {
	f.Add([]byte("aab 1,22 b2"), uint16(1), uint16(4))
	f.Add([]byte("ab ab,ab 12,21"), uint16(3), uint16(5))
	f.Add([]byte("1,2,1 aa"), uint16(2), uint16(3))
	f.Add([]byte("bab'a ab's a'bb ab-ba"), uint16(2), uint16(6))
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$", MinQuoteLength: 1})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte, from, n uint16) {
		input := fuzzText(data)
		if len(input) == 0 {
			return
		}
		i := int(from) % len(input)
		j := min(len(input), i+1+int(n)%12)
		quote := input[i:j]
		if len(crosscheck.QuoteParts(quote)) == 0 {
			return
		}
		g := crosscheck.NewGrounds(crosscheck.Inputs{Text: input})
		want := oracleQuote(input, quote)
		got := len(invs.CheckGrounded(quote, g)) == 0
		assert.Equal(t, want, got, "%q of %q", quote, input)
	})
}

// TestQuoteOracleCatchesSubstrings: the property FuzzQuoteWholeWords checks
// can fail. A matcher that ignores word boundaries (a quote is any
// substring) disagrees with the oracle on many random inputs of the fuzz
// target's alphabet, while the package agrees on all of them.
func TestQuoteOracleCatchesSubstrings(t *testing.T) {
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$", MinQuoteLength: 1})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	substring, pkg := 0, 0
	for range 5000 {
		data := make([]byte, 1+rng.IntN(16))
		for k := range data {
			data[k] = byte(rng.IntN(256))
		}
		input := fuzzText(data)
		i := rng.IntN(len(input))
		quote := input[i:min(len(input), i+1+rng.IntN(8))]
		if len(crosscheck.QuoteParts(quote)) == 0 {
			continue
		}
		want := oracleQuote(input, quote)
		if strings.Contains(crosscheck.Normalize(input), crosscheck.Normalize(quote)) != want {
			substring++
		}
		if (len(invs.CheckGrounded(quote, crosscheck.NewGrounds(crosscheck.Inputs{Text: input}))) == 0) != want {
			pkg++
		}
	}
	assert.Greater(t, substring, 100, "a matcher without word boundaries breaks the property")
	assert.Zero(t, pkg)
}

// TestQuoteLengthCountsCharacters: MinQuoteLength counts characters as a
// reader does: a letter with its marks is one, a Chinese or Japanese
// character or a Korean syllable two.
func TestQuoteLengthCountsCharacters(t *testing.T) {
	tests := []struct {
		name, input, quote string
		length             int // 0: accepted
	}{
		{"a two-character Chinese word", "乙方违约的，应当赔偿损失。", "违约", 0},
		{"one Chinese character", "乙方违约的，应当赔偿损失。", "违", 2},
		{"two kana", "東京から来た", "から", 0},
		{"one Thai syllable with its tone mark", "ราคาไม่รวมภาษี", "ไม่", 2},
		{"a Thai word of three letters", "ราคาไม่รวมภาษี", "ราคา", 0},
		{"a Latin letter with a combining accent", "le cafe\u0301 ouvert", "e\u0301", 1},
		{"a Korean word of two syllables", "계약은 즉시 유효합니다", "즉시", 0},
	}
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q"})
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs := invs.CheckGrounded(map[string]any{"q": tt.quote}, crosscheck.NewGrounds(crosscheck.Inputs{Text: tt.input}))
			if tt.length == 0 {
				assert.Empty(t, vs)
				return
			}
			require.Len(t, vs, 1)
			assert.Contains(t, vs[0].Message, fmt.Sprintf("is too short to ground anything (%d character", tt.length))
		})
	}
}
