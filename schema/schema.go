package schema

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsonvalue"
	"github.com/agentio/agentio/internal/schematree"
)

// ErrNotJSON is returned (wrapped, with the decoder's error) by
// [Schema.ValidateJSON] when the instance bytes are not one JSON value.
var ErrNotJSON = errors.New("schema: instance is not JSON")

// A Schema is a compiled JSON Schema (draft 2020-12 or draft-07). It is
// immutable and safe for concurrent use: compile it once with [Parse],
// [ParseWith], [New] or [For] and share it. It keeps the author's bytes for
// prompts ([Schema.JSON]).
//
// The zero Schema (and a nil *Schema) is the schema true: it accepts every
// value.
type Schema struct {
	src      []byte // the author's bytes
	min      []byte // src minified, key order kept
	c        *compiled
	resolved *jsonschema.Resolved
	maxDepth int // ParseOptions.MaxDepth; 0 means DefaultMaxDepth
}

// Parse compiles a JSON Schema document. It returns an [*InvalidSchemaError]
// saying where and why when data is not JSON, breaks the draft's
// meta-schema rules, has a $ref that points nowhere, or refers to a remote
// document (use [ParseWith] with a [Loader] for those).
func Parse(data []byte) (*Schema, error) {
	return ParseWith(data, nil)
}

// ParseWith is [Parse] with options; a nil opts means the defaults.
func ParseWith(data []byte, opts *ParseOptions) (*Schema, error) {
	var o ParseOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxDepth < 0 {
		return nil, fmt.Errorf("%w: MaxDepth %d is negative", ErrInvalidOption, o.MaxDepth)
	}
	c, err := compileDocument(data, o.Loader)
	if err == nil && o.AssertFormat {
		c.assertFormats = c.usesFormat()
	}
	if err != nil {
		return nil, err
	}
	resolved, err := c.root.Resolve(&jsonschema.ResolveOptions{Loader: c.authorityLoader})
	if err != nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: cleanAuthorityMessage(err.Error()), Err: err}
	}
	c.maxApplications = c.applicationBound(cmp.Or(o.MaxDepth, DefaultMaxDepth))
	c.fastProgram() // compiled now, so that no check pays for it
	var min bytes.Buffer
	if err := json.Compact(&min, data); err != nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: err.Error(), Err: fmt.Errorf("%w: %w", ErrSyntax, err)}
	}
	return &Schema{src: bytes.Clone(data), min: min.Bytes(), c: c, resolved: resolved, maxDepth: o.MaxDepth}, nil
}

// authorityLoader serves jsonschema-go the documents compile loaded.
func (c *compiled) authorityLoader(u *url.URL) (*jsonschema.Schema, error) {
	norm, ok := c.docs[u.String()]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrRemoteRef, u)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(norm, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// New compiles a schema built in Go. s is marshalled, so the caller keeps
// ownership and may modify it afterwards.
func New(s *jsonschema.Schema) (*Schema, error) {
	if s == nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: "nil schema"}
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: err.Error(), Err: err}
	}
	return Parse(data)
}

// For infers the schema of the Go type T (as jsonschema.For does, property
// order following the struct fields) and compiles it.
func For[T any]() (*Schema, error) {
	js, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, &InvalidSchemaError{Path: "$", Reason: err.Error(), Err: err}
	}
	return New(js)
}

// JSON returns the schema as its author wrote it (key order kept). The
// caller may modify the returned slice.
func (s *Schema) JSON() []byte {
	if s == nil || s.c == nil {
		return []byte("true")
	}
	return bytes.Clone(s.src)
}

// Minified returns the schema without insignificant white space, key order
// kept. The caller may modify the returned slice.
func (s *Schema) Minified() []byte {
	if s == nil || s.c == nil {
		return []byte("true")
	}
	return bytes.Clone(s.min)
}

// MarshalJSON returns the author's bytes, so a Schema can sit inside a JSON
// document. It has a value receiver so that a Schema field marshals the
// same whether or not it is addressable.
func (s Schema) MarshalJSON() ([]byte, error) { return s.JSON(), nil }

// UnmarshalJSON compiles data as [Parse] does (remote references are
// refused) into s, which must be the zero Schema: the one encoding/json
// allocates for a *Schema field. A compiled Schema is immutable and may be
// shared, so unmarshalling into one is an error matching [ErrImmutable]
// and leaves it as it was; so does a document that does not compile.
func (s *Schema) UnmarshalJSON(data []byte) error {
	if s.c != nil {
		return fmt.Errorf("%w: cannot unmarshal into a compiled Schema", ErrImmutable)
	}
	p, err := Parse(data)
	if err != nil {
		return err
	}
	*s = *p
	return nil
}

// PropertyOrder returns the names under the root's "properties" in the
// order the author wrote them: nil when the root has no "properties"
// keyword, an empty (non-nil) slice for "properties": {}. A root that is
// only a $ref (`{"$ref": "#/$defs/Input"}`) is followed to the schema it
// names. The caller may modify the returned slice.
func (s *Schema) PropertyOrder() []string {
	if s == nil || s.c == nil {
		return nil
	}
	r := s.c.follow(func(js *jsonschema.Schema) bool { return js.Properties != nil })
	if r.Properties == nil {
		return nil
	}
	return append([]string{}, s.c.infos[r].propOrder...)
}

// Types returns the root's declared "type" values ("object"; or
// "string", "null" for a list); nil when the root does not constrain the
// type. A root that is only a $ref is followed to the schema it names. The
// caller may modify the returned slice.
func (s *Schema) Types() []string {
	if s == nil || s.c == nil {
		return nil
	}
	r := s.c.follow(func(js *jsonschema.Schema) bool { return js.Type != "" || js.Types != nil })
	if r.Type != "" {
		return []string{r.Type}
	}
	return slices.Clone(r.Types)
}

// follow walks the root's $ref chain until a schema satisfies has; it
// returns the last schema reached. The chain ends: Parse refuses $ref
// cycles.
func (c *compiled) follow(has func(*jsonschema.Schema) bool) *jsonschema.Schema {
	r := c.root
	for !has(r) && c.infos[r].ref != nil {
		r = c.infos[r].ref
	}
	return r
}

// Warnings returns the lint findings of the schema (see [Warning]), in
// document order; nil when there are none. The caller may modify the
// returned slice.
func (s *Schema) Warnings() []Warning {
	if s == nil || s.c == nil {
		return nil
	}
	return slices.Clone(s.c.warnings)
}

// Validate reports every way v violates the schema, in a stable order; none
// when v is valid. v is a decoded JSON value (as from json.Unmarshal into an
// any, without UseNumber: map[string]any, []any, string, float64, bool,
// nil); other Go values are accepted as github.com/google/jsonschema-go
// accepts them.
//
// A plain decoded value is checked by the compiled fast path, which
// allocates nothing for a valid value (but a set of the items for
// uniqueItems over more than 16 of them, and the verdicts of a value whose
// parts meet anyOf or oneOf more than 65,536 times); any other value, and every value of
// a document the fast path does not cover, is checked by jsonschema-go, the
// authority the fast path is held to (same verdict, same violations). A
// value nesting deeper than [DefaultMaxDepth] levels (or
// [ParseOptions.MaxDepth]) gets one "maxDepth" violation instead. For an
// invalid value a diagnostic pass collects all violations; if it finds
// none, the result is jsonschema-go's own message at "$".
func (s *Schema) Validate(v any) []Violation {
	if s == nil || s.c == nil {
		return nil
	}
	if tv, deep := tooDeep(v, s.depthLimit()); deep {
		return []Violation{tv}
	}
	return s.validate(v)
}

// validate is Validate for a value within the depth limit.
func (s *Schema) validate(v any) []Violation {
	if p := s.c.fastProgram(); p != nil {
		switch p.check(v) {
		case valid:
			return nil
		case invalid:
			return s.invalid(v)
		}
	}
	return s.validateAuthority(v, true)
}

// invalid returns the violations of v, which the fast path found invalid:
// jsonschema-go would reject it too, so it is skipped unless the
// diagnostic pass finds nothing to say.
func (s *Schema) invalid(v any) []Violation {
	if pv, plain := plainValue(v); plain {
		return s.invalidPlain(pv, nil)
	}
	return s.validateAuthority(v, true)
}

// invalidPlain is invalid of a plain value (one a decoder made), given
// the verdicts of its parts the fast path gave as it was decoded (nil:
// none).
func (s *Schema) invalidPlain(v any, known *memoTable) []Violation {
	if findings := s.c.diagnoseKnown(v, known); len(findings) > 0 {
		return violations(findings)
	}
	return s.validateAuthority(v, true)
}

// validateAuthority is validate without the fast path: jsonschema-go
// decides, the diagnostic pass lists the violations (with its shortcuts,
// or without for the tests that hold the shortcuts to it).
func (s *Schema) validateAuthority(v any, shortcuts bool) []Violation {
	err := s.resolved.Validate(v)
	if err == nil && !s.c.assertFormats {
		return nil
	}
	var findings []finding
	pv, plain := plainValue(v)
	if plain {
		findings = s.c.diagnoseWith(pv, s.c.assertFormats, shortcuts)
	}
	if err == nil || len(findings) == 0 && s.c.assertFormats && len(s.c.diagnoseWith(pv, false, shortcuts)) > 0 {
		// Valid to jsonschema-go, which ignores format; or invalid to it
		// only because it ignores format (a not or oneOf that an asserted
		// format decides): the format-asserting pass has the last word.
		return violations(findings)
	}
	if len(findings) == 0 {
		msg := cleanAuthorityMessage(err.Error())
		kw, _, _ := strings.Cut(msg, ":")
		if schematree.ShapeOf(kw) == 0 && valueKeywords[kw] == nil {
			kw = ""
		}
		return []Violation{{Path: "$", Pointer: "", Keyword: kw, Message: msg}}
	}
	return violations(findings)
}

// violations turns the diagnostic pass's findings into Violations; none is
// nil.
func violations(findings []finding) []Violation {
	if len(findings) == 0 {
		return nil
	}
	out := make([]Violation, len(findings))
	paths := placeTexts(findings, (*jsonpath.Chain).AppendString)
	for i, f := range findings {
		pointer := f.pointer
		if pointer == "" && f.at != nil {
			pointer = f.at.Pointer()
		}
		out[i] = Violation{Path: paths[i], Pointer: pointer, Keyword: f.keyword, SchemaPath: f.schema, Message: f.message}
	}
	return out
}

// ValidateJSON decodes data and validates it. The error, wrapping
// [ErrNotJSON], is non-nil only when data is not a single JSON value. A
// value holding a number beyond float64's range (1e400) is reported as a
// violation, since it cannot be checked.
//
// A valid document is checked on its bytes, without decoding it, by the
// fast path, allocating nothing but where it decodes a part to compare it:
// a string written with escapes under a string keyword, and an array or
// object under enum or const, or under uniqueItems when it is not of at
// most 16 plain strings or numbers. A document with a key written with
// escapes, like any the fast path is unsure of, is decoded and checked as
// [Schema.Decode] does.
func (s *Schema) ValidateJSON(data []byte) ([]Violation, error) {
	known := undecided
	if s != nil && s.c != nil {
		if p := s.c.fastProgram(); p != nil {
			if known = p.checkBytes(data, s.depthLimit()); known == valid {
				return nil, nil
			}
		}
	}
	_, vs, err := s.decode(string(data), known)
	var te *json.UnmarshalTypeError
	if errors.Is(err, ErrNumberRange) && errors.As(err, &te) {
		return []Violation{{Path: "$", Pointer: "", Keyword: "type",
			Message: "the value holds a " + te.Value + " too large to represent; use a smaller number"}}, nil
	}
	return vs, err
}

// ErrNumberRange is returned (wrapped, with the decoder's error) by
// [Schema.Decode] and [Schema.DecodeString] for JSON holding a number
// beyond float64's range (1e400), which no decoded value can hold.
var ErrNumberRange = errors.New("schema: a number beyond float64's range")

// Decode decodes data, one JSON value, into what json.Unmarshal gives an
// any (map[string]any, []any, string, float64, bool, nil), and validates
// it: it returns the value and every way it violates the schema, none when
// it is valid. The value shares no memory with data. The error is non-nil
// only when data cannot be decoded: it wraps [ErrNotJSON] when data is not
// a single JSON value, and [ErrNumberRange] when it holds a number beyond
// float64's range.
//
// Decode is how to check bytes whose value is wanted: it decodes faster
// than json.Unmarshal, checks each array and object against the schema as
// it reads it, where the fast path covers the subschema (so a valid value
// costs little more than decoding it), and, knowing how deeply the value
// nests, skips [Schema.Validate]'s depth walk. A string that the enum of
// the subschema it is read under allows is given as the enum's own
// string, which costs no allocation. A nil Schema accepts every value.
func (s *Schema) Decode(data []byte) (any, []Violation, error) {
	return s.decode(string(data), undecided)
}

// DecodeString is [Schema.Decode] for JSON held in a string, such as a
// model's reply, which it does not copy: the strings of the value share
// the memory of src.
func (s *Schema) DecodeString(src string) (any, []Violation, error) {
	return s.decode(src, undecided)
}

// decode is Decode of src, whose verdict the fast path over bytes may
// already know (invalid, or undecided): an invalid value goes straight to
// its violations. An undecided one is decoded and checked in one pass
// (see decodeRun).
func (s *Schema) decode(src string, known verdict) (any, []Violation, error) {
	if s == nil || s.c == nil {
		var d jsonvalue.Decoder
		v, err := d.DecodeString(src)
		if err != nil {
			return nil, nil, decodeError(src, err)
		}
		return v, nil, nil
	}
	r, _ := s.c.decodeRuns.Get().(*decodeRun)
	if r == nil {
		r = new(decodeRun)
	}
	defer func() {
		r.done() // after the diagnostic pass has read r.known
		s.c.decodeRuns.Put(r)
	}()
	var v any
	var err error
	got, checked := undecided, false
	if p := s.c.fastProgram(); p != nil && known == undecided {
		v, got, err = r.check(p, src)
		checked = err == nil
	}
	if !checked {
		if v, err = r.d.DecodeString(src); err != nil {
			return nil, nil, decodeError(src, err)
		}
	}
	switch deepest := r.d.Deepest(); {
	case deepest < 0 || deepest > s.depthLimit():
		return v, s.Validate(v), nil
	case known == invalid:
		return v, s.invalidPlain(v, nil), nil
	case checked && got == invalid:
		return v, s.invalidPlain(v, &r.known), nil
	case checked && got == valid:
		return v, nil, nil
	case checked:
		return v, s.validateAuthority(v, true), nil // the fast path is undecided
	}
	return v, s.validate(v), nil
}

// decodeError returns the error of Decode for src, which err says
// cannot be decoded.
func decodeError(src string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && json.Valid([]byte(src)) {
		return fmt.Errorf("%w: %w", ErrNumberRange, err)
	}
	return fmt.Errorf("%w: %w", ErrNotJSON, err)
}

// plainValue returns v when it holds only the types json.Unmarshal
// produces for an any; otherwise v round-tripped through JSON, if that
// works.
func plainValue(v any) (any, bool) {
	if isPlain(v, 0) {
		return v, true
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, false
	}
	return out, true
}

func isPlain(v any, depth int) bool {
	if depth > maxDiagnoseDepth {
		return false
	}
	switch x := v.(type) {
	case nil, bool, string, float64:
		return true
	case []any:
		for _, e := range x {
			if !isPlain(e, depth+1) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !isPlain(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
