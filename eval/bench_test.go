package eval_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/record"
)

// BenchmarkReplayAndScore1000 runs 1,000 cases from recordings and scores
// them (#28: under 10 s on the 2-core test machine): half of the cases
// are answered wrong first and re-asked, so 1,500 calls are replayed, each
// case validated, compared with its expected value and aggregated.
func BenchmarkReplayAndScore1000(b *testing.B) {
	const n = 1000
	cases := make([]eval.Case, n)
	for i := range cases {
		cases[i] = eval.Case{
			ID:       fmt.Sprint("c", i),
			Schema:   []byte(`{"type": "object", "properties": {"total": {"type": "integer"}}, "required": ["total"]}`),
			Prompt:   fmt.Sprintf("Case %d: add %d and 1.", i, i),
			Expected: []byte(fmt.Sprintf(`{"total": %d}`, i+1)),
		}
	}
	// The model: right at once for odd cases, a string first for even ones.
	model := provider.Func(func(_ context.Context, req *provider.Request) (*provider.Response, error) {
		var i int
		first := req.Messages[0].Content
		if _, err := fmt.Sscanf(first[strings.Index(first, "Case "):], "Case %d:", &i); err != nil {
			return nil, err
		}
		if i%2 == 0 && len(req.Messages) == 1 {
			return &provider.Response{Text: fmt.Sprintf(`{"total": "%d"}`, i+1)}, nil
		}
		return &provider.Response{Text: fmt.Sprintf(`{"total": %d}`, i+1)}, nil
	})
	dir := b.TempDir()
	ctx := context.Background()
	rec, err := record.New(model, dir, record.Record, &record.Options{Model: "m"})
	require.NoError(b, err)
	want, err := eval.Run(ctx, cases, []eval.Target{{Name: "m", Provider: rec}})
	require.NoError(b, err)
	require.Equal(b, n, want.Targets[0].Valid)
	rep, err := record.New(nil, dir, record.Replay, &record.Options{Model: "m"})
	require.NoError(b, err)
	for b.Loop() {
		got, err := eval.Run(ctx, cases, []eval.Target{{Name: "m", Provider: rep}})
		if err != nil || got.Targets[0].Valid != n || got.Targets[0].ValidFirst != n/2 || got.Targets[0].AgreementRate != 1 {
			b.Fatalf("the replay scores differently: %v %+v", err, got.Targets[0])
		}
	}
}
