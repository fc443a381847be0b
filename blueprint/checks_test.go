package blueprint_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/provider/providertest"
)

const writerAgent = `{
  "name": "review-writer",
  "output_schema": {
    "type": "object",
    "required": ["summary", "counts", "findings"],
    "properties": {
      "summary": {"type": "string"},
      "counts": {"type": "object", "properties": {"blocker": {"type": "integer"}, "minor": {"type": "integer"}}},
      "findings": {"type": "array", "items": {"type": "object", "properties": {"severity": {"enum": ["blocker", "minor"]}}}}
    }
  },
  "invariants": [{"kind": "count_equals", "counts": "$.counts", "items": "$.findings[*]", "field": "severity"}],
  "contradictions": [{"name": "severity", "items": "$.findings[*]", "key": ["file", "line"], "compare": ["severity"]}]
}`

func TestBlueprintInvariantsReasked(t *testing.T) {
	bp, err := blueprint.Parse([]byte(writerAgent))
	require.NoError(t, err)
	require.NotNil(t, bp.Invariants())
	p := providertest.New(
		providertest.Text(`{"summary":"s","counts":{"blocker":2,"minor":0},"findings":[{"severity":"blocker"}]}`),
		providertest.Text(`{"summary":"s","counts":{"blocker":1,"minor":0},"findings":[{"severity":"blocker"}]}`),
	)
	r, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Write."}, blueprint.RunSpec{})
	require.NoError(t, err)
	attempts := r.Enforcement().Attempts
	require.Len(t, attempts, 2)
	require.Len(t, attempts[0].Violations, 1)
	assert.Equal(t, "$.counts.blocker", attempts[0].Violations[0].Path)
	reask := p.Requests()[1].Messages
	assert.Contains(t, reask[len(reask)-1].Content, "says 2 'blocker' items, but $.findings[*] holds 1")
}

func TestBlueprintAnnotate(t *testing.T) {
	bp, err := blueprint.Parse([]byte(writerAgent))
	require.NoError(t, err)
	in := map[string]any{"prompt": "Write the review."}
	out, cs := bp.Annotate(in,
		crosscheck.Output{Name: "security", Value: map[string]any{"findings": []any{map[string]any{"file": "a.go", "line": 3.0, "severity": "blocker"}}}},
		crosscheck.Output{Name: "style", Value: map[string]any{"findings": []any{map[string]any{"file": "a.go", "line": 3.0, "severity": "minor"}}}},
	)
	require.Len(t, cs, 1)
	assert.Equal(t, "severity", cs[0].Rule)
	assert.Len(t, out["contradictions"], 1)
	assert.NotContains(t, in, "contradictions")

	plain, err := blueprint.Parse([]byte(`{"name":"x"}`))
	require.NoError(t, err)
	out, cs = plain.Annotate(in)
	assert.Empty(t, cs)
	assert.Equal(t, []any{}, out["contradictions"])
}

func TestBlueprintBadChecks(t *testing.T) {
	tests := []struct {
		name, doc, field, reason string
	}{
		{"unknown invariant member", `{"name":"x","invariants":[{"kind":"unique_by","items":"$.a[*]","key":["id"],"keys":["x"]}]}`, "invariants", "unknown field"},
		{"unknown kind", `{"name":"x","invariants":[{"kind":"count"}]}`, "invariants", `kind: "count"`},
		{"not an array", `{"name":"x","invariants":{"kind":"unique_by"}}`, "invariants", "must be an array"},
		{"bad path", `{"name":"x","contradictions":[{"items":"findings","key":["a"],"compare":["b"]}]}`, "contradictions", "not a path"},
		{"mistyped member", `{"name":"x","contradictions":[{"items":"$.f[*]","key":"a","compare":["b"]}]}`, "contradictions", "must be an array of rules"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := blueprint.Parse([]byte(tt.doc))
			var fe *blueprint.FieldError
			require.True(t, errors.As(err, &fe), "%v", err)
			assert.Equal(t, tt.field, fe.Field)
			assert.Contains(t, fe.Reason, tt.reason)
		})
	}
}
