package otelagentio_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/otelagentio"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

const reviewSchema = `{"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}`

// harness is an Instrumentation recording into memory.
type harness struct {
	in      *otelagentio.Instrumentation
	spans   *tracetest.InMemoryExporter
	metrics *sdkmetric.ManualReader
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	spans := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	in, err := otelagentio.New(&otelagentio.Options{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)),
		MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)),
		ProviderName:   "openai",
		Model:          "gpt-test",
	})
	require.NoError(t, err)
	return &harness{in: in, spans: spans, metrics: reader}
}

func (h *harness) run(t *testing.T, p provider.Provider, opts ...enforce.Option) (*enforce.Result, error) {
	t.Helper()
	s, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	return h.in.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, s, opts...)
}

// attrs returns a span's attributes as a map.
func attrs(s tracetest.SpanStub) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes {
		m[kv.Key] = kv.Value
	}
	return m
}

// split returns the run span and the call spans, checking that the calls
// are children of the run.
func split(t *testing.T, spans tracetest.SpanStubs) (tracetest.SpanStub, []tracetest.SpanStub) {
	t.Helper()
	var run tracetest.SpanStub
	var calls []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == "enforce" {
			run = s
		} else {
			calls = append(calls, s)
		}
	}
	require.Equal(t, "enforce", run.Name)
	for _, c := range calls {
		assert.Equal(t, run.SpanContext.SpanID(), c.Parent.SpanID(), "%s is a child of the run", c.Name)
		assert.Equal(t, trace.SpanKindClient, c.SpanKind)
	}
	return run, calls
}

func TestRunValidFirstTime(t *testing.T) {
	h := newHarness(t)
	p := providertest.New(providertest.Reply{Text: `{"verdict": "approve"}`, Usage: provider.Usage{InputTokens: 40, OutputTokens: 6}, Model: "gpt-test-2026"})
	_, err := h.run(t, p)
	require.NoError(t, err)

	run, calls := split(t, h.spans.GetSpans())
	require.Len(t, calls, 1)
	ra := attrs(run)
	assert.Equal(t, "valid", ra["agentio.outcome"].AsString())
	assert.Equal(t, int64(1), ra["agentio.attempts"].AsInt64())
	assert.Equal(t, "prompt", ra["agentio.mode"].AsString())
	assert.Equal(t, int64(40), ra["gen_ai.usage.input_tokens"].AsInt64())
	assert.Equal(t, codes.Unset, run.Status.Code)

	c := calls[0]
	assert.Equal(t, "chat gpt-test", c.Name)
	ca := attrs(c)
	assert.Equal(t, "chat", ca["gen_ai.operation.name"].AsString())
	assert.Equal(t, "openai", ca["gen_ai.provider.name"].AsString())
	assert.Equal(t, "gpt-test", ca["gen_ai.request.model"].AsString())
	assert.Equal(t, "gpt-test-2026", ca["gen_ai.response.model"].AsString())
	assert.Equal(t, []string{"end"}, ca["gen_ai.response.finish_reasons"].AsStringSlice())
	assert.Equal(t, int64(6), ca["gen_ai.usage.output_tokens"].AsInt64())
	assert.Equal(t, "json", ca["gen_ai.output.type"].AsString())
	assert.Equal(t, int64(1), ca["agentio.attempt.number"].AsInt64())
	assert.Equal(t, "valid", ca["agentio.attempt.outcome"].AsString())
	assert.Equal(t, int64(0), ca["agentio.attempt.violations"].AsInt64())
	assert.NotContains(t, ca, attribute.Key("agentio.reask.bytes"))

	rm := h.collect(t)
	tokens := histogram[int64](t, rm, "gen_ai.client.token.usage")
	assert.Equal(t, map[string]int64{"input": 40, "output": 6}, sumsBy(tokens, "gen_ai.token.type"))
	assert.Equal(t, map[string]int64{"gpt-test-2026": 46}, sumsBy(tokens, "gen_ai.response.model"))
	runs := counter(t, rm, "agentio.enforce.runs")
	assert.Equal(t, map[string]int64{"valid": 1}, runs)
	attempts := histogram[int64](t, rm, "agentio.enforce.attempts")
	require.Len(t, attempts.DataPoints, 1)
	assert.Equal(t, int64(1), attempts.DataPoints[0].Sum)
	dur := histogram[float64](t, rm, "gen_ai.client.operation.duration")
	require.Len(t, dur.DataPoints, 1)
	assert.Equal(t, uint64(1), dur.DataPoints[0].Count)
	assert.Len(t, histogram[float64](t, rm, "agentio.enforce.duration").DataPoints, 1)
}

func TestRunReaskedOnce(t *testing.T) {
	h := newHarness(t)
	p := providertest.New(providertest.Text(`{"verdict": "maybe"}`), providertest.Text(`{"verdict": "reject"}`))
	res, err := h.run(t, p)
	require.NoError(t, err)
	run, calls := split(t, h.spans.GetSpans())
	require.Len(t, calls, 2)
	first, second := attrs(calls[0]), attrs(calls[1])
	assert.Equal(t, "invalid", first["agentio.attempt.outcome"].AsString())
	assert.Equal(t, int64(1), first["agentio.attempt.violations"].AsInt64())
	assert.Equal(t, codes.Error, calls[0].Status.Code)
	assert.Equal(t, int64(2), second["agentio.attempt.number"].AsInt64())
	reask := p.Requests()[1].Messages
	assert.Equal(t, int64(len(reask[len(reask)-1].Content)), second["agentio.reask.bytes"].AsInt64())
	assert.Equal(t, codes.Unset, calls[1].Status.Code)
	assert.Equal(t, int64(2), attrs(run)["agentio.attempts"].AsInt64())
	assert.Len(t, res.Attempts, 2)

	rm := h.collect(t)
	attempts := histogram[int64](t, rm, "agentio.enforce.attempts")
	assert.Equal(t, int64(2), attempts.DataPoints[0].Sum)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			assert.NotEqual(t, "gen_ai.client.token.usage", m.Name, "no tokens recorded for replies without usage")
		}
	}
}

func TestRunInvalidAfterRetries(t *testing.T) {
	h := newHarness(t)
	p := providertest.New(providertest.Text(`{"verdict": "maybe"}`), providertest.Text(`no`))
	_, err := h.run(t, p, enforce.WithMaxRetries(1))
	var ve *enforce.ValidationError
	require.ErrorAs(t, err, &ve)
	run, calls := split(t, h.spans.GetSpans())
	assert.Equal(t, codes.Error, run.Status.Code)
	assert.Equal(t, "invalid", attrs(run)["agentio.outcome"].AsString())
	assert.Equal(t, "no_json", attrs(calls[1])["agentio.attempt.outcome"].AsString())
	assert.Equal(t, map[string]int64{"invalid": 1}, counter(t, h.collect(t), "agentio.enforce.runs"))
}

func TestRunProviderError(t *testing.T) {
	h := newHarness(t)
	p := providertest.New(providertest.Failed(&provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429}))
	_, err := h.run(t, p)
	require.ErrorIs(t, err, provider.ErrRateLimited)
	run, calls := split(t, h.spans.GetSpans())
	require.Len(t, calls, 1)
	ca := attrs(calls[0])
	assert.Equal(t, "rate_limited", ca["error.type"].AsString())
	assert.Equal(t, "provider_error", ca["agentio.attempt.outcome"].AsString())
	assert.Equal(t, codes.Error, calls[0].Status.Code)
	assert.Equal(t, "error", attrs(run)["agentio.outcome"].AsString())

	rm := h.collect(t)
	dur := histogram[float64](t, rm, "gen_ai.client.operation.duration")
	require.Len(t, dur.DataPoints, 1)
	v, ok := dur.DataPoints[0].Attributes.Value("error.type")
	require.True(t, ok)
	assert.Equal(t, "rate_limited", v.AsString())
}

func TestStreamIsTraced(t *testing.T) {
	h := newHarness(t)
	p := providertest.New(providertest.Chunked(4, `{"verdict": "later"}`), providertest.Chunked(4, `{"verdict": "approve"}`))
	s, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	wrapped := h.in.Provider(p)
	_, ok := wrapped.(provider.Streamer)
	require.True(t, ok, "a Streamer stays a Streamer")
	ctx, end := h.in.Start(context.Background())
	res, err := enforce.Run(ctx, wrapped, enforce.Request{Prompt: "Review."}, s, append(h.in.Options(), enforce.WithPartials(func(enforce.Partial) {}))...)
	end(res, err)
	require.NoError(t, err)
	_, calls := split(t, h.spans.GetSpans())
	require.Len(t, calls, 2)
	assert.True(t, attrs(calls[0])["agentio.attempt.stopped_early"].AsBool())
	assert.Equal(t, "valid", attrs(calls[1])["agentio.attempt.outcome"].AsString())
}

func TestOutsideARun(t *testing.T) {
	h := newHarness(t)
	p := h.in.Provider(providertest.New(providertest.Text("{}")))
	_, err := p.Generate(context.Background(), &provider.Request{MaxTokens: 50})
	require.NoError(t, err)
	spans := h.spans.GetSpans()
	require.Len(t, spans, 1, "the call's span ends by itself")
	assert.Equal(t, int64(50), attrs(spans[0])["gen_ai.request.max_tokens"].AsInt64())
}

func (h *harness) collect(t *testing.T) metricdata.ResourceMetrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, h.metrics.Collect(context.Background(), &rm))
	return rm
}

func find(t *testing.T, rm metricdata.ResourceMetrics, name string) metricdata.Aggregation {
	t.Helper()
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				return m.Data
			}
		}
	}
	t.Fatalf("no metric %s", name)
	return nil
}

func histogram[N int64 | float64](t *testing.T, rm metricdata.ResourceMetrics, name string) metricdata.Histogram[N] {
	t.Helper()
	h, ok := find(t, rm, name).(metricdata.Histogram[N])
	require.True(t, ok, "%s is a histogram", name)
	return h
}

func counter(t *testing.T, rm metricdata.ResourceMetrics, name string) map[string]int64 {
	t.Helper()
	s, ok := find(t, rm, name).(metricdata.Sum[int64])
	require.True(t, ok)
	out := map[string]int64{}
	for _, dp := range s.DataPoints {
		v, _ := dp.Attributes.Value("agentio.outcome")
		out[v.AsString()] += dp.Value
	}
	return out
}

func sumsBy(h metricdata.Histogram[int64], key attribute.Key) map[string]int64 {
	out := map[string]int64{}
	for _, dp := range h.DataPoints {
		v, _ := dp.Attributes.Value(key)
		out[v.AsString()] += dp.Sum
	}
	return out
}

func TestRunSpanNamedForSchema(t *testing.T) {
	h := newHarness(t)
	s, err := schema.Parse([]byte(`{"title": "Review", "type": "object", "required": ["verdict"]}`))
	require.NoError(t, err)
	p := providertest.New(providertest.Text(`{"verdict": "approve"}`))
	_, err = h.in.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, s)
	require.NoError(t, err)

	spans := h.spans.GetSpans()
	require.Len(t, spans, 2)
	run := spans[1]
	assert.Equal(t, "enforce Review", run.Name)
	assert.Equal(t, trace.SpanKindInternal, run.SpanKind)
	ra := attrs(run)
	assert.Equal(t, "Review", ra["agentio.schema.name"].AsString())
	assert.Equal(t, "gpt-test", ra["gen_ai.request.model"].AsString())
	assert.Equal(t, "openai", ra["gen_ai.provider.name"].AsString())
	assert.Equal(t, "json", ra["gen_ai.output.type"].AsString())
	assert.NotContains(t, ra, attribute.Key("gen_ai.operation.name"), "the run is not one model operation")
	assert.Equal(t, run.SpanContext.SpanID(), spans[0].Parent.SpanID())

	s2, ok := find(t, h.collect(t), "agentio.enforce.runs").(metricdata.Sum[int64])
	require.True(t, ok)
	require.Len(t, s2.DataPoints, 1)
	v, ok := s2.DataPoints[0].Attributes.Value("agentio.schema.name")
	require.True(t, ok)
	assert.Equal(t, "Review", v.AsString())
}

// TestRunOutcomes checks how each way a run ends shows on the run span and
// the runs counter.
func TestRunOutcomes(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name       string
		ctx        context.Context
		replies    []providertest.Reply
		opts       []enforce.Option
		outcome    string
		calls      int
		violations int64 // -1: not set
	}{
		{name: "valid", ctx: context.Background(), replies: []providertest.Reply{providertest.Text(`{"verdict": "reject"}`)}, outcome: "valid", calls: 1, violations: -1},
		{name: "invalid", ctx: context.Background(), replies: []providertest.Reply{providertest.Text(`{}`)}, opts: []enforce.Option{enforce.WithMaxRetries(0)}, outcome: "invalid", calls: 1, violations: 1},
		{name: "refused", ctx: context.Background(), replies: []providertest.Reply{{Refusal: "I cannot review this.", StopReason: provider.StopRefusal}}, outcome: "refused", calls: 1, violations: -1},
		{name: "provider error", ctx: context.Background(), replies: []providertest.Reply{providertest.Failed(&provider.Error{Kind: provider.ErrOverloaded, StatusCode: 529})}, outcome: "error", calls: 1, violations: -1},
		{name: "token budget", ctx: context.Background(), replies: []providertest.Reply{providertest.Text(`{}`)}, opts: []enforce.Option{enforce.WithTokenBudget(1)}, outcome: "token_budget", calls: 0, violations: -1},
		{name: "cancelled", ctx: cancelled, replies: []providertest.Reply{providertest.Text(`{}`)}, outcome: "cancelled", calls: 0, violations: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			s, err := schema.Parse([]byte(reviewSchema))
			require.NoError(t, err)
			_, err = h.in.Run(tt.ctx, providertest.New(tt.replies...), enforce.Request{Prompt: "Review."}, s, tt.opts...)
			run, calls := split(t, h.spans.GetSpans())
			assert.Len(t, calls, tt.calls)
			ra := attrs(run)
			assert.Equal(t, tt.outcome, ra["agentio.outcome"].AsString())
			if tt.outcome == "valid" {
				require.NoError(t, err)
				assert.Equal(t, codes.Unset, run.Status.Code)
				assert.NotContains(t, ra, attribute.Key("error.type"))
			} else {
				require.Error(t, err)
				assert.Equal(t, codes.Error, run.Status.Code)
				assert.Equal(t, err.Error(), run.Status.Description)
				assert.Equal(t, tt.outcome, ra["error.type"].AsString())
				require.NotEmpty(t, run.Events, "the error is recorded")
				assert.Equal(t, "exception", run.Events[0].Name)
			}
			if tt.violations >= 0 {
				assert.Equal(t, tt.violations, ra["agentio.violations"].AsInt64())
			} else {
				assert.NotContains(t, ra, attribute.Key("agentio.violations"))
			}
			assert.Equal(t, map[string]int64{tt.outcome: 1}, counter(t, h.collect(t), "agentio.enforce.runs"))
		})
	}
}

// TestOptionsAlone covers a provider the Instrumentation did not wrap: the
// hook records each attempt as a span of its own under the run.
func TestOptionsAlone(t *testing.T) {
	h := newHarness(t)
	s, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	p := providertest.New(
		providertest.Reply{Text: `{"verdict": "maybe"}`, Usage: provider.Usage{InputTokens: 30, OutputTokens: 5}},
		providertest.Reply{Text: `{"verdict": "approve"}`, Usage: provider.Usage{InputTokens: 60, OutputTokens: 5}, Model: "m-2026"},
	)
	ctx, end := h.in.Start(context.Background(), otelagentio.SchemaName("review"), attribute.String("gen_ai.request.model", "m"))
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, h.in.Options()...)
	end(res, err)
	require.NoError(t, err)

	spans := h.spans.GetSpans()
	require.Len(t, spans, 3)
	run := spans[2]
	assert.Equal(t, "enforce review", run.Name)
	for i, c := range spans[:2] {
		assert.Equal(t, "chat m", c.Name)
		assert.Equal(t, run.SpanContext.SpanID(), c.Parent.SpanID())
		assert.Equal(t, int64(i+1), attrs(c)["agentio.attempt.number"].AsInt64())
		assert.False(t, c.StartTime.After(c.EndTime))
		assert.False(t, c.StartTime.Before(run.StartTime), "an attempt starts within its run")
	}
	assert.Equal(t, codes.Error, spans[0].Status.Code)
	assert.Equal(t, "invalid", spans[0].Status.Description)
	second := attrs(spans[1])
	assert.Equal(t, int64(60), second["gen_ai.usage.input_tokens"].AsInt64())
	assert.Equal(t, "m-2026", second["gen_ai.response.model"].AsString())
	assert.Equal(t, "m", attrs(run)["gen_ai.request.model"].AsString())
}

// TestConcurrentRuns shares one Instrumentation between runs made at the
// same time: each run gets its own calls.
func TestConcurrentRuns(t *testing.T) {
	h := newHarness(t)
	s, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	const runs = 8
	errs := make(chan error, runs)
	for range runs {
		go func() {
			p := providertest.New(providertest.Text(`{"verdict": "no"}`), providertest.Text(`{"verdict": "approve"}`))
			_, err := h.in.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, s)
			errs <- err
		}()
	}
	for range runs {
		require.NoError(t, <-errs)
	}
	children := map[trace.SpanID]int{}
	var runSpans []tracetest.SpanStub
	for _, sp := range h.spans.GetSpans() {
		if sp.Name == "enforce" {
			runSpans = append(runSpans, sp)
		} else {
			children[sp.Parent.SpanID()]++
			want := map[int64]codes.Code{1: codes.Error, 2: codes.Unset}
			assert.Equal(t, want[attrs(sp)["agentio.attempt.number"].AsInt64()], sp.Status.Code)
		}
	}
	require.Len(t, runSpans, runs)
	for _, r := range runSpans {
		assert.Equal(t, 2, children[r.SpanContext.SpanID()])
	}
	attempts := histogram[int64](t, h.collect(t), "agentio.enforce.attempts")
	require.Len(t, attempts.DataPoints, 1)
	assert.Equal(t, uint64(runs), attempts.DataPoints[0].Count)
	assert.Equal(t, int64(2*runs), attempts.DataPoints[0].Sum)
}

// TestReaskBytes checks that agentio.reask.bytes marks the calls that carry
// a re-ask, in each way a re-ask is sent, and not a resend.
func TestReaskBytes(t *testing.T) {
	tests := []struct {
		name     string
		caps     provider.Capabilities
		replies  []providertest.Reply
		outcomes []string // each call's agentio.attempt.outcome
		reask    []bool   // whether each call carries a re-ask
	}{
		{
			name:     "prompt",
			replies:  []providertest.Reply{providertest.Text(`{}`), providertest.Text(`{}`), providertest.Text(`{"verdict": "approve"}`)},
			outcomes: []string{"invalid", "invalid", "valid"},
			reask:    []bool{false, true, true},
		},
		{
			name:     "tool",
			caps:     provider.Capabilities{Tools: true, ForcedTool: true},
			replies:  []providertest.Reply{providertest.CallTool(enforce.ToolName, `{"verdict": 1}`), providertest.CallTool(enforce.ToolName, `{"verdict": "reject"}`)},
			outcomes: []string{"invalid", "valid"},
			reask:    []bool{false, true},
		},
		{
			name: "schema fallback",
			caps: provider.Capabilities{NativeSchema: true},
			replies: []providertest.Reply{
				providertest.Failed(&provider.Error{Kind: provider.ErrSchemaRejected, StatusCode: 400}),
				providertest.Text(`{"verdict": "reject"}`),
			},
			outcomes: []string{"schema_rejected", "valid"},
			reask:    []bool{false, false},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			sp := providertest.New(tt.replies...)
			_, err := h.run(t, provider.WithCapabilities(sp, tt.caps))
			require.NoError(t, err)
			_, calls := split(t, h.spans.GetSpans())
			require.Len(t, calls, len(tt.outcomes))
			reqs := sp.Requests()
			for i, c := range calls {
				ca := attrs(c)
				assert.Equal(t, tt.outcomes[i], ca["agentio.attempt.outcome"].AsString(), "call %d", i+1)
				if !tt.reask[i] {
					assert.NotContains(t, ca, attribute.Key("agentio.reask.bytes"), "call %d", i+1)
					continue
				}
				last := reqs[i].Messages[len(reqs[i].Messages)-1]
				assert.Positive(t, ca["agentio.reask.bytes"].AsInt64())
				assert.Equal(t, int64(len(last.Content)), ca["agentio.reask.bytes"].AsInt64(), "call %d", i+1)
			}
		})
	}
}

// A call answered after retries (provider.WithRetry under the
// instrumented provider) says how many on its span.
func TestCallRetries(t *testing.T) {
	h := newHarness(t)
	inner := providertest.New(providertest.Failed(&provider.Error{Kind: provider.ErrOverloaded}), providertest.Text(`{"verdict": "approve"}`))
	p, err := provider.WithRetry(inner, &provider.RetryOptions{Sleep: func(context.Context, time.Duration) error { return nil }})
	require.NoError(t, err)
	_, err = h.run(t, p)
	require.NoError(t, err)
	_, calls := split(t, h.spans.GetSpans())
	require.Len(t, calls, 1)
	assert.Equal(t, int64(1), attrs(calls[0])["agentio.call.retries"].AsInt64())
}
