// Package crosscheck checks what a schema cannot: agreement between the
// outputs of sibling agents, and invariants inside one output.
//
// Several specialists feeding one downstream agent can disagree about the
// same thing: one calls the finding at server.go:42 a blocker, another
// calls the same line fine. Compile [Rule]s that say which items speak of
// the same thing (their key fields) and which fields must agree, then ask
// for the [Contradiction]s, and hand them to the downstream agent as data
// with [Annotate]:
//
//	rules, err := crosscheck.Compile(crosscheck.Rule{
//		Items: "$.findings[*]", Key: []string{"file", "line"}, Compare: []string{"severity"},
//	})
//	cs := rules.Contradictions(
//		crosscheck.Output{Name: "security", Value: sec},
//		crosscheck.Output{Name: "performance", Value: perf},
//	)
//	input := crosscheck.Annotate(params, cs) // params + "contradictions": [...]
//
// One output can also contradict itself: a summary that counts three
// blockers while its list holds none. [Invariant]s state such rules
// declaratively with paths ([CountEquals], [SumEquals], [UniqueBy],
// [ReferenceExists]); [Invariants.Check] returns schema.Violations with
// instance paths and messages a model can act on, so that as an enforce
// validator a violation is re-asked like a schema one.
//
// An output can also be valid and invented. The grounding invariants
// ([QuoteInInput], [ValueInInput], [NotPlaceholder]) hold it against the
// run's [Inputs] (the rendered prompt, the parameters, the output schema),
// prepared once by [Invariants.Grounds], which also fails
// ([ErrMissingInput]) when a parameter an invariant reads was not given,
// and passed to [Invariants.CheckGrounded]:
//
//	g, err := invs.Grounds(crosscheck.Inputs{Text: prompt, Parameters: params, Schema: s})
//	vs := invs.CheckGrounded(output, g)
//
// Quotes match at word boundaries only ("safe" is no quote of "unsafe");
// an empty quote, or one shorter than [DefaultMinQuoteLength], is a
// violation.
//
// Paths are the JSONPath subset the rest of agentio writes: $, .name,
// ['name'], [n] and [*] ([ParsePath]).
//
// Everything here is a pure function over decoded JSON: no provider, no
// loop. Rules and invariants are immutable once compiled and safe for
// concurrent use. A blueprint (agent.json) declares both next to its
// output schema; see package blueprint.
//
// # Performance
//
// A rule's time is linear in the outputs it compares, an invariant's in
// the values it reads; a grounding invariant normalises its input once per
// [Grounds], and checks a quote in time linear in the input plus the
// quote, however often its parts occur inside longer words or repeat.
// BenchmarkContradictions (one rule over three outputs of 1,000 findings
// each), BenchmarkCountInvariant, BenchmarkQuoteInInput (1,000 quotes
// against a 1 MB input, normalising included) and
// BenchmarkQuoteOverlappingMatches (a 30 KB part matching at every offset
// of a 300 KB word) measure them: go test ./crosscheck -run '^$' -bench .
// TestScalingQuoteCheck holds the quote check to linear growth.
package crosscheck
