package langchaingoagentio_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/langchaingoagentio"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

func parse(t *testing.T, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

// The scripted run, from LangChainGo to agentio: a wrong answer, the
// re-ask with every violation, a valid answer.
func TestProviderScriptedRun(t *testing.T) {
	m := &scriptedModel{replies: []reply{text("Here:\n" + wrongReview), text(validReview)}}
	p, err := langchaingoagentio.NewProvider(m, nil)
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{System: "You review code.", Prompt: "Review the diff."}, parse(t, reviewSchema))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, enforce.OutcomeInvalid, res.Attempts[0].Outcome)
	assert.Equal(t, provider.Usage{InputTokens: 20, OutputTokens: 10, TotalTokens: 30}, res.Usage)

	calls := m.recorded()
	require.Len(t, calls, 2)
	first := calls[0].messages
	require.Len(t, first, 2)
	assert.Equal(t, llms.ChatMessageTypeSystem, first[0].Role)
	assert.Equal(t, llms.ChatMessageTypeHuman, first[1].Role)
	assert.Contains(t, first[1].Parts[0].(llms.TextContent).Text, "Review the diff.")

	// The re-ask: the bad reply as the model's turn, then every violation.
	second := calls[1].messages
	require.Len(t, second, 4)
	assert.Equal(t, llms.ChatMessageTypeAI, second[2].Role)
	assert.Contains(t, second[2].Parts[0].(llms.TextContent).Text, wrongReview)
	reask := second[3].Parts[0].(llms.TextContent).Text
	assert.Contains(t, reask, "$.severity")
	assert.Contains(t, reask, "$.summary")
}

// The framework's own double, fake.LLM, drives the same loop.
func TestProviderOverFakeLLM(t *testing.T) {
	p, err := langchaingoagentio.NewProvider(fake.NewFakeLLM([]string{wrongReview, validReview}), nil)
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, parse(t, reviewSchema))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	assert.Len(t, res.Attempts, 2)
}

// Tools, a forced tool choice, the token limit and JSON mode reach the
// model as call options; tool calls come back.
func TestProviderToolMode(t *testing.T) {
	m := &scriptedModel{replies: []reply{{choice: &llms.ContentChoice{StopReason: "tool_calls",
		ToolCalls: []llms.ToolCall{{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: enforce.ToolName, Arguments: validReview}}}}}}}
	p, err := langchaingoagentio.NewProvider(m, &langchaingoagentio.Options{Capabilities: provider.Capabilities{Tools: true, ForcedTool: true}})
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review.", MaxTokens: 300}, parse(t, reviewSchema), enforce.WithMode(enforce.ModeTool))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))

	opts := m.recorded()[0].opts
	require.Len(t, opts.Tools, 1)
	assert.Equal(t, enforce.ToolName, opts.Tools[0].Function.Name)
	params, err := json.Marshal(opts.Tools[0].Function.Parameters)
	require.NoError(t, err)
	assert.Contains(t, string(params), `"severity"`)
	assert.Equal(t, llms.ToolChoice{Type: "function", Function: &llms.FunctionReference{Name: enforce.ToolName}}, opts.ToolChoice)
	assert.Equal(t, 300, opts.MaxTokens)

	// A conversation with a tool call and its result maps both ways.
	m2 := &scriptedModel{replies: []reply{text("done")}}
	p2, err := langchaingoagentio.NewProvider(m2, nil)
	require.NoError(t, err)
	_, err = p2.Generate(context.Background(), &provider.Request{Messages: []provider.Message{
		provider.UserMessage("go"),
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "lookup", Arguments: json.RawMessage(`{"q":1}`)}}},
		{Role: provider.RoleTool, ToolCallID: "c1", Content: "42"},
	}, Output: &provider.OutputSpec{Format: provider.FormatJSONObject}})
	require.NoError(t, err)
	msgs := m2.recorded()[0].messages
	require.Len(t, msgs, 3)
	assert.Equal(t, llms.ToolCall{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "lookup", Arguments: `{"q":1}`}}, msgs[1].Parts[0])
	assert.Equal(t, llms.ToolCallResponse{ToolCallID: "c1", Content: "42"}, msgs[2].Parts[0])
	assert.True(t, m2.recorded()[0].opts.JSONMode)
}

// Each error code of LangChainGo becomes a provider error of its kind; the
// loop acts on the kind (a schema rejection falls back, auth ends the run).
func TestProviderErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		code llms.ErrorCode
		kind provider.ErrorKind
	}{
		{llms.ErrCodeRateLimit, provider.ErrRateLimited},
		{llms.ErrCodeQuotaExceeded, provider.ErrRateLimited},
		{llms.ErrCodeAuthentication, provider.ErrAuth},
		{llms.ErrCodeInvalidRequest, provider.ErrInvalidRequest},
		{llms.ErrCodeResourceNotFound, provider.ErrInvalidRequest},
		{llms.ErrCodeTokenLimit, provider.ErrInvalidRequest},
		{llms.ErrCodeProviderUnavailable, provider.ErrOverloaded},
		{llms.ErrCodeTimeout, provider.ErrOverloaded},
		{llms.ErrCodeUnknown, provider.ErrOther},
	} {
		t.Run(string(tc.code), func(t *testing.T) {
			failed := reply{err: llms.NewError(tc.code, "openai", "it failed")}
			m := &scriptedModel{replies: []reply{failed, failed}}
			p, err := langchaingoagentio.NewProvider(m, &langchaingoagentio.Options{Name: "lc"})
			require.NoError(t, err)
			_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.kind)
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "lc", pe.Provider)
			var le *llms.Error
			assert.ErrorAs(t, err, &le, "the model's error is kept")

			_, err = enforce.Run(context.Background(), p, enforce.Request{Prompt: "x"}, parse(t, reviewSchema))
			assert.ErrorIs(t, err, tc.kind, "the run ends with the provider's error")
		})
	}
	// A plain error is ErrOther; one after the context ended is the
	// context's.
	m := &scriptedModel{replies: []reply{{err: errors.New("boom")}}}
	p, err := langchaingoagentio.NewProvider(m, nil)
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{})
	assert.ErrorIs(t, err, provider.ErrOther)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m = &scriptedModel{replies: []reply{{err: errors.New("request canceled")}}}
	p, err = langchaingoagentio.NewProvider(m, nil)
	require.NoError(t, err)
	_, err = p.Generate(ctx, &provider.Request{})
	assert.ErrorIs(t, err, context.Canceled)
}

// A refusal ends the run with ErrRefused; a reply cut at the token limit
// is truncated and re-asked.
func TestProviderRefusalAndTruncation(t *testing.T) {
	for _, raw := range []string{"refusal", "content_filter", "SAFETY"} {
		m := &scriptedModel{replies: []reply{{choice: &llms.ContentChoice{Content: "I can't help with that.", StopReason: raw}}}}
		p, err := langchaingoagentio.NewProvider(m, nil)
		require.NoError(t, err)
		_, err = enforce.Run(context.Background(), p, enforce.Request{Prompt: "x"}, parse(t, reviewSchema))
		assert.ErrorIs(t, err, enforce.ErrRefused, raw)
	}

	m := &scriptedModel{replies: []reply{{choice: &llms.ContentChoice{Content: `{"severity":"high","summ`, StopReason: "length"}}, text(validReview)}}
	p, err := langchaingoagentio.NewProvider(m, nil)
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "x"}, parse(t, reviewSchema))
	require.NoError(t, err)
	assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
	assert.Equal(t, "length", res.Attempts[0].Response.RawStopReason)
}

// A stream gives partial values as the model writes; a wrong enum value
// stops it early, cancelling the model's call, and the re-ask answers.
func TestProviderStreamPartialsAndEarlyStop(t *testing.T) {
	m := &scriptedModel{replies: []reply{
		streamed(`{"severity":`, `"urgent",`, ` "summary": "a long summary that never`, ` gets read"}`),
		streamed(`{"severity":"high",`, ` "summary":"a nil dereference"}`),
	}}
	p, err := langchaingoagentio.NewProvider(m, nil)
	require.NoError(t, err)
	var partials []enforce.Partial
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, parse(t, reviewSchema),
		enforce.WithPartials(func(part enforce.Partial) { partials = append(partials, part) }))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	require.Len(t, res.Attempts, 2)
	assert.True(t, res.Attempts[0].StoppedEarly, "the wrong enum stopped the first reply")
	calls := m.recorded()
	require.Len(t, calls, 2)
	assert.ErrorIs(t, calls[0].ctxErr, context.Canceled, "the stopped call's context was cancelled")
	require.NotEmpty(t, partials)
	last := partials[len(partials)-1]
	assert.Equal(t, 2, last.Attempt)
	assert.Equal(t, "high", last.Value.(map[string]any)["severity"])
}

// A consumer that stops iterating the stream ends the call.
func TestProviderStreamConsumerStops(t *testing.T) {
	m := &scriptedModel{replies: []reply{streamed("a", "b", "c", "d")}}
	p, err := langchaingoagentio.NewProvider(m, nil)
	require.NoError(t, err)
	var got []string
	for ch, err := range p.Stream(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}}) {
		require.NoError(t, err)
		got = append(got, ch.Text)
		if len(got) == 2 {
			break
		}
	}
	assert.Equal(t, []string{"a", "b"}, got)
	calls := m.recorded()
	require.Len(t, calls, 1, "the call returned before Stream did")
	assert.ErrorIs(t, calls[0].ctxErr, context.Canceled)

	// Read to the end, the last chunk holds the whole reply.
	m = &scriptedModel{replies: []reply{streamed("a", "b")}}
	p, err = langchaingoagentio.NewProvider(m, nil)
	require.NoError(t, err)
	resp, err := provider.Collect(p.Stream(context.Background(), &provider.Request{}))
	require.NoError(t, err)
	assert.Equal(t, "ab", resp.Text)
	assert.Equal(t, provider.StopEnd, resp.StopReason)
}

func TestNewProviderOptions(t *testing.T) {
	_, err := langchaingoagentio.NewProvider(nil, nil)
	assert.ErrorIs(t, err, langchaingoagentio.ErrInvalidOption)
	_, err = langchaingoagentio.NewProvider(&scriptedModel{}, &langchaingoagentio.Options{Capabilities: provider.Capabilities{NativeSchema: true}})
	assert.ErrorIs(t, err, langchaingoagentio.ErrInvalidOption)
	m := &scriptedModel{replies: []reply{text("x")}}
	opts := &langchaingoagentio.Options{CallOptions: []llms.CallOption{llms.WithModel("m1"), llms.WithTemperature(0.2)}}
	p, err := langchaingoagentio.NewProvider(m, opts)
	require.NoError(t, err)
	opts.CallOptions[0] = llms.WithModel("changed later")
	_, err = p.Generate(context.Background(), &provider.Request{})
	require.NoError(t, err)
	assert.Equal(t, "m1", m.recorded()[0].opts.Model, "NewProvider copied the options")
	assert.InDelta(t, 0.2, m.recorded()[0].opts.Temperature, 1e-9)
	assert.Equal(t, provider.Capabilities{}, p.Capabilities(), "a text model by default")
}

// LangChainGo's googleai and vertex clients pass on Gemini's finish reason
// as genai.FinishReason.String() ("FinishReasonMaxTokens", ...): a reply
// cut at the token limit is truncated, a blocked one filtered. The cached
// part of the prompt, under the names the clients use, is counted.
func TestProviderGeminiFinishReasonsAndCachedTokens(t *testing.T) {
	for raw, want := range map[string]provider.StopReason{
		"FinishReasonStop":       provider.StopEnd,
		"FinishReasonMaxTokens":  provider.StopLength,
		"FinishReasonSafety":     provider.StopContentFilter,
		"FinishReasonRecitation": provider.StopContentFilter,
		"FinishReasonOther":      provider.StopOther,
	} {
		m := &scriptedModel{replies: []reply{{choice: &llms.ContentChoice{Content: "x", StopReason: raw}}}}
		p, err := langchaingoagentio.NewProvider(m, nil)
		require.NoError(t, err)
		resp, err := p.Generate(context.Background(), &provider.Request{})
		require.NoError(t, err)
		assert.Equal(t, want, resp.StopReason, raw)
		assert.Equal(t, raw, resp.RawStopReason)
	}
	for key, info := range map[string]map[string]any{
		"openai":    {"PromptTokens": 10, "CompletionTokens": 5, "PromptCachedTokens": 4},
		"anthropic": {"InputTokens": 10, "OutputTokens": 5, "CacheReadInputTokens": 4},
		"googleai":  {"input_tokens": int32(10), "output_tokens": int32(5), "CachedTokens": int32(4)},
	} {
		m := &scriptedModel{replies: []reply{{choice: &llms.ContentChoice{Content: "x", StopReason: "stop", GenerationInfo: info}}}}
		p, err := langchaingoagentio.NewProvider(m, nil)
		require.NoError(t, err)
		resp, err := p.Generate(context.Background(), &provider.Request{})
		require.NoError(t, err)
		assert.Equal(t, provider.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15, CachedInputTokens: 4}, resp.Usage, key)
	}
}
