package blueprint

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/schema"
)

// ErrSchemaConflict is returned by [ResolveOutputSchema] and [Run] when a
// run gives both an inline output schema and a schema name: which one the
// caller meant cannot be guessed.
var ErrSchemaConflict = errors.New("blueprint: a run may give an inline output schema or a schema name, not both")

// A RunSpec is what a caller asks of one run's output. Its JSON form is the
// matching part of a run request:
//
//	{"output_schema": {...}, "output_schema_name": "...", "output_schema_options": {...}}
//
// The zero value asks for nothing: the blueprint decides.
type RunSpec struct {
	// Inline is the run's own output schema, nil when none. Unlike a
	// blueprint's output schema it may have any root (an array, say):
	// the caller knows what it asks for.
	Inline *schema.Schema `json:"output_schema,omitempty"`
	// Name names a schema in the registry, "" when none. Giving both
	// Inline and Name is an error ([ErrSchemaConflict]).
	Name string `json:"output_schema_name,omitempty"`
	// Options override the blueprint's default_output_schema_options,
	// knob by knob. From JSON they are read strictly: an unknown or
	// mistyped knob is an error ([OutputOptions.UnmarshalJSON]).
	Options OutputOptions `json:"output_schema_options"`
}

// Source says where a run's output schema came from.
type Source string

// The sources, from the highest priority to the lowest.
const (
	// SourceInline: the run's own schema (RunSpec.Inline).
	SourceInline Source = "inline"
	// SourceNamed: a registry schema the run named (RunSpec.Name).
	SourceNamed Source = "named"
	// SourceBlueprint: the blueprint's default_output_schema, else its
	// output_schema.
	SourceBlueprint Source = "blueprint"
	// SourceNone: no schema applies; the run produces free text.
	SourceNone Source = ""
)

// A Resolution is the outcome of [ResolveOutputSchema]: the schema a run's
// output must match, where it came from, and the options to enforce it with.
// It is plain data; the Schema it points to is immutable.
type Resolution struct {
	// Schema is the output schema; nil when none applies (Source is
	// SourceNone) and the run's result is free text.
	Schema *schema.Schema
	// Source says where Schema came from.
	Source Source
	// Name is the registry name for SourceNamed, else "".
	Name string
	// Options are the effective options: the run's over the blueprint's
	// over [DefaultOptions]. They are filled in even when Schema is nil.
	Options EffectiveOptions
	// Invariants are the blueprint's invariants, checked on every output
	// that passes Schema (see [Blueprint.Invariants]); nil for none.
	Invariants *crosscheck.Invariants
	// Inputs are what the grounding invariants (quote_in_input,
	// value_in_input, not_placeholder) hold outputs against: the rendered
	// prompt and the parameters. ResolveOutputSchema leaves them nil;
	// [Run] sets them. A step-wise caller sets them with
	// [Resolution.WithInputs] before [Resolution.Enforcer].
	Inputs *crosscheck.Grounds
}

// WithInputs returns a copy of r whose Inputs are the rendered prompt and
// the parameters it was rendered from, with r.Schema, prepared once for
// every attempt. r is not modified.
func (r *Resolution) WithInputs(prompt string, params map[string]any) *Resolution {
	c := *r
	c.Inputs = crosscheck.NewGrounds(crosscheck.Inputs{Text: prompt, Parameters: params, Schema: r.Schema})
	return &c
}

// ResolveOutputSchema chooses a run's output schema, first match wins:
//
//  1. spec.Inline, the run's own schema;
//  2. spec.Name, looked up in reg;
//  3. the blueprint's default_output_schema;
//  4. the blueprint's output_schema.
//
// When none applies the Resolution has a nil Schema and SourceNone: the run
// produces free text. Options are merged knob by knob: spec.Options over
// the blueprint's default_output_schema_options over [DefaultOptions]; the
// blueprint's options apply whichever source the schema came from.
// A nil b stands for a blueprint with no schemas and no options.
//
// Errors, returned before any model is called:
//   - both spec.Inline and spec.Name: [ErrSchemaConflict];
//   - a name reg does not hold, or a name with a nil reg: a
//     [*SchemaNotFoundError], matching [ErrSchemaNotFound] (which is
//     registry.ErrNotFound); any other registry failure is returned wrapped;
//   - a bad option value in spec.Options: a [*FieldError] whose Field is
//     "output_schema_options.<knob>".
func ResolveOutputSchema(ctx context.Context, b *Blueprint, spec RunSpec, reg registry.Registry) (*Resolution, error) {
	if spec.Inline != nil && spec.Name != "" {
		return nil, ErrSchemaConflict
	}
	if err := spec.Options.Check(); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			fe.Field = strings.TrimSuffix("output_schema_options."+fe.Field, ".")
		}
		return nil, err
	}
	opts := DefaultOptions()
	if b != nil {
		opts = b.defaults.Over(opts)
	}
	res := &Resolution{Options: spec.Options.Over(opts)}
	if b != nil {
		res.Invariants = b.invariants
	}
	switch {
	case spec.Inline != nil:
		res.Schema, res.Source = spec.Inline, SourceInline
	case spec.Name != "":
		s, err := lookup(ctx, reg, spec.Name)
		if err != nil {
			return nil, err
		}
		res.Schema, res.Source, res.Name = s, SourceNamed, spec.Name
	case b != nil && b.defaultOutput != nil:
		res.Schema, res.Source = b.defaultOutput, SourceBlueprint
	case b != nil && b.output != nil:
		res.Schema, res.Source = b.output, SourceBlueprint
	}
	return res, nil
}

// Enforcer returns an enforce.Enforcer for r's schema with r's options,
// a validator for r.Invariants, then opts: the step-wise API for an
// orchestrator that runs each attempt as its own job. It fails when r has
// no schema (enforce.ErrInvalidRequest) or when
// [EffectiveOptions.EnforceOptions] does.
//
// The validator checks the grounding invariants against r.Inputs. Without
// them (r.Inputs nil) it checks quotes against the first user message of
// the attempt's request when enforce records one (enforce.Attempt.Request),
// with no parameters: value_in_input then finds nothing to compare and
// reports nothing, and not_placeholder still reads r.Schema. With r.Inputs
// and a quote_in_input invariant, a streamed run ([enforce.WithPartials])
// also checks each quote as its string closes ([enforce.WithPartCheck]).
func (r *Resolution) Enforcer(opts ...enforce.Option) (*enforce.Enforcer, error) {
	base, err := r.Options.EnforceOptions()
	if err != nil {
		return nil, err
	}
	if is := r.Invariants; is != nil {
		g, s := r.Inputs, r.Schema
		base = append(base, enforce.WithValidator(func(_ context.Context, a enforce.Attempt, v any) []schema.Violation {
			if g == nil && is.Grounded() {
				return is.CheckGrounded(v, crosscheck.NewGrounds(crosscheck.Inputs{Text: userText(a.Request), Schema: s}))
			}
			return is.CheckGrounded(v, g)
		}))
		if g != nil && is.Quotes() {
			// A streamed run stops at a fabricated quote, as at a
			// schema violation.
			base = append(base, enforce.WithPartCheck(func(at string, v any) []schema.Violation {
				return is.CheckPart(at, v, g)
			}))
		}
	}
	return enforce.New(r.Schema, append(base, opts...)...)
}

// userText returns the text of a request's first user message: the
// prompt. Later ones are re-asks, which repeat the model's own words.
func userText(req *provider.Request) string {
	if req == nil {
		return ""
	}
	for _, m := range req.Messages {
		if m.Role == provider.RoleUser {
			return m.Content
		}
	}
	return ""
}

// lookup fetches a named schema.
func lookup(ctx context.Context, reg registry.Registry, name string) (*schema.Schema, error) {
	if reg == nil {
		return nil, &SchemaNotFoundError{Name: name, Err: ErrSchemaNotFound}
	}
	e, err := reg.Get(ctx, name)
	switch {
	case errors.Is(err, registry.ErrNotFound):
		return nil, &SchemaNotFoundError{Name: name, Err: err}
	case err != nil:
		return nil, fmt.Errorf("blueprint: output schema %q: %w", cut(name), err)
	case e == nil || e.Schema == nil:
		return nil, fmt.Errorf("blueprint: output schema %q: the registry returned no schema", cut(name))
	}
	return e.Schema, nil
}
