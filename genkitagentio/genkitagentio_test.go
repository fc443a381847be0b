package genkitagentio_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/core"
	"github.com/firebase/genkit/go/genkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/genkitagentio"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

const reviewSchema = `{"type":"object","required":["severity","summary"],"additionalProperties":false,
	"properties":{"severity":{"enum":["low","high"]},"summary":{"type":"string","minLength":3}}}`

const (
	wrongReview = `{"severity":"urgent","summary":"no"}`
	validReview = `{"severity":"high","summary":"a nil dereference"}`
)

type review struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
}

func parse(t *testing.T, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

// A scripted reply of the test model: its response, or its error, and,
// when chunks is set, the text it streams first.
type reply struct {
	resp   *ai.ModelResponse
	err    error
	chunks []string
}

func text(s string) reply {
	return reply{resp: &ai.ModelResponse{Message: ai.NewModelTextMessage(s), FinishReason: ai.FinishReasonStop,
		Usage: &ai.GenerationUsage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}}}
}

func streamed(chunks ...string) reply {
	r := text(strings.Join(chunks, ""))
	r.chunks = chunks
	return r
}

// script is a Genkit model function answering from a script and recording
// each request; streamed, it sends each chunk to the callback and stops at
// the first error it returns, as Genkit's plugins do.
type script struct {
	mu       sync.Mutex
	replies  []reply
	requests []*ai.ModelRequest
	stopped  []bool // per call: the callback refused a chunk
}

func (s *script) fn(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.stopped = append(s.stopped, false)
	i := len(s.requests) - 1
	if len(s.replies) == 0 {
		s.mu.Unlock()
		return nil, core.NewError(core.INTERNAL, "no scripted reply left")
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	s.mu.Unlock()
	if cb != nil {
		for _, c := range r.chunks {
			if err := cb(ctx, &ai.ModelResponseChunk{Role: ai.RoleModel, Content: []*ai.Part{ai.NewTextPart(c)}}); err != nil {
				s.mu.Lock()
				s.stopped[i] = true
				s.mu.Unlock()
				return nil, err
			}
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return r.resp, nil
}

func (s *script) recorded() []*ai.ModelRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*ai.ModelRequest(nil), s.requests...)
}

func textOf(m *ai.Message) string { return m.Text() }

// supports is what the test models support.
var supports = &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, SystemRole: true, Tools: true, ToolChoice: true, Constrained: ai.ConstrainedSupportAll}}

// The scripted run, from Genkit to agentio: a wrong answer, the re-ask
// with every violation, a valid answer.
func TestProviderScriptedRun(t *testing.T) {
	sc := &script{replies: []reply{text("Here:\n" + wrongReview), text(validReview)}}
	p, err := genkitagentio.NewProvider(ai.NewModel("test/scripted", supports, sc.fn), nil)
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{System: "You review code.", Prompt: "Review the diff."}, parse(t, reviewSchema))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, provider.Usage{InputTokens: 20, OutputTokens: 10, TotalTokens: 30}, res.Usage)

	reqs := sc.recorded()
	require.Len(t, reqs, 2)
	assert.Equal(t, ai.RoleSystem, reqs[0].Messages[0].Role)
	assert.Contains(t, textOf(reqs[0].Messages[1]), "Review the diff.")
	second := reqs[1].Messages
	require.Len(t, second, 4)
	assert.Equal(t, ai.RoleModel, second[2].Role)
	assert.Contains(t, textOf(second[3]), "$.severity")
	assert.Contains(t, textOf(second[3]), "$.summary")
}

// Native mode: the output schema reaches the model as Genkit's
// constrained output; tools and a forced tool as Genkit's tool choice.
func TestProviderNativeAndTools(t *testing.T) {
	sc := &script{replies: []reply{text(validReview)}}
	p, err := genkitagentio.NewProvider(ai.NewModel("test/native", supports, sc.fn), &genkitagentio.Options{Capabilities: provider.Capabilities{NativeSchema: true}})
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review.", MaxTokens: 100}, parse(t, reviewSchema), enforce.WithMode(enforce.ModeNative))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	out := sc.recorded()[0].Output
	require.NotNil(t, out)
	assert.True(t, out.Constrained)
	assert.Equal(t, "json", out.Format)
	assert.Contains(t, out.Schema["properties"], "severity")
	assert.Equal(t, &ai.GenerationCommonConfig{MaxOutputTokens: 100}, sc.recorded()[0].Config)

	call := &ai.ModelResponse{FinishReason: ai.FinishReasonStop, Message: ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{Ref: "c1", Name: enforce.ToolName, Input: map[string]any{"severity": "high", "summary": "a nil dereference"}}))}
	sc = &script{replies: []reply{{resp: call}}}
	p, err = genkitagentio.NewProvider(ai.NewModel("test/tools", supports, sc.fn), &genkitagentio.Options{Capabilities: provider.Capabilities{Tools: true, ForcedTool: true}})
	require.NoError(t, err)
	res, err = enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, parse(t, reviewSchema), enforce.WithMode(enforce.ModeTool))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	req := sc.recorded()[0]
	require.Len(t, req.Tools, 1)
	assert.Equal(t, enforce.ToolName, req.Tools[0].Name)
	assert.Equal(t, ai.ToolChoiceRequired, req.ToolChoice)
}

// Genkit's status codes become provider error kinds; a blocked reply is a
// refusal; a reply cut at the limit is truncated and re-asked.
func TestProviderErrorsRefusalTruncation(t *testing.T) {
	for _, tc := range []struct {
		status core.StatusName
		kind   provider.ErrorKind
	}{
		{core.RESOURCE_EXHAUSTED, provider.ErrRateLimited},
		{core.UNAUTHENTICATED, provider.ErrAuth},
		{core.PERMISSION_DENIED, provider.ErrAuth},
		{core.INVALID_ARGUMENT, provider.ErrInvalidRequest},
		{core.UNAVAILABLE, provider.ErrOverloaded},
		{core.INTERNAL, provider.ErrOverloaded},
		{core.UNKNOWN, provider.ErrOther},
	} {
		sc := &script{replies: []reply{{err: core.NewError(tc.status, "it failed")}}}
		p, err := genkitagentio.NewProvider(ai.NewModel("test/err", supports, sc.fn), nil)
		require.NoError(t, err)
		_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
		assert.ErrorIs(t, err, tc.kind, string(tc.status))
		var pe *provider.Error
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, "test/err", pe.Provider)
	}

	blocked := &ai.ModelResponse{FinishReason: ai.FinishReasonBlocked, FinishMessage: "blocked by safety settings", Message: ai.NewModelTextMessage("")}
	sc := &script{replies: []reply{{resp: blocked}}}
	p, err := genkitagentio.NewProvider(ai.NewModel("test/blocked", supports, sc.fn), nil)
	require.NoError(t, err)
	_, err = enforce.Run(context.Background(), p, enforce.Request{Prompt: "x"}, parse(t, reviewSchema))
	assert.ErrorIs(t, err, enforce.ErrRefused)

	cut := &ai.ModelResponse{FinishReason: ai.FinishReasonLength, Message: ai.NewModelTextMessage(`{"severity":"high","summ`)}
	sc = &script{replies: []reply{{resp: cut}, text(validReview)}}
	p, err = genkitagentio.NewProvider(ai.NewModel("test/cut", supports, sc.fn), nil)
	require.NoError(t, err)
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "x"}, parse(t, reviewSchema))
	require.NoError(t, err)
	assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
}

// A stream gives partials; a wrong enum stops it early, the model's call
// ending through its callback's error, and the re-ask answers.
func TestProviderStreamEarlyStop(t *testing.T) {
	sc := &script{replies: []reply{streamed(`{"severity":`, `"urgent",`, ` "summary": "never`, ` read"}`), streamed(`{"severity":"high",`, ` "summary":"a nil dereference"}`)}}
	p, err := genkitagentio.NewProvider(ai.NewModel("test/stream", supports, sc.fn), nil)
	require.NoError(t, err)
	var partials int
	res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, parse(t, reviewSchema),
		enforce.WithPartials(func(enforce.Partial) { partials++ }))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))
	assert.True(t, res.Attempts[0].StoppedEarly)
	assert.Positive(t, partials)
	sc.mu.Lock()
	assert.True(t, sc.stopped[0], "the first call was stopped through its callback")
	sc.mu.Unlock()
}

// The scripted run, from agentio into Genkit: the middleware re-asks
// inside one genkit.Generate call and Genkit hands back the typed value.
func TestMiddlewareInGenerate(t *testing.T) {
	ctx := context.Background()
	g := genkit.Init(ctx)
	sc := &script{replies: []reply{text("Sure:\n" + wrongReview), text("```json\n" + validReview + "\n```")}}
	text := &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, SystemRole: true}} // no constrained output
	m := genkit.DefineModel(g, "test/reviewer", text, sc.fn)
	var outcomes []enforce.Outcome
	got, resp, err := genkitagentio.GenerateData[review](ctx, g, &genkitagentio.MiddlewareOptions{Schema: parse(t, reviewSchema), Enforce: []enforce.Option{
		enforce.WithAttemptHook(func(_ context.Context, a enforce.Attempt) { outcomes = append(outcomes, a.Outcome) })}},
		ai.WithModel(m), ai.WithPrompt("Review the diff."))
	require.NoError(t, err)
	assert.Equal(t, &review{Severity: "high", Summary: "a nil dereference"}, got)
	assert.Equal(t, []enforce.Outcome{enforce.OutcomeInvalid, enforce.OutcomeValid}, outcomes)
	assert.Equal(t, 30, resp.Usage.TotalTokens, "both attempts counted")
	reqs := sc.recorded()
	require.Len(t, reqs, 2)
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	assert.Contains(t, textOf(last), "$.severity")
	assert.Contains(t, textOf(last), "$.summary")
}

// A model that constrains its output gets the schema in its request: the
// middleware takes it from there.
func TestMiddlewareSchemaFromRequest(t *testing.T) {
	ctx := context.Background()
	g := genkit.Init(ctx)
	sc := &script{replies: []reply{text(wrongReview), text(validReview)}}
	m := genkit.DefineModel(g, "test/constrained", supports, sc.fn)
	var contract map[string]any
	require.NoError(t, json.Unmarshal([]byte(reviewSchema), &contract))
	resp, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("Review."), ai.WithOutputSchema(contract), ai.WithMiddleware(genkitagentio.Middleware(nil)))
	require.NoError(t, err)
	var got review
	require.NoError(t, resp.Output(&got))
	assert.Equal(t, review{Severity: "high", Summary: "a nil dereference"}, got)
	reqs := sc.recorded()
	require.Len(t, reqs, 2, "the wrong reply was re-asked")
	assert.True(t, reqs[0].Output.Constrained)
}

// A fixed schema, lenient mode and a validator; spent re-asks return
// enforce's typed error.
func TestMiddlewareOptions(t *testing.T) {
	ctx := context.Background()
	g := genkit.Init(ctx)
	s := parse(t, reviewSchema)

	// Lenient: "High" is coerced to "high" without a re-ask.
	sc := &script{replies: []reply{text(`{"severity":"High","summary":"a nil dereference"}`)}}
	m := genkit.DefineModel(g, "test/lenient", supports, sc.fn)
	resp, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("Review."),
		ai.WithMiddleware(genkitagentio.Middleware(&genkitagentio.MiddlewareOptions{Schema: s, Enforce: []enforce.Option{enforce.WithLenient()}})))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, resp.Text())
	assert.Len(t, sc.recorded(), 1)

	// A validator's violation is re-asked like the schema's.
	sc = &script{replies: []reply{text(`{"severity":"low","summary":"a nil dereference"}`), text(validReview)}}
	m = genkit.DefineModel(g, "test/validator", supports, sc.fn)
	highOnly := enforce.WithValidator(func(_ context.Context, _ enforce.Attempt, v any) []schema.Violation {
		if v.(map[string]any)["severity"] != "high" {
			return []schema.Violation{{Path: "$.severity", Message: "a nil dereference is high"}}
		}
		return nil
	})
	resp, err = genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("Review."),
		ai.WithMiddleware(genkitagentio.Middleware(&genkitagentio.MiddlewareOptions{Schema: s, Enforce: []enforce.Option{highOnly}})))
	require.NoError(t, err)
	assert.JSONEq(t, validReview, resp.Text())
	assert.Contains(t, textOf(sc.recorded()[1].Messages[len(sc.recorded()[1].Messages)-1]), "a nil dereference is high")

	// Spent re-asks.
	sc = &script{replies: []reply{text(wrongReview), text(wrongReview)}}
	m = genkit.DefineModel(g, "test/wrong", supports, sc.fn)
	_, err = genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("Review."),
		ai.WithMiddleware(genkitagentio.Middleware(&genkitagentio.MiddlewareOptions{Schema: s, Enforce: []enforce.Option{enforce.WithMaxRetries(1)}})))
	var ve *enforce.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, 1, ve.Retries)

	// A call without an output schema passes through; bad options fail.
	sc = &script{replies: []reply{text("just text")}}
	m = genkit.DefineModel(g, "test/plain", supports, sc.fn)
	resp, err = genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("Hi."), ai.WithMiddleware(genkitagentio.Middleware(nil)))
	require.NoError(t, err)
	assert.Equal(t, "just text", resp.Text())
	_, err = genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("Hi."),
		ai.WithMiddleware(genkitagentio.Middleware(&genkitagentio.MiddlewareOptions{Schema: s, Enforce: []enforce.Option{enforce.WithMaxRetries(-1)}})))
	assert.ErrorIs(t, err, genkitagentio.ErrInvalidOption)
	_, err = genkitagentio.NewProvider(nil, nil)
	assert.ErrorIs(t, err, genkitagentio.ErrInvalidOption)
}

// Streamed through the middleware, every attempt's chunks reach Genkit's
// stream callback, and the typed value is the valid one.
func TestMiddlewareStreams(t *testing.T) {
	ctx := context.Background()
	g := genkit.Init(ctx)
	sc := &script{replies: []reply{streamed(wrongReview[:10], wrongReview[10:]), streamed(validReview[:12], validReview[12:])}}
	m := genkit.DefineModel(g, "test/streamer", supports, sc.fn)
	var chunks []string
	got, _, err := genkitagentio.GenerateData[review](ctx, g, &genkitagentio.MiddlewareOptions{Schema: parse(t, reviewSchema)}, ai.WithModel(m), ai.WithPrompt("Review."),
		ai.WithStreaming(func(_ context.Context, c *ai.ModelResponseChunk) error {
			chunks = append(chunks, c.Text())
			return nil
		}))
	require.NoError(t, err)
	assert.Equal(t, &review{Severity: "high", Summary: "a nil dereference"}, got)
	assert.Equal(t, []string{wrongReview[:10], wrongReview[10:], validReview[:12], validReview[12:]}, chunks)
}

// A request's MaxTokens reaches a common config given in Options, whose
// own copy stays as it was; a config of another type is sent as given.
func TestProviderMaxTokensWithConfig(t *testing.T) {
	cfg := &ai.GenerationCommonConfig{Temperature: 0.2}
	sc := &script{replies: []reply{text("ok"), text("ok")}}
	p, err := genkitagentio.NewProvider(ai.NewModel("test/config", supports, sc.fn), &genkitagentio.Options{Config: cfg})
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, MaxTokens: 64})
	require.NoError(t, err)
	assert.Equal(t, &ai.GenerationCommonConfig{Temperature: 0.2, MaxOutputTokens: 64}, sc.recorded()[0].Config)
	assert.Zero(t, cfg.MaxOutputTokens, "the Options' config is not changed")

	own := map[string]any{"maxTokens": 10}
	p, err = genkitagentio.NewProvider(ai.NewModel("test/config2", supports, sc.fn), &genkitagentio.Options{Config: own})
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, MaxTokens: 64})
	require.NoError(t, err)
	assert.Equal(t, own, sc.recorded()[1].Config)
}
