package blueprint

import (
	"github.com/agentio/agentio/inputs"
)

// Prompt returns the user prompt of an autonomous run: the "prompt"
// parameter alone when there is no other parameter, else an `<inputs>`
// block with one line per other parameter, in the order of the
// parameters_schema's properties (the others after them, sorted), then the
// prompt (see package inputs for the format and its escaping).
//
// Prompt does not validate params: call [Blueprint.ValidateParameters]
// first ([Run] does). A procedural agent gives [ErrNotAutonomous]; a
// missing or non-string prompt, a bad parameter name or a value with no
// JSON form gives the inputs package's error (inputs.ErrNoPrompt,
// *inputs.KeyError, *inputs.ValueError).
func (b *Blueprint) Prompt(params map[string]any) (string, error) {
	if b.typ != TypeAutonomous {
		return "", ErrNotAutonomous
	}
	var opts []inputs.Option
	if b.params != nil {
		opts = append(opts, inputs.WithSchema(b.params))
	}
	return inputs.Format(params, opts...)
}

// SystemPrompt returns the system prompt of a run whose output schema was
// chosen by [ResolveOutputSchema]: the blueprint's [Blueprint.Instructions]
// followed by the output-format section (the schema and the demand for
// JSON alone, as the enforce package words it) when a schema applies, the
// instructions alone when r is nil or has no schema.
//
// This is the system-prompt enrichment of an orchestrator that puts the
// schema there and runs the attempts itself; [Run] leaves the placing of
// the schema to the enforcement mode. The error is [Resolution.Enforcer]'s.
func (b *Blueprint) SystemPrompt(r *Resolution) (string, error) {
	if r == nil || r.Schema == nil {
		return b.systemPrompt, nil
	}
	e, err := r.Enforcer()
	if err != nil {
		return "", err
	}
	return e.EnrichSystem(b.systemPrompt), nil
}
