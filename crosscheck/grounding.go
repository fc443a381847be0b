package crosscheck

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/agentio/agentio/internal/clip"
	"github.com/agentio/agentio/schema"
)

// Inputs are what the grounding invariants ([QuoteInInput], [ValueInInput],
// [NotPlaceholder]) hold an output against: what the model was given, and
// the schema it answered to.
type Inputs struct {
	// Text is the rendered inputs: the prompt the model was given.
	// QuoteInInput looks for quotes in it unless the invariant names a
	// Parameter.
	Text string
	// Parameters are the decoded parameters the prompt was rendered from.
	// ValueInInput selects its targets in them; QuoteInInput with a
	// Parameter looks in the strings of that member.
	Parameters map[string]any
	// Schema is the output schema. NotPlaceholder takes a value equal to
	// its description, examples or default at that place for a placeholder
	// and leaves alone a value its enum or const allows. Nil means none.
	Schema *schema.Schema
}

// Grounds are [Inputs] prepared for checking: the texts quotes are looked
// up in are normalised once, on first use, however many
// outputs (attempts) are checked against them. Grounds are immutable and
// safe for concurrent use.
type Grounds struct {
	in Inputs

	once   sync.Once
	text   *corpus
	mu     sync.Mutex
	params map[string]*corpus
}

// NewGrounds prepares in for [Invariants.CheckGrounded], whatever
// invariants it will serve; [Invariants.Grounds] also checks that in holds
// what they read. in is not copied deeply: its Parameters must not change
// afterwards.
func NewGrounds(in Inputs) *Grounds {
	return &Grounds{in: in, params: map[string]*corpus{}}
}

// DefaultMinQuoteLength is the fewest characters, spaces not counted, a
// quote of [QuoteInInput] may have unless the invariant says otherwise.
// Characters are counted as a reader counts them: a letter with its marks
// is one ("é", Thai "ม่"), and a Chinese or Japanese character or a Korean
// syllable two, for it carries about as much as a short word. Below three,
// a quote is a letter, a digit, a two-letter word ("a", "no", "is") or a
// single ideograph, found as a word in nearly any input: it grounds
// nothing, and would let a model pass the check with a token answer. From
// three on, short figures and terms that are real evidence ("30%", "Q3
// 2024", "yes", "违约") still pass.
const DefaultMinQuoteLength = 3

// ErrMissingInput is matched (errors.Is) by the [*InputError]s
// [Invariants.Grounds] returns for a grounding invariant whose input is
// not among the run's inputs.
var ErrMissingInput = errors.New("crosscheck: grounding input missing")

// An InputError reports a grounding invariant whose input is not among the
// run's [Inputs]: the parameter it names (absent, or for a QuoteInInput
// without any text that is not blank), or, with Parameter empty, the
// rendered text (blank). It matches [ErrMissingInput].
type InputError struct {
	// Invariant is the invariant's name.
	Invariant string
	// Parameter is the parameter missing; "" for the rendered text.
	Parameter string
	// Blank reports a QuoteInInput's parameter given without any text
	// that is not blank (always so for the rendered text).
	Blank bool
}

func (e *InputError) Error() string {
	if e.Parameter == "" {
		return fmt.Sprintf("crosscheck: invariant %q quotes the rendered inputs, which are blank", e.Invariant)
	}
	if e.Blank {
		return fmt.Sprintf("crosscheck: invariant %q quotes parameter %q, which is blank", e.Invariant, e.Parameter)
	}
	return fmt.Sprintf("crosscheck: invariant %q reads parameter %q, which is not among the inputs", e.Invariant, e.Parameter)
}

// Unwrap returns [ErrMissingInput].
func (e *InputError) Unwrap() error { return ErrMissingInput }

// Grounds prepares in for [Invariants.CheckGrounded] as [NewGrounds] does,
// after checking that in holds every input the grounding invariants read:
// the parameter a QuoteInInput names, with some text that is not blank
// (or, naming none, a Text that is not blank), and the parameter a
// ValueInInput's Targets start with. A missing
// one is a configuration error, not a fault of a model's output: the
// error joins an [*InputError] per invariant (matching
// [ErrMissingInput]), and the Grounds are nil.
//
// One rule holds for every grounding kind and every input, in
// CheckGrounded and Check alike: an invariant whose input is missing is
// not checked, and for a quote a blank text (the rendered inputs, or
// every string of the parameter) is a missing one, since nothing can be
// quoted from it. Its
// violations would go back to the model as a re-ask, and no answer can
// supply an input the caller did not give; judging every quote false or
// every reference unknown would only spend calls and blame the model.
// Grounds is where the mistake is caught, before the first call.
func (is *Invariants) Grounds(in Inputs) (*Grounds, error) {
	var errs []error
	if is != nil {
		for _, ci := range is.list {
			if !ci.hasInput(in) {
				name, _ := ci.input()
				_, given := in.Parameters[name]
				errs = append(errs, &InputError{Invariant: ci.Name, Parameter: name, Blank: name == "" || given})
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return NewGrounds(in), nil
}

// input returns the parameter the invariant reads ("" for the rendered
// text), and whether it reads an input at all.
func (ci *compiledInvariant) input() (name string, reads bool) {
	switch ci.Kind {
	case QuoteInInput:
		return ci.Parameter, true
	case ValueInInput:
		return ci.targets.firstKey()
	}
	return "", false
}

// hasInput reports whether in holds the input the invariant reads: the
// parameter it names, for a QuoteInInput with a text that is not blank;
// for a QuoteInInput naming none, a rendered text that is not blank; for a
// ValueInInput whose Targets name no parameter, parameters.
func (ci *compiledInvariant) hasInput(in Inputs) bool {
	name, reads := ci.input()
	switch {
	case !reads:
		return true
	case name != "":
		v, ok := in.Parameters[name]
		return ok && (ci.Kind != QuoteInInput || hasText(v))
	case ci.Kind == QuoteInInput:
		return strings.TrimSpace(in.Text) != ""
	default:
		return in.Parameters != nil
	}
}

// given reports whether g holds the input the invariant reads.
func (ci *compiledInvariant) given(g *Grounds) bool { return g != nil && ci.hasInput(g.in) }

// corpusFor returns the prepared text of the rendered inputs (name "") or of
// the named parameter.
func (g *Grounds) corpusFor(name string) *corpus {
	if name == "" {
		g.once.Do(func() { g.text = newCorpus(g.in.Text) })
		return g.text
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	c, ok := g.params[name]
	if !ok {
		var b strings.Builder
		appendStrings(&b, g.in.Parameters[name])
		c = newCorpus(b.String())
		g.params[name] = c
	}
	return c
}

// hasText reports whether appendStrings writes anything but white space
// for v.
func hasText(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x) != ""
	case []any:
		for _, e := range x {
			if hasText(e) {
				return true
			}
		}
		return false
	case map[string]any:
		for _, e := range x {
			if hasText(e) {
				return true
			}
		}
		return false
	case nil:
		return false
	default:
		return true
	}
}

// appendStrings writes every string in v, one per line, and numbers as
// written in JSON.
func appendStrings(b *strings.Builder, v any) {
	switch x := v.(type) {
	case string:
		b.WriteString(x)
		b.WriteByte('\n')
	case []any:
		for _, e := range x {
			appendStrings(b, e)
		}
	case map[string]any:
		for _, k := range sortedKeys(x) {
			appendStrings(b, x[k])
		}
	case nil:
	default:
		b.WriteString(canonical(x))
		b.WriteByte('\n')
	}
}

// DefaultPlaceholders returns the values [NotPlaceholder] rejects, as
// [Normalize] writes them, besides a blank value and one starting with
// "lorem ipsum". An invariant's Placeholders add to them.
//
// The list holds only values that are placeholders in nearly every field:
// markers of unfinished text ("TBD", "TODO", "FIXME", "N/A"), the
// programmer's "foo" and "xxx", a bare "..." or "?", and the words "null"
// and "undefined" written as strings. Values that are often real answers
// somewhere are left to an invariant's Placeholders for the fields where
// they are not: "John Doe" (a customer's name in test data), "test" and
// "example" (names, tags), "string" (a type), "NA" (a code), "sample",
// "bar" and "-". Measured on the string values of the valid instances of
// a corpus of 2,819 real-world schemas (43,232 strings), this list flags
// 14 (0.03%: "foo" 5, "null" 4, "FIXME" 3, "TODO" 2); see
// TestPlaceholdersCorpus.
func DefaultPlaceholders() []string {
	return []string{
		"n/a", "tbd", "tbc", "todo", "fixme", "lorem ipsum", "placeholder",
		"foo", "xxx", "...", "?", "null", "undefined",
	}
}

// The re-ask advice of each grounding kind.
const (
	adviceQuote       = "quote the inputs exactly, or leave the quote out"
	adviceValue       = "use only values given in the inputs"
	advicePlaceholder = "give the real answer from the inputs, or leave the field out if the schema allows it"
)

func (ci *compiledInvariant) quoteInInput(v any, g *Grounds) []schema.Violation {
	return ci.quotes(ci.values.Select(v), g)
}

// quotes checks the strings of ms as quotes of the inputs in g.
func (ci *compiledInvariant) quotes(ms []Match, g *Grounds) []schema.Violation {
	if !ci.given(g) {
		return nil
	}
	var out []schema.Violation
	var c *corpus
	for _, m := range ms {
		s, ok := m.Value.(string)
		if !ok {
			continue
		}
		parts := quoteParts(s)
		if len(parts) == 0 {
			out = append(out, violation(m.Path, "is an empty quote; "+adviceQuote))
			continue
		}
		if n := quoteLength(parts); n < ci.MinQuoteLength {
			out = append(out, violation(m.Path, fmt.Sprintf("%s is too short to ground anything (%d %s; at least %d); %s",
				clipQuote(s), n, plural(float64(n), "character"), ci.MinQuoteLength, adviceQuote)))
			continue
		}
		if c == nil {
			c = g.corpusFor(ci.Parameter)
		}
		miss, ok := c.find(parts)
		if ok {
			continue
		}
		where, verb := "the inputs", "do"
		if ci.Parameter != "" {
			where, verb = "parameter "+ci.Parameter, "does"
		}
		var msg string
		switch miss.kind {
		case missOrder:
			msg = fmt.Sprintf("quotes parts of %s out of their order (%s comes too early); %s", where, clipQuote(miss.part), adviceQuote)
		case missInsideWord:
			verb = "contain"
			if ci.Parameter != "" {
				verb = "contains"
			}
			msg = fmt.Sprintf("is not a quote: %s %s %s only inside a longer word (%s); quote whole words exactly, or leave the quote out", where, verb, clipQuote(miss.part), clipQuote(miss.word))
		default:
			msg = fmt.Sprintf("is not a quote: %s %s not contain %s; %s", where, verb, clipQuote(miss.part), adviceQuote)
		}
		out = append(out, violation(m.Path, msg))
	}
	return out
}

func (ci *compiledInvariant) valueInInput(v any, g *Grounds) []schema.Violation {
	if !ci.given(g) {
		return nil
	}
	allowed := map[string]bool{}
	var names []string
	for _, m := range ci.targets.Select(g.in.Parameters) {
		k := canonical(m.Value)
		if !allowed[k] && len(names) < 8 {
			names = append(names, quoteValue(m.Value))
		}
		allowed[k] = true
	}
	var out []schema.Violation
	for _, m := range ci.refs.Select(v) {
		if m.Value == nil || allowed[canonical(m.Value)] {
			continue
		}
		msg := fmt.Sprintf("%s is not among the inputs' %s", clipValue(m.Value), ci.Targets)
		if len(names) > 0 {
			msg += " (" + strings.Join(names, ", ") + ")"
		}
		out = append(out, violation(m.Path, msg+"; "+adviceValue))
	}
	return out
}

func (ci *compiledInvariant) notPlaceholder(v any, g *Grounds) []schema.Violation {
	var sch *schema.Schema
	if g != nil {
		sch = g.in.Schema
	}
	var out []schema.Violation
	for _, m := range ci.values.Select(v) {
		eachString(m.Value, m.Path, func(path, s string) {
			hints := hints(sch.Hints(path))
			if !ci.isPlaceholder(s) && !hints.annotated(s) {
				return
			}
			if hints.allows(s) {
				return
			}
			out = append(out, violation(path, fmt.Sprintf("%s is a placeholder, not an answer; %s", clipQuote(s), advicePlaceholder)))
		})
	}
	return out
}

// isPlaceholder reports whether s is blank, starts with "lorem ipsum", or
// is one of the placeholders, ignoring case, spacing and final full stops.
func (ci *compiledInvariant) isPlaceholder(s string) bool {
	n := Normalize(s)
	if n == "" || ci.placeholders[n] || strings.HasPrefix(n, "lorem ipsum") {
		return true
	}
	t := strings.TrimRight(n, ".!")
	return t != "" && ci.placeholders[t]
}

// eachString calls fn with every string in v and its path.
func eachString(v any, path string, fn func(path, s string)) {
	switch x := v.(type) {
	case string:
		fn(path, x)
	case []any:
		for i, e := range x {
			eachString(e, fmt.Sprintf("%s[%d]", path, i), fn)
		}
	case map[string]any:
		for _, k := range sortedKeys(x) {
			eachString(x[k], path+keyStep(k), fn)
		}
	}
}

func clipQuote(s string) string {
	return "'" + clip.Ellipsis(s, 80) + "'"
}

func clipValue(v any) string {
	if s, ok := v.(string); ok {
		return clipQuote(s)
	}
	return quoteValue(v)
}
