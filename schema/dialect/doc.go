// Package dialect rewrites a compiled schema for a provider's flavour of
// JSON Schema. Providers with a native structured-output mode accept only
// a subset of it: [Convert] rewrites a [schema.Schema] for a [Dialect]
// (for [OpenAI]: every object closed, every property required with the
// optional ones made nullable, unsupported keywords moved into the
// description) and returns a [Conversion] listing each [Change] and
// whether the result may be sent as strict.
//
//	conv, err := dialect.Convert(s, dialect.OpenAI)
//	send(conv.Schema, conv.Strict)
//	value = conv.Restore(value) // then validate against s, never conv.Schema
//
// The provider's output is mapped back with [Conversion.Restore] and
// always validated against the original schema, never the converted one.
// Adapters never rewrite schemas themselves: package enforce converts the
// schema for the dialect an adapter names in its capabilities and sends
// what Convert returns.
//
// # One walk
//
// OpenAI's strict mode needs its own converter (openai.go). Anthropic,
// Gemini and Ollama are each a table (anthropic.go, gemini.go, ollama.go):
// what becomes of each keyword, plus a few structural rewrites, applied by
// one converter over the walk of the schema document that package schema
// uses too.
//
// # Errors
//
// An unknown dialect matches [ErrUnknown]; a schema a dialect cannot
// express at all (the schema false) matches [ErrUnconvertible]. A schema a
// dialect can express only loosely is not an error: its Conversion has
// Strict false and says why in Changes of kind [ChangeNotStrict].
package dialect
