package blueprint

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/agentio/agentio/crosscheck"
)

// An agent.json may declare, next to its output schema, checks a schema
// cannot state (package crosscheck):
//
//	"invariants": [
//	  {"kind": "count_equals", "counts": "$.counts", "items": "$.findings[*]", "field": "severity"}
//	],
//	"contradictions": [
//	  {"name": "severity", "items": "$.findings[*]", "key": ["file", "line"], "compare": ["severity"]}
//	]
//
// invariants hold inside the agent's own output: [Run] checks them like the
// schema, and a violation is re-asked. The grounding kinds (quote_in_input,
// value_in_input, not_placeholder) hold it against the run's inputs too:
// Run gives them the rendered prompt and the parameters
// ([Resolution.WithInputs]). contradictions are the rules of a
// fan-in agent, which reads the outputs of several upstream agents:
// [Blueprint.Annotate] finds where those outputs disagree and adds that to
// the agent's input. Both are decoded strictly (an unknown or mistyped
// member is an error) and compiled at load time; a bad one is a
// [*FieldError] for "invariants" or "contradictions".

// decodeStrict decodes one JSON value into v, refusing unknown members.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one value")
	}
	return nil
}

// parseInvariants reads and compiles an agent.json's invariants.
func parseInvariants(data []byte) (*crosscheck.Invariants, error) {
	var list []crosscheck.Invariant
	if err := decodeStrict(data, &list); err != nil {
		return nil, &FieldError{Field: "invariants", Reason: "must be an array of invariants: " + cut(err.Error()), Err: err}
	}
	is, err := crosscheck.CompileInvariants(list...)
	if err != nil {
		return nil, &FieldError{Field: "invariants", Reason: cut(err.Error()), Err: err}
	}
	return is, nil
}

// parseRules reads and compiles an agent.json's contradiction rules.
func parseRules(data []byte) (*crosscheck.Rules, error) {
	var list []crosscheck.Rule
	if err := decodeStrict(data, &list); err != nil {
		return nil, &FieldError{Field: "contradictions", Reason: "must be an array of rules: " + cut(err.Error()), Err: err}
	}
	rs, err := crosscheck.Compile(list...)
	if err != nil {
		return nil, &FieldError{Field: "contradictions", Reason: cut(err.Error()), Err: err}
	}
	return rs, nil
}

// Invariants returns the invariants the agent's output must keep, or nil
// when agent.json declares none.
func (b *Blueprint) Invariants() *crosscheck.Invariants { return b.invariants }

// ContradictionRules returns the agent's rules for comparing the outputs
// of the agents it reads, or nil when agent.json declares none.
func (b *Blueprint) ContradictionRules() *crosscheck.Rules { return b.rules }

// Annotate returns params with the contradictions between outputs (the
// outputs of the agents this one reads) added under "contradictions", found
// by the blueprint's rules, and those contradictions. With no rules the
// list is empty. params is not modified. It never fails: disagreement is
// information for the agent, not a reason to stop.
func (b *Blueprint) Annotate(params map[string]any, outputs ...crosscheck.Output) (map[string]any, []crosscheck.Contradiction) {
	var cs []crosscheck.Contradiction
	if b != nil {
		cs = b.rules.Contradictions(outputs...)
	}
	return crosscheck.Annotate(params, cs), cs
}
