package einoagentio_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/einoagentio"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
)

// The scripted run, from Eino to agentio: a wrong answer, the re-ask with
// every violation, a valid answer.
func TestProviderScriptedRun(t *testing.T) {
	m := newModel(text("Here:\n"+wrongReview), text(validReview))
	p, err := einoagentio.NewProvider(m, nil)
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{System: "You review code.", Prompt: "Review the diff."}, parse(t, reviewSchema))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, provider.Usage{InputTokens: 20, OutputTokens: 10, TotalTokens: 30}, res.Usage)

	calls := m.recorded()
	require.Len(t, calls, 2)
	assert.Equal(t, schema.System, calls[0].input[0].Role)
	assert.Contains(t, calls[0].input[1].Content, "Review the diff.")
	second := calls[1].input
	require.Len(t, second, 4)
	assert.Equal(t, schema.Assistant, second[2].Role)
	assert.Contains(t, second[3].Content, "$.severity")
	assert.Contains(t, second[3].Content, "$.summary")
}

// Tools are bound per call (the model itself keeps none), the tool choice
// is forced, and the tool call comes back.
func TestProviderToolMode(t *testing.T) {
	call := &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "c1", Type: "function",
		Function: schema.FunctionCall{Name: enforce.ToolName, Arguments: validReview}}}, ResponseMeta: &schema.ResponseMeta{FinishReason: "tool_calls"}}
	m := newModel(reply{msg: call})
	p, err := einoagentio.NewProvider(m, &einoagentio.Options{Capabilities: provider.Capabilities{Tools: true, ForcedTool: true}})
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review.", MaxTokens: 200}, parse(t, reviewSchema), enforce.WithMode(enforce.ModeTool))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	c := m.recorded()[0]
	require.Len(t, c.tools, 1, "bound through WithTools")
	assert.Equal(t, enforce.ToolName, c.tools[0].Name)
	params, err := c.tools[0].ParamsOneOf.ToJSONSchema()
	require.NoError(t, err)
	js, err := json.Marshal(params)
	require.NoError(t, err)
	assert.Contains(t, string(js), `"severity"`)
	require.NotNil(t, c.opts.ToolChoice)
	assert.Equal(t, schema.ToolChoiceForced, *c.opts.ToolChoice)
	assert.Equal(t, []string{enforce.ToolName}, c.opts.AllowedToolNames)
	assert.Equal(t, 200, *c.opts.MaxTokens)
	assert.Nil(t, m.tools, "the model's own tools are untouched")
}

// Errors keep their kind; Classify maps a client's errors; a refusal ends
// the run, a reply cut at the limit is truncated and re-asked.
func TestProviderErrorsRefusalTruncation(t *testing.T) {
	for _, kind := range []provider.ErrorKind{provider.ErrRateLimited, provider.ErrAuth, provider.ErrInvalidRequest, provider.ErrOverloaded, provider.ErrSchemaRejected} {
		m := newModel(reply{err: &provider.Error{Kind: kind, Message: "from the client"}})
		p, err := einoagentio.NewProvider(m, nil)
		require.NoError(t, err)
		_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
		assert.ErrorIs(t, err, kind)
	}
	errLimit := errors.New("429 too many requests")
	m := newModel(reply{err: errLimit}, reply{err: errors.New("boom")})
	p, err := einoagentio.NewProvider(m, &einoagentio.Options{Name: "e", Classify: func(err error) provider.ErrorKind {
		if errors.Is(err, errLimit) {
			return provider.ErrRateLimited
		}
		return ""
	}})
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{})
	assert.ErrorIs(t, err, provider.ErrRateLimited)
	assert.ErrorIs(t, err, errLimit, "the client's error is kept")
	_, err = p.Generate(context.Background(), &provider.Request{})
	assert.ErrorIs(t, err, provider.ErrOther)

	for _, reason := range []string{"refusal", "content_filter"} {
		msg := schema.AssistantMessage("I can't help with that.", nil)
		msg.ResponseMeta = &schema.ResponseMeta{FinishReason: reason}
		p, err := einoagentio.NewProvider(newModel(reply{msg: msg}), nil)
		require.NoError(t, err)
		_, err = enforce.Run(context.Background(), p, enforce.Request{Prompt: "x"}, parse(t, reviewSchema))
		assert.ErrorIs(t, err, enforce.ErrRefused, reason)
	}
	cut := schema.AssistantMessage(`{"severity":"high","summ`, nil)
	cut.ResponseMeta = &schema.ResponseMeta{FinishReason: "length"}
	p, err = einoagentio.NewProvider(newModel(reply{msg: cut}, text(validReview)), nil)
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "x"}, parse(t, reviewSchema))
	require.NoError(t, err)
	assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
}

// A stream gives partials; a wrong enum value stops it early (the model's
// stream is closed) and the re-ask answers.
func TestProviderStreamEarlyStop(t *testing.T) {
	m := newModel(streamed(`{"severity":`, `"urgent",`, ` "summary": "never`, ` read"}`), streamed(`{"severity":"high",`, ` "summary":"a nil dereference"}`))
	p, err := einoagentio.NewProvider(m, nil)
	require.NoError(t, err)
	var partials []enforce.Partial
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, parse(t, reviewSchema),
		enforce.WithPartials(func(part enforce.Partial) { partials = append(partials, part) }))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	assert.True(t, res.Attempts[0].StoppedEarly)
	require.NotEmpty(t, partials)
	assert.Eventually(t, func() bool { return m.recorded()[0].closed }, timeout, tick, "the stopped stream was closed")

	// Read to its end, the stream's last chunk is the whole reply.
	p, err = einoagentio.NewProvider(newModel(streamed("a", "b")), nil)
	require.NoError(t, err)
	resp, err := provider.Collect(p.Stream(context.Background(), &provider.Request{}))
	require.NoError(t, err)
	assert.Equal(t, "ab", resp.Text)
	assert.Equal(t, provider.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}, resp.Usage)
}

// The scripted run, from agentio into Eino: the ChatModel answers only
// with valid output, and a graph's callbacks see each attempt.
func TestChatModelInGraph(t *testing.T) {
	m := newModel(text(wrongReview), text(validReview))
	cm, err := einoagentio.NewChatModel(m, parse(t, reviewSchema), nil)
	require.NoError(t, err)
	chain, err := compose.NewChain[[]*schema.Message, *schema.Message]().AppendChatModel(cm).Compile(context.Background())
	require.NoError(t, err)
	var attempts atomic.Int32
	handler := callbacks.NewHandlerBuilder().OnStartFn(func(ctx context.Context, info *callbacks.RunInfo, _ callbacks.CallbackInput) context.Context {
		if info.Component == components.ComponentOfChatModel && info.Type == "agentio" {
			attempts.Add(1)
		}
		return ctx
	}).Build()
	msg, err := chain.Invoke(context.Background(), []*schema.Message{schema.SystemMessage("You review code."), schema.UserMessage("Review the diff.")}, compose.WithCallbacks(handler))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, msg.Content)
	assert.Equal(t, int32(2), attempts.Load(), "the callbacks saw both attempts")
	assert.Equal(t, 30, msg.ResponseMeta.Usage.TotalTokens)

	// Spent re-asks: enforce's typed error, no message.
	m = newModel(text(wrongReview), text(wrongReview))
	cm, err = einoagentio.NewChatModel(m, parse(t, reviewSchema), &einoagentio.ChatModelOptions{Enforce: []enforce.Option{enforce.WithMaxRetries(1)}})
	require.NoError(t, err)
	_, err = cm.Generate(context.Background(), []*schema.Message{schema.UserMessage("Review.")})
	var ve *enforce.ValidationError
	require.ErrorAs(t, err, &ve)

	// Streamed: the one message is the valid output.
	m = newModel(streamed(`{"severity":"low",`, `"summary":"fine here"}`))
	cm, err = einoagentio.NewChatModel(m, parse(t, reviewSchema), nil)
	require.NoError(t, err)
	sr, err := cm.Stream(context.Background(), []*schema.Message{schema.UserMessage("Review.")})
	require.NoError(t, err)
	msgs := drain(t, sr)
	require.Len(t, msgs, 1)
	assert.JSONEq(t, `{"severity":"low","summary":"fine here"}`, msgs[0].Content)

	_, err = cm.Generate(context.Background(), []*schema.Message{schema.SystemMessage("only a system prompt")})
	assert.ErrorIs(t, err, einoagentio.ErrInvalidOption)
}

// The node streams partial values, then the valid output, which is last.
func TestNodeStreamsPartials(t *testing.T) {
	m := newModel(streamed(`{"severity":`, `"urgent",`, ` "summary": "x"}`), streamed(`{"severity":"high",`, ` "summary":"a nil dereference"}`))
	node, err := einoagentio.NewNode(m, parse(t, reviewSchema), nil)
	require.NoError(t, err)
	chain, err := compose.NewChain[[]*schema.Message, einoagentio.Output]().AppendLambda(node).Compile(context.Background())
	require.NoError(t, err)
	sr, err := chain.Stream(context.Background(), []*schema.Message{schema.UserMessage("Review.")})
	require.NoError(t, err)
	outs := drain(t, sr)
	require.GreaterOrEqual(t, len(outs), 2)
	last := outs[len(outs)-1]
	assert.False(t, last.Partial)
	assert.JSONEq(t, validReview, string(last.JSON))
	assert.Equal(t, 2, last.Attempt)
	for _, o := range outs[:len(outs)-1] {
		assert.True(t, o.Partial)
	}
	got, err := einoagentio.LastOutput(outs)
	require.NoError(t, err)
	assert.Equal(t, last, got)

	m = newModel(text(validReview))
	node, err = einoagentio.NewNode(m, parse(t, reviewSchema), nil)
	require.NoError(t, err)
	chain, err = compose.NewChain[[]*schema.Message, einoagentio.Output]().AppendLambda(node).Compile(context.Background())
	require.NoError(t, err)
	out, err := chain.Invoke(context.Background(), []*schema.Message{schema.UserMessage("Review.")})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"severity": "high", "summary": "a nil dereference"}, out.Value)
	require.NotNil(t, out.Result)

	_, err = einoagentio.NewNode(m, nil, nil)
	assert.ErrorIs(t, err, einoagentio.ErrInvalidOption)
	_, err = einoagentio.NewProvider(nil, nil)
	assert.ErrorIs(t, err, einoagentio.ErrInvalidOption)
}

// A streamed node whose reader is closed early stops its run: the model's
// stream is closed, and no re-ask follows.
func TestNodeStreamReaderClosedEarly(t *testing.T) {
	chunks := []string{`{"items":[`}
	for i := range 50 {
		chunks = append(chunks, fmt.Sprintf("%d,", i))
	}
	chunks = append(chunks, `50]}`)
	m := newModel(streamed(chunks...), text(`{"items":[]}`))
	s := parse(t, `{"type":"object","required":["items"],"properties":{"items":{"type":"array","items":{"type":"integer"}}}}`)
	node, err := einoagentio.NewNode(m, s, nil)
	require.NoError(t, err)
	chain, err := compose.NewChain[[]*schema.Message, einoagentio.Output]().AppendLambda(node).Compile(context.Background())
	require.NoError(t, err)
	sr, err := chain.Stream(context.Background(), []*schema.Message{schema.UserMessage("Count.")})
	require.NoError(t, err)
	out, err := sr.Recv()
	require.NoError(t, err)
	require.True(t, out.Partial)
	sr.Close()
	require.Eventually(t, func() bool {
		calls := m.recorded()
		return len(calls) == 1 && calls[0].closed
	}, timeout, tick, "closing the node's reader closes the model's stream")
}

// A context cancelled mid-stream ends the Provider's stream with the
// context's error and closes the model's stream, though the model's
// sender does not watch the context.
func TestProviderStreamContextCancelled(t *testing.T) {
	m := newModel(streamed("a", "b", "c", "d"))
	p, err := einoagentio.NewProvider(m, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []string
	var last error
	for ch, err := range p.Stream(ctx, &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}}) {
		if err != nil {
			last = err
			break
		}
		got = append(got, ch.Text)
		cancel()
	}
	assert.Equal(t, []string{"a"}, got)
	assert.ErrorIs(t, last, context.Canceled)
	require.Eventually(t, func() bool { return m.recorded()[0].closed }, timeout, tick)
}

// wholeCallsModel streams two whole tool calls, one per chunk, without an
// Index, as Eino reads a call that is not sent in pieces.
type wholeCallsModel struct{}

func (wholeCallsModel) Generate(context.Context, []*schema.Message, ...model.Option) (*schema.Message, error) {
	return nil, errors.New("stream only")
}

func (wholeCallsModel) Stream(context.Context, []*schema.Message, ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	call := func(id, name, args string) *schema.Message {
		return schema.AssistantMessage("", []schema.ToolCall{{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}})
	}
	return schema.StreamReaderFromArray([]*schema.Message{call("c1", "lookup", `{"q":"a"}`), call("c2", "submit_result", `{"severity":"high"}`)}), nil
}

// Tool calls streamed whole, without an Index, are two calls in the
// stream's pieces as in its Response, not one call's pieces joined.
func TestProviderStreamWholeToolCalls(t *testing.T) {
	p, err := einoagentio.NewProvider(wholeCallsModel{}, nil)
	require.NoError(t, err)
	var col provider.Collector
	var indices []int
	for ch, err := range p.Stream(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}}) {
		require.NoError(t, err)
		if ch.ToolCall != nil {
			indices = append(indices, ch.ToolCall.Index)
			col.Add(provider.Chunk{ToolCall: ch.ToolCall})
		}
	}
	assert.Equal(t, []int{0, 1}, indices)
	resp := col.Response()
	require.Len(t, resp.ToolCalls, 2)
	assert.Equal(t, "submit_result", resp.ToolCalls[1].Name)
	assert.JSONEq(t, `{"severity":"high"}`, string(resp.ToolCalls[1].Arguments))
}

// Finish reasons in the words Eino's models pass on, Gemini's included.
func TestProviderFinishReasons(t *testing.T) {
	for raw, want := range map[string]provider.StopReason{
		"stop": provider.StopEnd, "STOP": provider.StopEnd, "FinishReasonStop": provider.StopEnd,
		"length": provider.StopLength, "MAX_TOKENS": provider.StopLength, "FinishReasonMaxTokens": provider.StopLength,
		"content_filter": provider.StopContentFilter, "SAFETY": provider.StopContentFilter, "PROHIBITED_CONTENT": provider.StopContentFilter,
		"BLOCKLIST": provider.StopContentFilter, "RECITATION": provider.StopContentFilter, "FinishReasonSafety": provider.StopContentFilter,
		"something new": provider.StopOther,
	} {
		msg := schema.AssistantMessage("x", nil)
		msg.ResponseMeta = &schema.ResponseMeta{FinishReason: raw}
		p, err := einoagentio.NewProvider(newModel(reply{msg: msg}), nil)
		require.NoError(t, err)
		resp, err := p.Generate(context.Background(), &provider.Request{})
		require.NoError(t, err)
		assert.Equal(t, want, resp.StopReason, raw)
	}
}

// A stream its reader stops is ended for the callbacks too.
func TestProviderStreamStopTellsCallbacks(t *testing.T) {
	var starts, errs atomic.Int32
	handler := callbacks.NewHandlerBuilder().OnStartFn(func(ctx context.Context, _ *callbacks.RunInfo, _ callbacks.CallbackInput) context.Context {
		starts.Add(1)
		return ctx
	}).OnErrorFn(func(ctx context.Context, _ *callbacks.RunInfo, _ error) context.Context {
		errs.Add(1)
		return ctx
	}).Build()
	ctx := callbacks.InitCallbacks(context.Background(), &callbacks.RunInfo{Name: "test"}, handler)
	p, err := einoagentio.NewProvider(newModel(streamed("a", "b", "c")), nil)
	require.NoError(t, err)
	for range p.Stream(ctx, &provider.Request{}) {
		break
	}
	assert.Equal(t, int32(1), starts.Load())
	assert.Equal(t, int32(1), errs.Load(), "the stopped call ended with an error for the callbacks")
}
