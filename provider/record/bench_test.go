package record_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/record"
	"github.com/agentio/agentio/schema"
)

// BenchmarkReplay1000 replays 1,000 recorded enforcement runs, one a case,
// each a streamed reply that is re-asked once (an early stop, then a valid
// answer): the store read, the replay and the whole enforcement loop, as
// an evaluation over recordings would do them, one case after another.
func BenchmarkReplay1000(b *testing.B) {
	const cases = 1000
	s, err := schema.Parse([]byte(`{
		"type": "object",
		"required": ["verdict", "summary"],
		"properties": {
			"verdict": {"enum": ["approve", "request_changes"]},
			"summary": {"type": "string"}
		}
	}`))
	require.NoError(b, err)
	dir := b.TempDir()
	ctx := context.Background()
	prompt := func(i int) enforce.Request {
		return enforce.Request{Prompt: fmt.Sprintf("Review diff number %d.", i)}
	}
	for i := range cases {
		sp := providertest.New(
			providertest.Chunked(8, `{"verdict": "reject", "summary": "a reply stopped at its first field"}`),
			providertest.Chunked(8, fmt.Sprintf(`{"verdict": "approve", "summary": "case %d is fine"}`, i)),
		)
		rec, err := record.New(sp, dir, record.Record, nil)
		require.NoError(b, err)
		_, err = enforce.Run(ctx, rec, prompt(i), s, enforce.WithPartials(func(enforce.Partial) {}))
		require.NoError(b, err)
	}
	rep, err := record.New(nil, dir, record.Replay, nil)
	require.NoError(b, err)
	for b.Loop() {
		for i := range cases {
			res, err := enforce.Run(ctx, rep, prompt(i), s, enforce.WithPartials(func(enforce.Partial) {}))
			if err != nil || len(res.Attempts) != 2 || !res.Attempts[0].StoppedEarly {
				b.Fatal("replay differs from the recording", err)
			}
		}
	}
}
