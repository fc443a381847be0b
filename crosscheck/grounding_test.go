package crosscheck_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/schema"
)

const contract = `MASTER SERVICES AGREEMENT
7.2 The Supplier shall not be liable for any indirect or consequential loss,
    including loss of profit — howsoever arising.
8.1 Either party may terminate this Agreement on “ninety (90) days'” written notice.
9.4 Fees are payable within thirty days of the invoice date. Late payments accrue interest at 2% per month.
Straße ist geschlossen; 東京 office hours are 9–17.`

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  Hello\t\n  World  ", "hello world"},
		{"“curly” ‘single’ «angle»", `"curly" "single" "angle"`},
		{"a – b — c − d", "a - b - c - d"},
		{"wait…", "wait..."},
		{"zero\u200bwidth soft\u00adhyphen", "zerowidth softhyphen"},
		{"ÉCOLE Straße", "école straße"},
		{"\xff bad", "\xff bad"},
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, crosscheck.Normalize(tt.in), tt.in)
	}
}

func TestQuoteParts(t *testing.T) {
	assert.Equal(t, []string{"a b", "c"}, crosscheck.QuoteParts("A  b ... c"))
	assert.Equal(t, []string{"a", "c"}, crosscheck.QuoteParts("a…c"))
	assert.Equal(t, []string{"a", "c"}, crosscheck.QuoteParts("a [...] c"))
	assert.Equal(t, []string{"start"}, crosscheck.QuoteParts("...start..."))
	assert.Empty(t, crosscheck.QuoteParts(" … "))
}

func grounds(t testing.TB, text string, params map[string]any, s string) *crosscheck.Grounds {
	t.Helper()
	in := crosscheck.Inputs{Text: text, Parameters: params}
	if s != "" {
		sc, err := schema.Parse([]byte(s))
		require.NoError(t, err)
		in.Schema = sc
	}
	return crosscheck.NewGrounds(in)
}

func TestQuoteInInput(t *testing.T) {
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.findings[*].evidence"})
	require.NoError(t, err)
	g := grounds(t, contract, nil, "")
	tests := []struct {
		name, quote string
		bad         string // a part the message must name; "" for none
	}{
		{"exact", "The Supplier shall not be liable for any indirect or consequential loss", ""},
		{"case and whitespace", "the supplier SHALL NOT be liable   for any\nindirect", ""},
		{"curly to straight quotes", `on "ninety (90) days'" written notice`, ""},
		{"em dash to hyphen", "loss of profit - howsoever arising", ""},
		{"en dash in Unicode line", "東京 office hours are 9-17", ""},
		{"Unicode case", "STRASSE", "STRASSE"},
		{"German sharp s as written", "Straße ist geschlossen", ""},
		{"ellipsis in order", "The Supplier shall not be liable ... howsoever arising", ""},
		{"unicode ellipsis", "Fees are payable…2% per month", ""},
		{"ellipsis out of order", "howsoever arising ... The Supplier", "The Supplier"},
		{"fabricated", "The Supplier shall be liable for all losses", "The Supplier shall be liable for all losses"},
		{"first part not found named", "The Supplier ... uncapped damages ... zebra", "uncapped damages"},
		{"paraphrase", "Either side can end the contract with 90 days notice", "Either side can end the contract with 90 days notice"},
		{"blank", "  ", "is an empty quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := map[string]any{"findings": []any{map[string]any{"evidence": tt.quote}}}
			vs := invs.CheckGrounded(v, g)
			if tt.bad == "" {
				assert.Empty(t, vs)
				return
			}
			require.Len(t, vs, 1)
			assert.Equal(t, "$.findings[0].evidence", vs[0].Path)
			assert.Equal(t, "/findings/0/evidence", vs[0].Pointer)
			if tt.bad != "is an empty quote" {
				assert.Contains(t, vs[0].Message, "'"+tt.bad+"'")
			} else {
				assert.Contains(t, vs[0].Message, tt.bad)
			}
			assert.Contains(t, vs[0].Message, "quote the inputs exactly, or leave the quote out")
		})
	}
}

func TestQuoteInInputParameter(t *testing.T) {
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.quote", Parameter: "contract"})
	require.NoError(t, err)
	g := grounds(t, "Summarise the contract.", map[string]any{"contract": []any{"Clause one says yes.", "Clause two says no."}}, "")
	assert.Empty(t, invs.CheckGrounded(map[string]any{"quote": "clause two says no"}, g))
	vs := invs.CheckGrounded(map[string]any{"quote": "Summarise the contract"}, g)
	require.Len(t, vs, 1)
	assert.Contains(t, vs[0].Message, "parameter contract does not contain 'Summarise the contract'")
	assert.Empty(t, invs.Check(map[string]any{"quote": "anything"}), "no inputs, nothing to check against")
}

func TestValueInInput(t *testing.T) {
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.ValueInInput, Refs: "$.tickets[*]", Targets: "$.tickets[*].id"})
	require.NoError(t, err)
	params := map[string]any{"tickets": []any{map[string]any{"id": "OPS-1"}, map[string]any{"id": "OPS-2"}, map[string]any{"id": float64(7)}}}
	g := grounds(t, "", params, "")
	tests := []struct {
		name string
		out  any
		bad  []string
	}{
		{"all known", []any{"OPS-1", "OPS-2", float64(7)}, nil},
		{"invented", []any{"OPS-1", "OPS-9"}, []string{"$.tickets[1]"}},
		{"case matters", []any{"ops-1"}, []string{"$.tickets[0]"}},
		{"number vs string", []any{"7"}, []string{"$.tickets[0]"}},
		{"none", []any{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs := invs.CheckGrounded(map[string]any{"tickets": tt.out}, g)
			var paths []string
			for _, v := range vs {
				paths = append(paths, v.Path)
				assert.Contains(t, v.Message, "use only values given in the inputs")
				assert.Contains(t, v.Message, "'OPS-1'")
			}
			assert.Equal(t, tt.bad, paths)
		})
	}
}

const placeholderSchema = `{
  "type": "object",
  "properties": {
    "summary": {"type": "string", "description": "One sentence on the change", "examples": ["Adds retries"]},
    "owner": {"type": "string", "default": "unassigned"},
    "status": {"enum": ["open", "N/A", "test"]},
    "kind": {"$ref": "#/$defs/kind"},
    "tags": {"type": "array", "items": {"type": "string"}}
  },
  "$defs": {"kind": {"const": "TBD"}}
}`

func TestNotPlaceholder(t *testing.T) {
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.NotPlaceholder, Values: "$", Placeholders: []string{"Unknown"}})
	require.NoError(t, err)
	g := grounds(t, "", nil, placeholderSchema)
	tests := []struct {
		name string
		out  string
		bad  []string
	}{
		{"real answers", `{"summary": "Fixes the race in the cache", "owner": "Ana Lima", "tags": ["cache"]}`, nil},
		{"unfinished markers", `{"summary": "TODO", "owner": "FIXME", "tags": ["foo", "null"]}`, []string{"$.owner", "$.summary", "$.tags[0]", "$.tags[1]"}},
		{"values that are real answers somewhere", `{"summary": "test", "owner": "John Doe", "tags": ["na", "sample", "-", "bar", "string", "example"]}`, nil},
		{"blank and white space", `{"summary": "", "owner": " \t\u00a0"}`, []string{"$.owner", "$.summary"}},
		{"N/A with full stop, TBD, lorem", `{"summary": "N/A.", "owner": "tbd", "tags": ["Lorem ipsum dolor sit amet"]}`, []string{"$.owner", "$.summary", "$.tags[0]"}},
		{"configured", `{"owner": "UNKNOWN"}`, []string{"$.owner"}},
		{"schema's description echoed", `{"summary": "one sentence on the change"}`, []string{"$.summary"}},
		{"schema's example echoed", `{"summary": "Adds retries"}`, []string{"$.summary"}},
		{"schema's default echoed", `{"owner": "unassigned"}`, []string{"$.owner"}},
		{"placeholders an enum allows", `{"status": "N/A"}`, nil},
		{"test allowed by enum", `{"status": "test"}`, nil},
		{"const through $ref", `{"kind": "TBD"}`, nil},
		{"words that contain placeholders", `{"summary": "Test the example parser"}`, nil},
		{"numbers left alone", `{"tags": [], "owner": "x", "n": 0}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs := invs.CheckGrounded(decode(t, tt.out), g)
			var paths []string
			for _, v := range vs {
				paths = append(paths, v.Path)
				assert.Contains(t, v.Message, "is a placeholder")
			}
			assert.Equal(t, tt.bad, paths)
		})
	}
	// Without a schema the enum cannot be seen: the list alone decides.
	assert.Len(t, invs.Check(decode(t, `{"status": "N/A"}`)), 1)
}

func TestCompileGroundingInvariants(t *testing.T) {
	_, err := crosscheck.CompileInvariants(
		crosscheck.Invariant{Kind: crosscheck.QuoteInInput},
		crosscheck.Invariant{Kind: crosscheck.ValueInInput, Refs: "$.a"},
		crosscheck.Invariant{Kind: crosscheck.NotPlaceholder, Values: "$["},
	)
	require.ErrorIs(t, err, crosscheck.ErrInvalidRule)
	require.ErrorIs(t, err, crosscheck.ErrInvalidPath)
	for _, s := range []string{"values: required for quote_in_input", "targets: required for value_in_input", "values: not a path"} {
		assert.Contains(t, err.Error(), s)
	}
	is, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.UniqueBy, Items: "$[*]", Key: []string{"id"}})
	require.NoError(t, err)
	assert.False(t, is.Grounded())
	is, err = crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.NotPlaceholder, Values: "$"})
	require.NoError(t, err)
	assert.True(t, is.Grounded())
}

// longInput is about size bytes of varied prose and the quotes in it.
func longInput(size, quotes int) (string, []any) {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "Clause %d: the party numbered %d shall deliver item %x within %d days. ", i, i*7, i*31, i%90)
	}
	text := b.String()
	var qs []any
	step := len(text) / quotes
	for i := range quotes {
		at := i * step
		at += strings.Index(text[at:], "Clause")
		end := at + strings.Index(text[at:], ". ")
		qs = append(qs, text[at:end])
	}
	return text, qs
}

func TestQuoteInInputLong(t *testing.T) {
	text, qs := longInput(1<<20, 1000)
	qs = append(qs, "Clause 1: the party numbered 7 shall deliver item 1f within 1 days … Clause 3:", "Clause 3: the party numbered 7 shall deliver")
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q[*]"})
	require.NoError(t, err)
	vs := invs.CheckGrounded(map[string]any{"q": qs}, grounds(t, text, nil, ""))
	require.Len(t, vs, 1)
	assert.Equal(t, "$.q[1001]", vs[0].Path)
}

// BenchmarkQuoteInInput checks 1,000 quotes against a 1 MB input,
// normalised once per run as [crosscheck.NewGrounds] does.
func BenchmarkQuoteInInput(b *testing.B) {
	text, qs := longInput(1<<20, 1000)
	benchQuotes(b, text, qs)
}

// BenchmarkQuoteInInputCommonParts is the adversarial case: 1,000 quotes
// made of parts that occur thousands of times in the 1 MB input ("the ...
// shall ... days"), in order, so each must be placed after the last.
func BenchmarkQuoteInInputCommonParts(b *testing.B) {
	text, _ := longInput(1<<20, 1000)
	qs := make([]any, 1000)
	for i := range qs {
		qs[i] = "the party … shall deliver … days"
	}
	benchQuotes(b, text, qs)
}

// benchQuotes checks the quotes qs, all faithful, against text, from a
// fresh Grounds each time.
func benchQuotes(b *testing.B, text string, qs []any) {
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q[*]"})
	require.NoError(b, err)
	v := map[string]any{"q": qs}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if vs := invs.CheckGrounded(v, crosscheck.NewGrounds(crosscheck.Inputs{Text: text})); len(vs) != 0 {
			b.Fatal(vs)
		}
	}
}

// BenchmarkQuoteInInputFloor is the floor BenchmarkQuoteInInput is read
// against: normalising the 1 MB input once, which any check of quotes
// against it must do. The ratio of the two, taken in one run, is the cost
// of preparing the input and finding the 1,000 quotes.
func BenchmarkQuoteInInputFloor(b *testing.B) {
	text, _ := longInput(1<<20, 1000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if crosscheck.Normalize(text) == "" {
			b.Fatal("empty")
		}
	}
}

func FuzzQuoteParts(f *testing.F) {
	for _, s := range []string{"a … b", "“x” — y", "\xff...\u200b", "[...]", "İstanbul"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, text, quote string) {
		n := crosscheck.Normalize(text)
		if crosscheck.Normalize(n) != n {
			t.Fatalf("Normalize is not idempotent on %q", text)
		}
		invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$"})
		if err != nil {
			t.Fatal(err)
		}
		g := crosscheck.NewGrounds(crosscheck.Inputs{Text: text})
		_ = invs.CheckGrounded(quote, g)
		// The text quoted whole is always found when it has no ellipsis.
		if !strings.Contains(n, "...") && !strings.Contains(n, "[") {
			if vs := invs.CheckGrounded(text, g); len(vs) != 0 {
				t.Fatalf("%q not found in itself: %v", text, vs)
			}
		}
	})
}

func TestPathMatches(t *testing.T) {
	p, err := crosscheck.ParsePath("$.findings[*].evidence")
	require.NoError(t, err)
	for at, want := range map[string]bool{
		"$.findings[2].evidence":    true,
		"$.findings[0].evidence":    true,
		"$.findings.x.evidence":     true, // [*] is every member too
		"$.findings[2].note":        false,
		"$.findings[2]":             false,
		"$.findings[2].evidence[0]": false,
		"not a path":                false,
		"$['findings'][1].evidence": true,
	} {
		assert.Equal(t, want, p.Matches(at), at)
	}
}

// TestCheckPart checks a quote alone, at its location, as a stream hands it
// over; other invariants and other locations are left to the whole output.
func TestCheckPart(t *testing.T) {
	is, err := crosscheck.CompileInvariants(
		crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.findings[*].evidence"},
		crosscheck.Invariant{Kind: crosscheck.NotPlaceholder, Values: "$"},
	)
	require.NoError(t, err)
	assert.True(t, is.Quotes())
	g := crosscheck.NewGrounds(crosscheck.Inputs{Text: "The server returns 500 when the disk is full."})
	assert.Empty(t, is.CheckPart("$.findings[0].evidence", "returns 500 when the disk is full", g))
	vs := is.CheckPart("$.findings[3].evidence", "returns 404 when the disk is full", g)
	require.Len(t, vs, 1)
	assert.Equal(t, "$.findings[3].evidence", vs[0].Path)
	assert.Contains(t, vs[0].Message, "quote the inputs exactly")
	assert.Empty(t, is.CheckPart("$.findings[3].note", "invented", g), "not a quote's location")
	assert.Empty(t, is.CheckPart("$.findings[3].evidence", 42.0, g), "not a string")
	assert.Empty(t, is.CheckPart("$.summary", "TBD", g), "placeholders wait for the whole output")
	assert.Empty(t, is.CheckPart("$.findings[3].evidence", "invented", nil), "no inputs")
}

// TestGroundsBlankInput: one rule for blank inputs. A quote_in_input on
// the rendered text whose text is blank, and one on a parameter whose
// strings are all blank, both miss their input: Grounds reports it, and
// CheckGrounded leaves the invariant unchecked rather than judge every
// quote false, which no answer could fix.
func TestGroundsBlankInput(t *testing.T) {
	tests := []struct {
		name      string
		parameter string
		in        crosscheck.Inputs
		message   string
	}{
		{"blank text", "", crosscheck.Inputs{Text: "  "}, "quotes the rendered inputs, which are blank"},
		{"blank parameter", "contract", crosscheck.Inputs{Text: "Read it.", Parameters: map[string]any{"contract": " "}}, `quotes parameter "contract", which is blank`},
		{"parameter of blank strings", "contract", crosscheck.Inputs{Text: "Read it.", Parameters: map[string]any{"contract": []any{"", map[string]any{"a": "\n"}, nil}}}, `quotes parameter "contract", which is blank`},
		{"absent parameter", "contract", crosscheck.Inputs{Text: "Read it."}, `reads parameter "contract", which is not among the inputs`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q", Parameter: tt.parameter})
			require.NoError(t, err)
			g, err := invs.Grounds(tt.in)
			assert.Nil(t, g)
			require.ErrorIs(t, err, crosscheck.ErrMissingInput)
			var ie *crosscheck.InputError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, tt.parameter, ie.Parameter)
			assert.ErrorContains(t, err, tt.message)
			assert.Empty(t, invs.CheckGrounded(map[string]any{"q": "The fee is due"}, crosscheck.NewGrounds(tt.in)))
		})
	}
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q", Parameter: "n"})
	require.NoError(t, err)
	_, err = invs.Grounds(crosscheck.Inputs{Parameters: map[string]any{"n": 1300.0}})
	assert.NoError(t, err, "a number is text to quote")
}

// TestQuoteInsideWordMessage: a quote found only inside longer words is
// told so, with the word, so that the model re-asked learns that only
// whole words count; one absent from the inputs is told it is not there.
func TestQuoteInsideWordMessage(t *testing.T) {
	tests := []struct{ input, quote, message string }{
		{"The operation is unsafe.", "safe", "is not a quote: the inputs contain 'safe' only inside a longer word ('unsafe'); quote whole words exactly, or leave the quote out"},
		{"Refunds within 1,300 days.", "300 days", "the inputs contain '300 days' only inside a longer word ('1,300 days')"},
		{"The operation is unsafe.", "risky", "is not a quote: the inputs do not contain 'risky'; quote the inputs exactly, or leave the quote out"},
	}
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q"})
	require.NoError(t, err)
	for _, tt := range tests {
		vs := invs.CheckGrounded(map[string]any{"q": tt.quote}, crosscheck.NewGrounds(crosscheck.Inputs{Text: tt.input}))
		require.Len(t, vs, 1)
		assert.Contains(t, vs[0].Message, tt.message)
	}
}
