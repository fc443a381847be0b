package dialect

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentio/agentio/internal/clip"
	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/schema"
)

// Dialect names a provider's flavour of JSON Schema: the subset of keywords
// it accepts for native structured output and tool inputs.
type Dialect string

// The dialects.
const (
	// Passthrough sends the schema unchanged (the zero value).
	Passthrough Dialect = ""
	// OpenAI is OpenAI's strict structured-output subset: an object
	// root, additionalProperties false on every object, every property
	// required, anyOf but no oneOf/allOf, a short list of string, number
	// and array keywords, and limits on size and nesting.
	OpenAI Dialect = "openai"
	// Anthropic is Anthropic's structured-output subset: objects
	// closed (additionalProperties false), anyOf and allOf, $ref, enum,
	// const, pattern, a short list of formats, minItems of 0 or 1. Number,
	// length and other array and object bounds move into the description.
	Anthropic Dialect = "anthropic"
	// Gemini is the subset Gemini's responseJsonSchema takes: types,
	// properties (with propertyOrdering added in the author's order),
	// items and prefixItems with their counts, minimum and maximum, enum,
	// anyOf (oneOf rewritten), $ref, a short list of formats. String
	// lengths and patterns, const, allOf and the rest move into the
	// description.
	Gemini Dialect = "gemini"
	// Ollama is what Ollama's grammar-constrained format takes:
	// most of JSON schema.Schema (bounds, patterns, lengths, anyOf/oneOf/allOf,
	// $ref). Keywords a grammar cannot express (uniqueItems, not,
	// if/then/else, patternProperties, multipleOf, ...) move into the
	// description.
	Ollama Dialect = "ollama"
)

// ErrUnknown is returned (wrapped, with the name) by [Convert] for a
// [Dialect] this package does not know.
var ErrUnknown = errors.New("dialect: unknown dialect")

// ErrUnconvertible is returned (wrapped, with the reason) by [Convert]
// when a dialect cannot express the schema at all, such as the schema
// false. A schema the dialect can express only loosely is not an error:
// its [Conversion] has Strict false.
var ErrUnconvertible = errors.New("dialect: cannot convert")

// A Conversion is a schema rewritten for a provider's dialect, with what the
// rewrite changed and how to map the provider's output back. Validation
// always uses the original schema: call [Conversion.Restore] on the
// provider's output first.
//
// A Conversion is immutable and safe for concurrent use.
type Conversion struct {
	// Dialect is the dialect converted to.
	Dialect Dialect
	// schema.Schema is the rewritten schema, minified, with the author's key order
	// kept (OpenAI produces keys in schema order).
	Schema json.RawMessage
	// Strict reports whether schema.Schema may be sent with the provider's strict
	// flag; when false, send it non-strict or use another mode. The
	// reasons are the Changes of kind [ChangeNotStrict].
	Strict bool
	// Wrapped reports that the original root was not an object and was
	// wrapped as the single required property WrapKey.
	Wrapped bool
	// WrapKey is the wrapping property's name when Wrapped ("value").
	WrapKey string
	// Changes lists what the rewrite changed or dropped, and when Strict is
	// false why the schema cannot be strict, in schema order.
	Changes []Change

	restore  func(v any) any
	rewrites bool // restore changes more than the wrapping of the root
}

// A Change is one edit a dialect conversion made to a schema, or one reason
// it could not make the schema strict.
type Change struct {
	// Path locates the edited subschema, JSONPath style, written as
	// [schema.Violation.Path] is ("$.properties.tags", "$.properties['odd key']").
	Path string `json:"path"`
	// Kind names the edit.
	Kind ChangeKind `json:"kind"`
	// Detail says what was done, in words.
	Detail string `json:"detail"`
	// Enforced reports, for a keyword dropped or moved into the
	// description, that local validation still enforces it (it checks the
	// original schema): the provider will not hold the model to it, but a
	// reply that breaks it is still caught and re-asked. False for edits
	// that lose no constraint.
	Enforced bool `json:"enforced,omitempty"`
}

// A ChangeKind names what a [Change] did.
type ChangeKind string

// The kinds of [Change].
const (
	// ChangeWrappedRoot: a root that is not an object was wrapped as the
	// single required property [Conversion.WrapKey].
	ChangeWrappedRoot ChangeKind = "wrapped_root"
	// ChangeClosedObject: additionalProperties false was added to an object.
	ChangeClosedObject ChangeKind = "closed_object"
	// ChangeMadeNullable: an optional property was made required and
	// nullable; [Conversion.Restore] removes its nulls again.
	ChangeMadeNullable ChangeKind = "made_nullable"
	// ChangeOneOfToAnyOf: oneOf was rewritten as anyOf.
	ChangeOneOfToAnyOf ChangeKind = "oneof_to_anyof"
	// ChangeMergedAllOf: the branches of an allOf were merged into their
	// parent schema.
	ChangeMergedAllOf ChangeKind = "merged_allof"
	// ChangeInlinedRef: a $ref with sibling keywords was replaced by the
	// schema it points to.
	ChangeInlinedRef ChangeKind = "inlined_ref"
	// ChangeRenamedDefinitions: draft-07 definitions were moved to $defs.
	ChangeRenamedDefinitions ChangeKind = "renamed_definitions"
	// ChangeAddedType: a missing type was inferred from the keywords
	// present (properties: object, items: array).
	ChangeAddedType ChangeKind = "added_type"
	// ChangeMovedToDescription: a keyword the dialect does not support was
	// removed and written into the description, so the model still sees it.
	ChangeMovedToDescription ChangeKind = "moved_to_description"
	// ChangeDropped: a keyword without meaning for the model ($schema,
	// $comment, readOnly, an unknown keyword) was removed.
	ChangeDropped ChangeKind = "dropped"
	// ChangeNotStrict: a reason why the schema cannot be sent strict.
	ChangeNotStrict ChangeKind = "not_strict"
	// ChangePropertyOrdering: the author's property order was added as
	// propertyOrdering (Gemini).
	ChangePropertyOrdering ChangeKind = "property_ordering"
)

// Restore maps a value produced against the converted schema back to the
// original schema's shape: unwraps a wrapped root, removes the nulls that
// stand for omitted optional properties. It does not modify v; the result
// may share unchanged parts with it. A nil Conversion returns v.
func (c *Conversion) Restore(v any) any {
	if c == nil || c.restore == nil {
		return v
	}
	return c.restore(v)
}

// RewritesValues reports whether [Conversion.Restore] may change a value
// below its root (for OpenAI's strict dialect, nulls that stand for omitted
// optional properties): the parts of a value written against the converted
// schema then cannot be checked against the original schema before the
// whole value is restored. Unwrapping a wrapped root does not count.
func (c *Conversion) RewritesValues() bool { return c != nil && c.rewrites }

// Convert rewrites s for the dialect d and reports what it changed. The
// schema s is not modified. [Passthrough] returns the schema unchanged
// (and not strict). The conversion starts from [schema.Schema.Document].
//
// For [OpenAI], a schema that cannot be made strict (a map through
// additionalProperties with a schema, patternProperties, a value of any
// type, sizes over OpenAI's documented limits) is converted with Strict
// false: Schema is then the original (wrapped when its root is not an
// object) and the reasons are Changes of kind [ChangeNotStrict].
//
// An unknown dialect is an error matching [ErrUnknown], a schema the
// dialect cannot express at all (the schema false) one matching
// [ErrUnconvertible]. Each call converts anew; a caller that converts one
// schema often (enforce.Enforcer does) keeps the Conversion, which is
// immutable.
func Convert(s *schema.Schema, d Dialect) (*Conversion, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil schema", ErrUnconvertible)
	}
	switch d {
	case Passthrough:
		return &Conversion{Dialect: d, Schema: s.Minified(), Strict: false}, nil
	case OpenAI:
		return convertOpenAI(s.Document())
	case Anthropic:
		return convertTable(anthropicTable(), s.Document())
	case Gemini:
		return convertTable(geminiTable(), s.Document())
	case Ollama:
		return convertTable(ollamaTable(), s.Document())
	default:
		return nil, fmt.Errorf("%w %q", ErrUnknown, string(d))
	}
}

// compactText renders v as compact JSON cut to at most limit bytes (on a
// rune boundary, with "…" added), for descriptions and change details.
func compactText(v *jsontree.Node, limit int) string {
	b := v.AppendJSON(nil)
	return clip.Ellipsis(string(b), limit)
}
