package crosscheck

import (
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
// up in are normalised and indexed once, on first use, however many
// outputs (attempts) are checked against them. Grounds are immutable and
// safe for concurrent use.
type Grounds struct {
	in Inputs

	once   sync.Once
	text   *corpus
	mu     sync.Mutex
	params map[string]*corpus
}

// NewGrounds prepares in for [Invariants.CheckGrounded]. in is not copied
// deeply: its Parameters must not change afterwards.
func NewGrounds(in Inputs) *Grounds {
	return &Grounds{in: in, params: map[string]*corpus{}}
}

// corpusFor returns the indexed text of the rendered inputs (name "") or of
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
func DefaultPlaceholders() []string {
	return []string{
		"n/a", "na", "tbd", "tbc", "todo", "fixme", "lorem ipsum", "test", "testing",
		"example", "sample", "placeholder", "john doe", "jane doe", "john smith",
		"foo", "bar", "xxx", "string", "...", "-", "?", "null", "undefined",
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
	if g == nil || (ci.Parameter != "" && g.in.Parameters == nil) {
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
			continue
		}
		if c == nil {
			c = g.corpusFor(ci.Parameter)
		}
		missing, order, ok := c.find(parts)
		if ok {
			continue
		}
		where, verb := "the inputs", "do"
		if ci.Parameter != "" {
			where, verb = "parameter "+ci.Parameter, "does"
		}
		var msg string
		if order {
			msg = fmt.Sprintf("quotes parts of %s out of their order (%s comes too early); %s", where, clipQuote(missing), adviceQuote)
		} else {
			msg = fmt.Sprintf("is not a quote: %s %s not contain %s; %s", where, verb, clipQuote(missing), adviceQuote)
		}
		out = append(out, violation(m.Path, msg))
	}
	return out
}

func (ci *compiledInvariant) valueInInput(v any, g *Grounds) []schema.Violation {
	if g == nil {
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
