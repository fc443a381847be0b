package enforce_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/provider"
)

// A reply that is one JSON value is judged once and not searched again
// when extraction could only find it whole: its verdict is the one
// extraction gives the same value inside prose, and where extraction would
// find more (objects inside an array, for an object schema) it still does.
func TestWholeReplyAsExtracted(t *testing.T) {
	object := `{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`
	array := `{"type":"array","items":{"type":"integer"}}`
	for _, tc := range []struct {
		name, schema, reply string
		opts                []enforce.Option
		outcome             enforce.Outcome
		json                string
	}{
		{"object, invalid", object, `{"a":5}`, nil, enforce.OutcomeInvalid, `{"a":5}`},
		{"object, invalid, lenient", object, `{"a":[5,6]}`, []enforce.Option{enforce.WithLenient()}, enforce.OutcomeInvalid, `{"a":[5,6]}`},
		{"object, invalid, repair", object, `{"a":5}`, []enforce.Option{enforce.WithRepair()}, enforce.OutcomeInvalid, `{"a":5}`},
		{"object in an array", object, `[{"a":"x"},5]`, nil, enforce.OutcomeValid, `{"a":"x"}`},
		{"object in an array, lenient", object, `[{"a":"x"},5]`, []enforce.Option{enforce.WithLenient()}, enforce.OutcomeValid, `{"a":"x"}`},
		{"array, invalid", array, `[1,"b"]`, nil, enforce.OutcomeInvalid, `[1,"b"]`},
		{"array of an object", array, `{"x":[1,2]}`, nil, enforce.OutcomeInvalid, `{"x":[1,2]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := enforce.New(parse(t, tc.schema), tc.opts...)
			require.NoError(t, err)
			whole := e.Check(context.Background(), enforce.State{}, &provider.Response{Text: "\n " + tc.reply + " \n", StopReason: provider.StopEnd})
			assert.Equal(t, tc.outcome, whole.Outcome)
			assert.JSONEq(t, tc.json, string(whole.Attempt.JSON))
			if tc.outcome == enforce.OutcomeInvalid {
				assert.Equal(t, extract.SourceWhole, whole.Attempt.Source)
			}
			prose := e.Check(context.Background(), enforce.State{}, &provider.Response{Text: "Here it is:\n" + tc.reply, StopReason: provider.StopEnd})
			assert.Equal(t, prose.Outcome, whole.Outcome)
			assert.Equal(t, prose.Violations, whole.Violations)
			assert.Equal(t, string(prose.Attempt.JSON), string(whole.Attempt.JSON))
		})
	}
}
