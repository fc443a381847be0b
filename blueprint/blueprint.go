package blueprint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentio/agentio/internal/suggest"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/internal/jsonraw"
	"github.com/agentio/agentio/schema"
)

// Type is the kind of agent a blueprint describes.
type Type string

// The agent types.
const (
	// TypeAutonomous agents are run by a model: their parameters always
	// include a "prompt", and the others are rendered into the user prompt.
	TypeAutonomous Type = "autonomous"
	// TypeProcedural agents run a script with their parameters as they are.
	TypeProcedural Type = "procedural"
)

// A Blueprint is one agent's definition, as read from its agent.json.
// It is immutable and safe for concurrent use: [Parse] or [Load] it once and
// share it. Every schema in it was compiled at load time; a schema field
// that is absent or null is "not configured" and its accessor returns nil.
// The zero Blueprint is not usable: build one with Parse, Load or LoadDir.
type Blueprint struct {
	name          string
	description   string
	typ           Type
	systemPrompt  string
	promptFile    bool // systemPrompt came from agent.system-prompt.md
	tags          []string
	params        *schema.Schema
	merged        *schema.Schema // params merged with "prompt", autonomous agents only
	output        *schema.Schema
	defaultOutput *schema.Schema
	defaults      OutputOptions
	invariants    *crosscheck.Invariants
	rules         *crosscheck.Rules
	fields        []jsonraw.Member // every top-level member, document order, compacted
	path          string
}

// The top-level fields this package interprets; any other is kept as is.
var knownFields = []string{
	"name", "description", "type", "system_prompt", "tags",
	"parameters_schema", "output_schema", "default_output_schema", "default_output_schema_options",
	"invariants", "contradictions",
}

// Parse reads an agent.json document. It checks that name is a safe
// identifier (ASCII letters, digits, '-' and '_', starting with a letter or
// digit, at most 64 bytes), that type is "autonomous" or "procedural"
// (absent or null means autonomous), that every schema compiles, and that
// output_schema and default_output_schema describe an object with
// properties. Each bad field is reported as a [*FieldError]; several are
// joined with errors.Join. Fields it does not know are kept, in order, and
// written back by [Blueprint.MarshalJSON]. A key given twice is an error.
func Parse(data []byte) (*Blueprint, error) {
	return parse(data, nil)
}

// parse is Parse with an optional system prompt read from a file beside
// the agent.json.
func parse(data []byte, filePrompt *string) (*Blueprint, error) {
	fields, err := objectFields(data)
	if err != nil {
		return nil, &FieldError{Reason: "agent.json must hold one JSON object: " + cut(objectProblem(err)), Err: err}
	}
	b := &Blueprint{typ: TypeAutonomous}
	var errs []error
	fail := func(f string, reason string) { errs = append(errs, &FieldError{Field: f, Reason: reason}) }
	hasName := false
	for i, f := range fields {
		var buf bytes.Buffer
		if err := json.Compact(&buf, f.Value); err == nil {
			fields[i].Value = buf.Bytes() // a copy: the blueprint keeps no part of data
		}
		if isNull(f.Value) {
			continue
		}
		switch f.Key {
		case "name":
			hasName = true
			if json.Unmarshal(f.Value, &b.name) != nil {
				fail("name", "must be a string")
			} else if err := checkName(b.name); err != "" {
				fail("name", err)
			}
		case "description":
			if json.Unmarshal(f.Value, &b.description) != nil {
				fail("description", "must be a string")
			}
		case "type":
			var t string
			if json.Unmarshal(f.Value, &t) != nil {
				fail("type", `must be "autonomous" or "procedural"`)
				break
			}
			b.typ = Type(t)
			if b.typ != TypeAutonomous && b.typ != TypeProcedural {
				fail("type", fmt.Sprintf(`must be "autonomous" or "procedural", got %q`, cut(t)))
			}
		case "system_prompt":
			if json.Unmarshal(f.Value, &b.systemPrompt) != nil {
				fail("system_prompt", "must be a string")
			} else if filePrompt != nil {
				fail("system_prompt", "is set both in agent.json and in "+promptFileName+"; keep one")
			}
		case "tags":
			if json.Unmarshal(f.Value, &b.tags) != nil || slices.Contains(b.tags, "") {
				fail("tags", "must be an array of non-empty strings")
				b.tags = nil
			}
		case "parameters_schema":
			s, err := schema.Parse(dedent(f.Value))
			if err != nil {
				errs = append(errs, schemaFieldError(f.Key, err))
			}
			b.params = s
		case "output_schema", "default_output_schema":
			s, err := schema.Parse(dedent(f.Value))
			if err == nil {
				err = checkObjectSchema(s)
			}
			if err != nil {
				errs = append(errs, schemaFieldError(f.Key, err))
				s = nil
			}
			if f.Key == "output_schema" {
				b.output = s
			} else {
				b.defaultOutput = s
			}
		case "invariants":
			is, err := parseInvariants(f.Value)
			if err != nil {
				errs = append(errs, err)
			}
			b.invariants = is
		case "contradictions":
			rs, err := parseRules(f.Value)
			if err != nil {
				errs = append(errs, err)
			}
			b.rules = rs
		case "default_output_schema_options":
			o, ferrs := parseOptions(f.Value)
			for _, fe := range ferrs {
				fe.Field = strings.TrimSuffix(f.Key+"."+fe.Field, ".")
				errs = append(errs, fe)
			}
			b.defaults = o
		}
	}
	if !hasName {
		fail("name", "is required")
	}
	if b.typ == TypeAutonomous && len(errs) == 0 {
		// Merging at load time reports a schema that cannot take the
		// required prompt (false, say) where it is written.
		m, err := schema.MergePrompt(b.params)
		if err != nil {
			reason := err.Error()
			var me *schema.MergeError
			if errors.As(err, &me) {
				reason = me.Reason
			}
			errs = append(errs, &FieldError{Field: "parameters_schema", Reason: `cannot add the required "prompt": ` + reason, Err: err})
		}
		b.merged = m
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if filePrompt != nil {
		b.systemPrompt = *filePrompt
		b.promptFile = true
	}
	b.fields = fields
	return b, nil
}

// dedent removes from every line of a nested JSON value but the first the
// indentation of its last line, so that a schema shown in a prompt starts
// at the margin as its author laid it out in the agent.json. JSON strings
// hold no raw line breaks, so only white space between tokens changes. A
// value whose lines do not all share that indentation is returned as is.
func dedent(raw json.RawMessage) json.RawMessage {
	lines := bytes.Split(raw, []byte("\n"))
	if len(lines) < 2 {
		return raw
	}
	last := lines[len(lines)-1]
	prefix := last[:len(last)-len(bytes.TrimLeft(last, " \t"))]
	if len(prefix) == 0 {
		return raw
	}
	for _, l := range lines[1:] {
		if len(bytes.TrimSpace(l)) > 0 && !bytes.HasPrefix(l, prefix) {
			return raw
		}
	}
	out := make([]byte, 0, len(raw))
	out = append(out, lines[0]...)
	for _, l := range lines[1:] {
		out = append(out, '\n')
		out = append(out, bytes.TrimPrefix(l, prefix)...)
	}
	return out
}

// checkName returns why name is not a safe identifier, or "".
func checkName(name string) string {
	if name == "" {
		return "must not be empty"
	}
	if len(name) > 64 {
		return "must be at most 64 bytes long"
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if i == 0 && !alnum {
			return fmt.Sprintf("%q must start with an ASCII letter or digit", cut(name))
		}
		if !alnum && c != '-' && c != '_' {
			return fmt.Sprintf("%q may hold only ASCII letters, digits, '-' and '_'", cut(name))
		}
	}
	return ""
}

// checkObjectSchema enforces the shape of an output schema: "type" is
// "object" (or a list holding it) and "properties" is declared (possibly
// empty). A root that is only a $ref
// is judged by the schema it names.
func checkObjectSchema(s *schema.Schema) error {
	if !slices.Contains(s.Types(), "object") || s.PropertyOrder() == nil {
		return ErrOutputNotObject
	}
	return nil
}

// Name returns the agent's name, a safe identifier.
func (b *Blueprint) Name() string { return b.name }

// Description returns the agent's description, "" when none.
func (b *Blueprint) Description() string { return b.description }

// Type returns the agent's type; a blueprint without one is autonomous.
func (b *Blueprint) Type() Type { return b.typ }

// Tags returns a copy of the agent's tags, nil when none.
func (b *Blueprint) Tags() []string { return slices.Clone(b.tags) }

// Instructions returns the system prompt as the author wrote it (from
// system_prompt, or from agent.system-prompt.md beside the agent.json), ""
// when none. [Blueprint.SystemPrompt] adds the output-format section.
func (b *Blueprint) Instructions() string { return b.systemPrompt }

// ParametersSchema returns the compiled parameters_schema as stored (not
// merged with "prompt"), nil when not configured.
func (b *Blueprint) ParametersSchema() *schema.Schema { return b.params }

// OutputSchema returns the compiled output_schema, nil when not configured.
func (b *Blueprint) OutputSchema() *schema.Schema { return b.output }

// DefaultOutputSchema returns the compiled default_output_schema, nil when
// not configured.
func (b *Blueprint) DefaultOutputSchema() *schema.Schema { return b.defaultOutput }

// DefaultOutputOptions returns default_output_schema_options; knobs the
// blueprint does not set are nil.
func (b *Blueprint) DefaultOutputOptions() OutputOptions {
	o := b.defaults
	o.MaxRetries, o.ExtractJSON, o.StrictJSONOnly = clonePtr(o.MaxRetries), clonePtr(o.ExtractJSON), clonePtr(o.StrictJSONOnly)
	return o
}

// clonePtr returns a pointer to a copy of *p, nil for nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// Path returns the file the blueprint was loaded from, "" when it came from
// [Parse].
func (b *Blueprint) Path() string { return b.path }

// Extra returns the top-level fields this package does not interpret, by
// name, as compact JSON. The map and its values are the caller's.
func (b *Blueprint) Extra() map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	for _, f := range b.fields {
		if !slices.Contains(knownFields, f.Key) {
			m[f.Key] = bytes.Clone(f.Value)
		}
	}
	return m
}

// optionNames are the fields of default_output_schema_options.
var optionNames = []string{"max_retries", "extract_json", "strict_json_only", "validation_mode"}

// An UnknownField is a top-level member of agent.json that this package
// does not interpret: kept and written back, but read by nothing.
type UnknownField struct {
	// Name is the member's name.
	Name string
	// Hint is the field the author probably meant, as the errors name
	// fields: a known field spelt alike ("system_prompt" for
	// "system_promt"), or an option written at the top level instead of
	// inside default_output_schema_options
	// ("default_output_schema_options.validation_mode"); "" when none fits.
	Hint string
}

// UnknownFields returns the top-level members of the agent.json document
// data that this package does not interpret (those [Blueprint.Extra] would
// hold), in document order, each with a hint where one fits; `agentio
// lint` warns of each. It reads data whether or not [Parse] accepts it, so
// that a linter can report them beside the errors. data that is not one
// JSON object is an error, as Parse reports it. The slice is the
// caller's.
func UnknownFields(data []byte) ([]UnknownField, error) {
	fields, err := objectFields(data)
	if err != nil {
		return nil, &FieldError{Reason: "agent.json must hold one JSON object: " + cut(objectProblem(err)), Err: err}
	}
	var out []UnknownField
	for _, f := range fields {
		if slices.Contains(knownFields, f.Key) {
			continue
		}
		u := UnknownField{Name: f.Key}
		if o := suggest.Closest(f.Key, optionNames); o != "" {
			u.Hint = "default_output_schema_options." + o
		} else {
			u.Hint = suggest.Closest(f.Key, knownFields)
		}
		out = append(out, u)
	}
	return out, nil
}

// MarshalJSON writes the blueprint back as it was loaded: every field,
// known or not, in the author's order and with the author's values
// (white space aside). A system prompt read from agent.system-prompt.md is
// written into "system_prompt", so the output stands on its own.
func (b *Blueprint) MarshalJSON() ([]byte, error) {
	fields := slices.Clone(b.fields)
	if b.promptFile {
		prompt := jsonraw.AppendString(nil, b.systemPrompt)
		i := slices.IndexFunc(fields, func(f jsonraw.Member) bool { return f.Key == "system_prompt" })
		if i < 0 {
			fields = append(fields, jsonraw.Member{Key: "system_prompt", Value: prompt})
		} else {
			fields[i].Value = prompt
		}
	}
	return jsonraw.Encode(fields), nil
}

// A Warning is a lint finding in one of a blueprint's schemas: a keyword
// the validator does not know (often a typo such as "minLenght") or one the
// schema's draft ignores. Warnings never stop a blueprint from loading.
type Warning struct {
	// Field is the blueprint field holding the schema ("output_schema").
	Field string `json:"field"`
	schema.Warning
}

// String returns "<field>: <path>: <message>".
func (w Warning) String() string { return w.Field + ": " + w.Warning.String() }

// Warnings returns the lint findings of the blueprint's schemas, field by
// field in the order parameters_schema, output_schema,
// default_output_schema; none when they are clean. The slice is the
// caller's.
func (b *Blueprint) Warnings() []Warning {
	var out []Warning
	for _, f := range []struct {
		name string
		s    *schema.Schema
	}{{"parameters_schema", b.params}, {"output_schema", b.output}, {"default_output_schema", b.defaultOutput}} {
		if f.s == nil {
			continue
		}
		for _, w := range f.s.Warnings() {
			out = append(out, Warning{Field: f.name, Warning: w})
		}
	}
	return out
}
