package enforce_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// stream runs enforce.Run with WithPartials and returns the partials it
// gave, in order, with Run's outcome.
func stream(ctx context.Context, p provider.Provider, req enforce.Request, s *schema.Schema, opts ...enforce.Option) ([]enforce.Partial, *enforce.Result, error) {
	var parts []enforce.Partial
	opts = append(opts, enforce.WithPartials(func(part enforce.Partial) { parts = append(parts, part) }))
	res, err := enforce.Run(ctx, p, req, s, opts...)
	return parts, res, err
}

// streamedReplies are replies that Run accepts, in the shapes models write.
var streamedReplies = []string{
	validReview,
	"Here is the review:\n```json\n" + validReview + "\n```\nDone.",
	"<think>count the {blockers} first</think>\n" + validReview,
	"```json\n{\"findings\": [], \"counts\": {\"blocker\": 0, \"major\": 0, \"minor\": 0}, \"summary\": \"clean \\u2713 \\\"ok\\\"\"}\n```",
}

// TestStreamSplitsAgreeWithRun streams each reply split at every byte
// position and in pieces of 1 to 5 bytes: the result is Run's.
func TestStreamSplitsAgreeWithRun(t *testing.T) {
	s := parse(t, reviewSchema)
	for _, text := range streamedReplies {
		want, err := enforce.Run(ctx, providertest.New(providertest.Text(text)), enforce.Request{Prompt: "Review."}, s)
		require.NoError(t, err)
		var scripts [][]providertest.Reply
		for cut := 1; cut < len(text); cut++ {
			scripts = append(scripts, []providertest.Reply{providertest.Pieces(text[:cut], text[cut:])})
		}
		for size := 1; size <= 5; size++ {
			scripts = append(scripts, []providertest.Reply{providertest.Chunked(size, text)})
		}
		for i, script := range scripts {
			p := providertest.New(script...)
			partials, res, err := stream(ctx, p, enforce.Request{Prompt: "Review."}, s)
			require.NoError(t, err, "script %d of %q", i, text)
			require.Equal(t, string(want.JSON), string(res.JSON), "script %d", i)
			assert.Len(t, res.Attempts, 1)
			for _, part := range partials {
				assert.Equal(t, 1, part.Attempt)
				assert.Equal(t, "$", part.Open[0])
			}
		}
	}
}

func TestStreamPartials(t *testing.T) {
	s := parse(t, reviewSchema)
	p := providertest.New(providertest.Pieces(
		`{"findings": [{"severity": "blocker", "fi`,
		`le": "a.go", "line": 3}], "counts": {"blocker": 1, `,
		`"major": 0, "minor": 0}, "summary": "one`,
		` blocker"}`,
	))
	parts, res, err := stream(ctx, p, enforce.Request{Prompt: "Review."}, s)
	var got []string
	var open [][]string
	for _, part := range parts {
		got = append(got, string(part.JSON))
		open = append(open, part.Open)
	}
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	require.Len(t, got, 3, "one partial per chunk that completes a part, none for the last")
	assert.JSONEq(t, `{"findings": [{"severity": "blocker"}]}`, got[0])
	assert.Equal(t, []string{"$", "$.findings", "$.findings[0]"}, open[0])
	assert.JSONEq(t, `{"findings": [{"severity": "blocker", "file": "a.go", "line": 3}], "counts": {"blocker": 1}}`, got[1])
	assert.Equal(t, []string{"$", "$.counts"}, open[1])
	assert.JSONEq(t, `{"findings": [{"severity": "blocker", "file": "a.go", "line": 3}], "counts": {"blocker": 1, "major": 0, "minor": 0}}`, got[2])
	assert.Equal(t, []string{"$"}, open[2])
}

// TestStreamStopsEarly streams a reply whose third part is already wrong:
// the stream is stopped right after it, the attempt counts, and the re-ask
// names the fault.
func TestStreamStopsEarly(t *testing.T) {
	s := parse(t, reviewSchema)
	bad := `{"findings": [{"severity": "critical", "file": "a.go", "line": 3}], "counts": {"blocker": 1, "major": 0, "minor": 0}, "summary": "x"}`
	p := providertest.New(providertest.Chunked(8, bad), providertest.Chunked(8, validReview))
	parts, res, err := stream(ctx, p, enforce.Request{Prompt: "Review."}, s)
	attempts := map[int]bool{}
	for _, part := range parts {
		attempts[part.Attempt] = true
	}
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	require.Len(t, res.Attempts, 2)
	first := res.Attempts[0]
	assert.Equal(t, enforce.OutcomeInvalid, first.Outcome)
	assert.True(t, first.StoppedEarly)
	assert.Equal(t, violations("$.findings[0].severity", "'critical' is not one of ['blocker', 'major', 'minor']"), stripViolations(first.Violations))

	streamed := p.Streamed()
	require.Len(t, streamed, 2)
	wantChunks := (len(`{"findings": [{"severity": "critical"`) + 7) / 8
	assert.Equal(t, wantChunks, streamed[0], "the chunks up to the end of the wrong value")
	assert.Less(t, streamed[0], (len(bad)+7)/8, "stopped before the end")
	assert.Equal(t, (len(validReview)+7)/8+1, streamed[1], "the second reply is read to its end")

	reask := lastContent(p.Requests()[1])
	assert.Contains(t, reask, "$.findings[0].severity: 'critical' is not one of")
	assert.Contains(t, reask, `{"findings": [{"severity": "critical"`)
	assert.True(t, attempts[2])
}

// stripViolations keeps the path and message of each violation.
func stripViolations(vs []schema.Violation) []schema.Violation {
	out := make([]schema.Violation, len(vs))
	for i, v := range vs {
		out[i] = violation(v.Path, v.Message)
	}
	return out
}

func TestStreamStopsEarlyOnlyForTheAnswer(t *testing.T) {
	s := parse(t, reviewSchema)
	// An example in prose before the answer is wrong, but it is not the
	// answer: the stream goes on, and the answer is valid.
	text := `For example {"findings": [{"severity": "critical"}]} is wrong; here is mine: ` + validReview
	p := providertest.New(providertest.Chunked(4, text))
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithPartials(func(enforce.Partial) {}))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	assert.False(t, res.Attempts[0].StoppedEarly)
}

func TestStreamLenientDoesNotStopEarly(t *testing.T) {
	s := parse(t, reviewSchema)
	near := strings.Replace(validReview, `"line":3`, `"line":"3"`, 1)
	p := providertest.New(providertest.Chunked(4, near))
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithLenient(), enforce.WithPartials(func(enforce.Partial) {}))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	assert.NotEmpty(t, res.Coercions)
}

func TestStreamTruncation(t *testing.T) {
	s := parse(t, reviewSchema)
	cut := validReview[:40]
	for _, tc := range []struct {
		name  string
		reply providertest.Reply
	}{
		{"token limit", providertest.Reply{Text: cut, StopReason: provider.StopLength, ChunkSize: 7}},
		{"stream cut off", providertest.Reply{Text: cut, ChunkSize: 7, CutOff: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := providertest.New(tc.reply)
			res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithMaxRetries(0), enforce.WithPartials(func(enforce.Partial) {}))
			require.ErrorIs(t, err, enforce.ErrTruncated)
			require.Len(t, res.Attempts, 1)
			assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
		})
	}
}

func TestStreamToolMode(t *testing.T) {
	s := parse(t, reviewSchema)
	bad := `{"findings": [{"severity": "blocker", "file": "a.go", "line": 0}], "counts": {"blocker": 1, "major": 0, "minor": 0}, "summary": "x"}`
	sp := providertest.New(
		providertest.Reply{ToolCalls: []provider.ToolCall{{Name: enforce.ToolName, Arguments: []byte(bad)}}, ChunkSize: 5},
		providertest.Reply{ToolCalls: []provider.ToolCall{{Name: enforce.ToolName, Arguments: []byte(validReview)}}, ChunkSize: 5},
	)
	p := provider.WithCapabilities(sp, provider.Capabilities{Tools: true, ForcedTool: true})
	_, isStreamer := p.(provider.Streamer)
	require.True(t, isStreamer, "WithCapabilities keeps a Streamer a Streamer")
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithPartials(func(enforce.Partial) {}))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, enforce.ModeTool, res.Attempts[0].Mode)
	assert.True(t, res.Attempts[0].StoppedEarly)
	assert.Equal(t, "$.findings[0].line", res.Attempts[0].Violations[0].Path)
	// The re-ask answers the stopped call.
	retry := sp.Requests()[1]
	last := retry.Messages[len(retry.Messages)-1]
	assert.Equal(t, provider.RoleTool, last.Role)
	assert.Equal(t, "call_1", last.ToolCallID)
	assert.Contains(t, last.Content, "$.findings[0].line")
}

func TestStreamToolModeWrappedRoot(t *testing.T) {
	s := parse(t, `{"type": "array", "items": {"enum": ["a", "b"]}}`)
	sp := providertest.New(
		providertest.Reply{ToolCalls: []provider.ToolCall{{Name: enforce.ToolName, Arguments: []byte(`{"result": ["a", "z", "b"]}`)}}, ChunkSize: 3},
		providertest.Reply{ToolCalls: []provider.ToolCall{{Name: enforce.ToolName, Arguments: []byte(`{"result": ["a", "b"]}`)}}, ChunkSize: 3},
	)
	p := provider.WithCapabilities(sp, provider.Capabilities{Tools: true, ForcedTool: true})
	parts, res, err := stream(ctx, p, enforce.Request{Prompt: "Letters."}, s)
	require.NotEmpty(t, parts)
	last := parts[len(parts)-1]
	require.NoError(t, err)
	assert.JSONEq(t, `["a", "b"]`, string(res.JSON))
	require.Len(t, res.Attempts, 2)
	assert.True(t, res.Attempts[0].StoppedEarly)
	assert.Equal(t, "$[1]", res.Attempts[0].Violations[0].Path)
	assert.Contains(t, lastContent(sp.Requests()[1]), "$.result[1]", "the re-ask uses the paths the model wrote")
	assert.Equal(t, 2, last.Attempt)
	assert.JSONEq(t, `["a", "b"]`, string(last.JSON), "partials are of the unwrapped value")
	assert.Equal(t, []string{"$"}, last.Open)
}

func TestStreamNativeStrictDialectDoesNotStopEarly(t *testing.T) {
	s := parse(t, reviewSchema)
	bad := strings.Replace(validReview, `"blocker","file"`, `"critical","file"`, 1)
	sp := providertest.New(providertest.Chunked(6, bad), providertest.Chunked(6, validReview))
	p := provider.WithCapabilities(sp, provider.Capabilities{NativeSchema: true, StrictSchema: true, Dialect: "openai"})
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithPartials(func(enforce.Partial) {}))
	require.NoError(t, err)
	require.Len(t, res.Attempts, 2)
	assert.False(t, res.Attempts[0].StoppedEarly, "OpenAI's strict dialect rewrites values: parts are checked only whole")
	assert.Equal(t, enforce.OutcomeInvalid, res.Attempts[0].Outcome)
}

func TestStreamWithoutStreamer(t *testing.T) {
	s := parse(t, reviewSchema)
	sp := providertest.New(providertest.Text(validReview))
	p := provider.Func(sp.Generate) // not a Streamer
	parts, res, err := stream(ctx, p, enforce.Request{Prompt: "Review."}, s)
	require.NoError(t, err)
	assert.Empty(t, parts)
	assert.JSONEq(t, validReview, string(res.JSON))
}

// TestStreamStoppedByCaller stops a run from its partials function, by
// cancelling the run's context: the reply is abandoned at once.
func TestStreamStoppedByCaller(t *testing.T) {
	s := parse(t, reviewSchema)
	p := providertest.New(providertest.Chunked(5, validReview))
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := 0
	res, err := enforce.Run(cctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithPartials(func(enforce.Partial) {
		n++
		cancel()
	}))
	require.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, res)
	assert.Equal(t, 1, n)
	assert.Less(t, p.Streamed()[0], (len(validReview)+4)/5+1)
}

func TestStreamProviderErrors(t *testing.T) {
	s := parse(t, reviewSchema)
	boom := &provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429}
	p := providertest.New(providertest.Reply{Chunks: []string{`{"findings": [`}, Err: boom})
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithPartials(func(enforce.Partial) {}))
	require.ErrorIs(t, err, provider.ErrRateLimited)
	require.NotNil(t, res)
	assert.Equal(t, enforce.OutcomeProviderError, res.Attempts[0].Outcome)

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = enforce.Run(cctx, providertest.New(providertest.Text(validReview)), enforce.Request{Prompt: "Review."}, s, enforce.WithPartials(func(enforce.Partial) {}))
	require.ErrorIs(t, err, context.Canceled)

	_, err = enforce.Run(ctx, nil, enforce.Request{Prompt: "Review."}, s, enforce.WithPartials(func(enforce.Partial) {}))
	require.ErrorIs(t, err, enforce.ErrInvalidRequest)
	_, err = enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithMaxRetries(-1), enforce.WithPartials(func(enforce.Partial) {}))
	require.ErrorIs(t, err, enforce.ErrInvalidOption)
}

func TestStreamRefusal(t *testing.T) {
	s := parse(t, reviewSchema)
	p := providertest.New(providertest.Refused("I can't review that."))
	_, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithPartials(func(enforce.Partial) {}))
	require.ErrorIs(t, err, enforce.ErrRefused)
}

func TestTypedStream(t *testing.T) {
	text := validReview
	p := providertest.New(providertest.Chunked(10, text))
	var seen []int
	v, res, err := enforce.Typed[review](ctx, p, enforce.Request{Prompt: "Review."},
		enforce.WithTypedPartials(func(r review, _ enforce.Partial) { seen = append(seen, len(r.Findings)) }))
	require.NoError(t, err)
	require.NotNil(t, res)
	assert.Equal(t, "one blocker", v.Summary)
	assert.Equal(t, 3, v.Findings[0].Line)
	require.NotEmpty(t, seen)
	assert.Equal(t, 1, seen[len(seen)-1])

	_, err = enforce.New(parse(t, reviewSchema), enforce.WithTypedPartials[review](nil))
	assert.ErrorIs(t, err, enforce.ErrInvalidOption)
	_, err = enforce.New(parse(t, reviewSchema), enforce.WithPartials(nil))
	assert.ErrorIs(t, err, enforce.ErrInvalidOption)
}

func TestStreamErrorsAreTyped(t *testing.T) {
	s := parse(t, reviewSchema)
	p := providertest.New(providertest.Chunked(9, invalidReview))
	_, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithMaxRetries(0), enforce.WithPartials(func(enforce.Partial) {}))
	var ve *enforce.ValidationError
	require.True(t, errors.As(err, &ve))
	assert.Equal(t, 0, ve.Retries)
	require.Len(t, ve.Attempts, 1)
	assert.True(t, ve.Attempts[0].StoppedEarly)
}

// TestStreamPartCheck: a part check stops the stream at the part it
// refuses, like a schema violation found early; the re-ask carries its
// violation.
func TestStreamPartCheck(t *testing.T) {
	s := parse(t, reviewSchema)
	bad := strings.Replace(validReview, `"a.go"`, `"forbidden.go"`, 1)
	p := providertest.New(providertest.Chunked(8, bad), providertest.Chunked(8, validReview))
	var seen []string
	check := func(at string, v any) []schema.Violation {
		seen = append(seen, at)
		if v == "forbidden.go" {
			return []schema.Violation{{Path: at, Message: "that file is not in the diff"}}
		}
		return nil
	}
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s,
		enforce.WithPartials(func(enforce.Partial) {}), enforce.WithPartCheck(check))
	require.NoError(t, err)
	require.Len(t, res.Attempts, 2)
	assert.True(t, res.Attempts[0].StoppedEarly)
	assert.Equal(t, violations("$.findings[0].file", "that file is not in the diff"), stripViolations(res.Attempts[0].Violations))
	assert.Contains(t, seen, "$.findings[0].severity", "every part that completes is shown to the check")
	assert.Contains(t, lastContent(p.Requests()[1]), "that file is not in the diff")

	_, err = enforce.New(s, enforce.WithPartCheck(nil))
	assert.ErrorIs(t, err, enforce.ErrInvalidOption)
}
