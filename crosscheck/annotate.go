package crosscheck

import (
	"encoding/json"
	"maps"
)

// AnnotationKey is the member [Annotate] adds to a downstream agent's
// input.
const AnnotationKey = "contradictions"

// ContradictionsSchema is the JSON Schema of the array [Annotate] adds
// under [AnnotationKey], for a downstream agent's parameters_schema.
const ContradictionsSchema = `{
  "type": "array",
  "description": "Disagreements between the upstream agents' outputs: resolve each, do not pick one side silently.",
  "items": {
    "type": "object",
    "required": ["rule", "kind", "key", "claims"],
    "properties": {
      "rule": {"type": "string", "description": "the rule that found it"},
      "kind": {"enum": ["conflict", "near", "missing"]},
      "key": {"type": "object", "description": "what the outputs speak of, field by field"},
      "field": {"type": "string", "description": "the field they disagree on"},
      "claims": {
        "type": "array",
        "items": {
          "type": "object",
          "required": ["output", "path"],
          "properties": {
            "output": {"type": "string"},
            "path": {"type": "string"},
            "value": {}
          }
        }
      },
      "missing": {"type": "array", "items": {"type": "string"}, "description": "outputs that do not raise the key"}
    }
  }
}`

// Annotate returns a copy of input with the contradictions added under
// [AnnotationKey] as plain JSON data (an empty array when there are none),
// so that the downstream agent's prompt shows them. It never fails and
// never blocks a run: a contradiction is information, not an error. input
// is not modified; a nil input gives a map holding only the annotation.
func Annotate(input map[string]any, cs []Contradiction) map[string]any {
	out := maps.Clone(input)
	if out == nil {
		out = map[string]any{}
	}
	list := []any{}
	if data, err := json.Marshal(cs); err == nil && len(cs) > 0 {
		var decoded []any
		if json.Unmarshal(data, &decoded) == nil {
			list = decoded
		}
	}
	out[AnnotationKey] = list
	return out
}
