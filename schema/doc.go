// Package schema compiles JSON Schemas (draft 2020-12 and draft-07) on
// github.com/google/jsonschema-go and validates values against them,
// reporting every violation with the instance path where it occurred and a
// message a language model can act on.
//
// Start with [Parse]:
//
//	s, err := schema.Parse([]byte(`{"type":"object","required":["summary"]}`))
//	if err != nil {
//		return err // *InvalidSchemaError: where in the schema, and why
//	}
//	for _, v := range s.Validate(value) {
//		fmt.Println(v.Path, v.Message) // $.summary 'summary' is a required property
//	}
//
// A [*Schema] is immutable and safe for concurrent use: compile it once and
// share it. It keeps the author's bytes ([Schema.JSON]) so prompts show the
// schema in the author's key order, and a minified copy.
//
// # Validation
//
// jsonschema-go is the authority: a value is valid exactly when its
// Resolved.Validate accepts it. [Parse] also compiles each subschema into a
// fast path that decides validity without jsonschema-go: over a decoded
// value ([Schema.Validate]), over the bytes of a document without decoding
// it ([Schema.ValidateJSON]), both allocating nothing for a valid value
// (their docs name the few cases that do), or while decoding a document
// ([Schema.Decode], [Schema.DecodeString]), each array and object checked
// as it is built. Each keyword's rule is written once, and the diagnostic
// pass that lists violations applies the same rules. Every path is linear
// in each dimension of its input (names per object, items, nesting,
// string length, enum size, alternatives, patterns, violations). It covers
// every keyword but unevaluatedItems and
// unevaluatedProperties (whose part of the value the diagnostic pass
// judges) and a $dynamicRef that follows the dynamic scope (a document with
// one, or parsed with [ParseOptions.AssertFormat], is checked by
// jsonschema-go alone). Whatever the fast path is unsure of goes to
// jsonschema-go; generated schemas and values, the JSON-Schema-Test-Suite, a
// corpus of real-world schemas and a fuzz test hold it to the authority:
// the same verdict and the same violations. jsonschema-go stops at the first error, names the schema
// location rather than the instance location, and picks that error in map
// order; so for an invalid value this package runs its own diagnostic pass
// over the compiled schema that collects all violations, in a stable order
// (the schema's keyword and property order), each with
//
//   - Path, JSONPath style ("$.issues[0].severity"), and Pointer, a JSON
//     Pointer ("/issues/0/severity"). For required, dependentRequired and
//     unwanted properties, the location is that of the property concerned
//     ("$.summary: 'summary' is a required property");
//   - Keyword and SchemaPath, the keyword that failed and its JSON Pointer
//     in the schema (through $ref, the pointer of the referenced keyword);
//   - Message: "'critical' is not one of ['high', 'medium', 'low']",
//     "expected integer, got string \"5\"".
//
// When no anyOf/oneOf alternative matches, the violations of the closest
// alternative are reported (a const or type mismatch marks an alternative
// as far), or a summary ("expected string or integer, got boolean true")
// when every alternative rejects the value outright. Should the pass ever
// find nothing where jsonschema-go found a fault, the result is
// jsonschema-go's own message at "$": an invalid value always has at least
// one violation.
//
// Values are decoded JSON as json.Unmarshal produces into an any (without
// UseNumber).
//
// # Formats
//
// By default "format" is an annotation, as in jsonschema-go and as the
// specification's default: "not a date" passes {"format": "date"}. With
// [ParseOptions.AssertFormat] the formats a model most often gets wrong are
// asserted: date-time, date, time, duration, email, hostname, ipv4, ipv6,
// uri, uri-reference, iri, iri-reference, uuid, uri-template, json-pointer,
// relative-json-pointer and regex (Go's RE2 syntax, not ECMA-262). Other
// values (idn-email, idn-hostname, custom names) stay annotations. The
// verdict is then the diagnostic pass's with formats asserted: jsonschema-go
// still decides every other keyword, and a value it accepts is valid unless
// a format fails; a value it rejects only because it ignores format (a not
// or oneOf that the format decides) is valid. On the suite's optional format
// tests this passes 675 of 764; the rest are the formats not asserted,
// Punycode A-labels, ECMA-262-only regular expressions and IPvFuture hosts.
//
// # Drafts
//
// The root $schema decides the draft. Its variants (http or https, with or
// without the trailing "#") are normalised, because jsonschema-go refuses
// every later validation under a $schema it does not spell exactly. Draft-06
// and draft-04 documents are read under draft-07 rules (draft-04's boolean
// exclusiveMinimum/exclusiveMaximum are rewritten); 2019-09 and documents
// without $schema are draft 2020-12, unless they use a draft-07-only form
// (array-form items, additionalItems, dependencies) and no 2020-12-only
// keyword, in which case they are draft-07. A $schema naming a custom
// meta-schema is read under the draft that meta-schema is written in when
// [ParseOptions.Loader] supplies it (one level: its own $schema must be one
// of the drafts); a warning says so, because the meta-schema's own
// keywords and its $vocabulary are not applied. Any other $schema is
// refused with [ErrUnsupportedDraft].
//
// # Schema errors and warnings
//
// Parse checks the document against its draft's meta-schema rules and
// returns the first problem in document order as an [*InvalidSchemaError]
// with its location ("$.properties.severity.type") and reason: malformed
// JSON ([ErrSyntax]), a keyword with a value of the wrong kind ("type":
// "strin", "minLength": -1, "required": "x"), a regular expression Go
// cannot compile, a $ref that points nowhere, references that loop
// without descending into the value ([ErrRefCycle]). Unknown keywords,
// keywords the draft ignores, duplicate keys and required properties that
// additionalProperties false forbids are not errors: [Schema.Warnings]
// lists them, with a suggestion for a likely typo.
//
// A $ref to another document (http, https, file, or relative) is refused
// with [ErrRemoteRef]; nothing is ever fetched. [ParseWith] with a
// [ParseOptions.Loader] supplies such documents. The meta-schemas of both
// drafts are built in (this package's own rendering: the draft 2020-12
// schema and its vocabulary documents under
// https://json-schema.org/draft/2020-12/, and draft-07's), so a $ref to
// them resolves without a loader.
//
// On the JSON-Schema-Test-Suite (both drafts, refRemote included, its
// remotes served by a loader) Validate passes 1298 of 1299 draft 2020-12
// tests and 927 of 927 draft-07 tests; jsonschema-go alone, given the same
// documents, passes 1296 and 927. The one failure needs a custom
// meta-schema's $vocabulary applied.
//
// # Merging
//
// [MergeProperties] adds properties to a schema, optionally required,
// without modifying its input and keeping the author's key order and
// layout; [MergePrompt] is the merge an autonomous agent's parameters get:
// type object, a "prompt" string of at least one character, "prompt"
// required.
//
// Schemas stored by name live in package registry; a provider's flavour of
// JSON Schema (OpenAI's strict mode, Anthropic's, Gemini's, Ollama's) is
// made by package schema/dialect.
//
// # Limits
//
// Schema documents are limited to 8 MiB and 256 levels of nesting
// ([ErrLimit]), and to 64 loaded documents. The diagnostic pass stops
// descending after 4000 nested subschema applications and says so.
// [Schema.Validate] refuses values that nest more than [DefaultMaxDepth]
// (128) levels deep ([ParseOptions.MaxDepth] changes it) with one
// violation, before jsonschema-go sees them: its cost on an invalid value
// grows faster than quadratically with the depth (seconds at a thousand
// levels under a recursive schema), and a model's output must not stall
// the caller. jsonschema-go's own work is otherwise not bounded by this
// package: a schema whose anyOf alternatives nest many levels deep costs it
// exponential time.
package schema
