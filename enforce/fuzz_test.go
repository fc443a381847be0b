package enforce_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
)

// FuzzCheckText checks that any reply is judged without a panic, that a
// valid verdict's JSON is valid against the schema and taken from the reply
// (no repair is on), and that a failed one always says why.
func FuzzCheckText(f *testing.F) {
	for _, seed := range []string{
		validReview,
		invalidReview,
		"Sure:\n```json\n" + validReview + "\n```",
		`{"findings": [], "counts": {"blocker": 0, "major": 0, "minor": 0}, "summary": "x"`,
		"[1, 2] {} {\"a\": [}",
		"<think>{\"x\": 1}</think>" + validReview,
		"",
	} {
		f.Add(seed)
	}
	s := parse(f, reviewSchema)
	e, err := enforce.New(s)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, text string) {
		v := e.CheckText(ctx, enforce.State{}, text)
		if v.OK {
			assert.Empty(t, s.Validate(v.Value))
			vs, err := s.ValidateJSON(v.JSON)
			require.NoError(t, err)
			assert.Empty(t, vs)
			assert.Contains(t, text, string(v.JSON))
			return
		}
		assert.NotEmpty(t, v.Violations)
		assert.True(t, v.Retry)
		assert.NotEmpty(t, v.Reask)
	})
}
