package batch_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

var ctx = context.Background()

const labelSchema = `{
	"type": "object",
	"required": ["label", "score"],
	"properties": {
		"label": {"enum": ["spam", "ham"]},
		"score": {"type": "integer", "minimum": 0, "maximum": 10}
	}
}`

func newEnforcer(t testing.TB, opts ...enforce.Option) *enforce.Enforcer {
	t.Helper()
	s, err := schema.Parse([]byte(labelSchema))
	require.NoError(t, err)
	e, err := enforce.New(s, opts...)
	require.NoError(t, err)
	return e
}

func items(n int) []batch.Item {
	out := make([]batch.Item, n)
	for i := range out {
		out[i] = batch.Item{ID: fmt.Sprintf("m%d", i), Request: enforce.Request{Prompt: fmt.Sprintf("Label message %d.", i)}}
	}
	return out
}

const (
	valid   = `{"label": "ham", "score": 3}`
	invalid = `{"label": "eggs", "score": 3}`
)

// collect runs r over its to the end and returns the outcomes by ID and
// the error that stopped it.
func collect(t testing.TB, r *batch.Runner, its []batch.Item) (map[string]batch.Settled, error) {
	t.Helper()
	out := map[string]batch.Settled{}
	for s, err := range r.Run(ctx, its) {
		if err != nil {
			return out, err
		}
		out[s.ID] = s
	}
	return out, nil
}

func newRunner(t testing.TB, b provider.Batcher, st batch.Store, opts ...batch.Option) *batch.Runner {
	t.Helper()
	r, err := batch.New(b, st, append([]batch.Option{batch.WithPollInterval(0)}, opts...)...)
	require.NoError(t, err)
	return r
}

// reasks returns a script in which item m<i> answers invalidly
// fails(i) times, then validly.
func reasks(fails func(i int) int) providertest.Script {
	return func(item string, n int) providertest.Reply {
		var i int
		fmt.Sscanf(item, "m%d", &i)
		if n < fails(i) {
			return providertest.Text(invalid)
		}
		return providertest.Text(valid)
	}
}

var errCrash = errors.New("crash")
