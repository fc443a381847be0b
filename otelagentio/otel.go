package otelagentio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = "github.com/agentio/agentio/otelagentio"

// The attribute keys: the OpenTelemetry GenAI semantic conventions', then
// agentio's own.
const (
	keyOperation     = attribute.Key("gen_ai.operation.name")
	keyProvider      = attribute.Key("gen_ai.provider.name")
	keyRequestModel  = attribute.Key("gen_ai.request.model")
	keyMaxTokens     = attribute.Key("gen_ai.request.max_tokens")
	keyOutputType    = attribute.Key("gen_ai.output.type")
	keyResponseModel = attribute.Key("gen_ai.response.model")
	keyFinish        = attribute.Key("gen_ai.response.finish_reasons")
	keyInputTokens   = attribute.Key("gen_ai.usage.input_tokens")
	keyOutputTokens  = attribute.Key("gen_ai.usage.output_tokens")
	keyTokenType     = attribute.Key("gen_ai.token.type")
	keyErrorType     = attribute.Key("error.type")

	keySchemaName    = attribute.Key("agentio.schema.name")
	keyRunViolations = attribute.Key("agentio.violations")
	keyMode          = attribute.Key("agentio.mode")
	keyAttempts      = attribute.Key("agentio.attempts")
	keyOutcome       = attribute.Key("agentio.outcome")
	keyNumber        = attribute.Key("agentio.attempt.number")
	keyAttemptMode   = attribute.Key("agentio.attempt.mode")
	keyAttemptOut    = attribute.Key("agentio.attempt.outcome")
	keyViolations    = attribute.Key("agentio.attempt.violations")
	keyFixes         = attribute.Key("agentio.attempt.fixes")
	keyCoercions     = attribute.Key("agentio.attempt.coercions")
	keyStoppedEarly  = attribute.Key("agentio.attempt.stopped_early")
	keyReaskBytes    = attribute.Key("agentio.reask.bytes")
	keyRetries       = attribute.Key("agentio.call.retries")
	operationChat    = "chat"
	outputTypeJSON   = "json"
	runSpanName      = "enforce"
	tokenTypeInput   = "input"
	tokenTypeOutput  = "output"
	outcomeValid     = "valid"
	outcomeInvalid   = "invalid"
	outcomeRefused   = "refused"
	outcomeBudget    = "token_budget"
	outcomeCancelled = "cancelled"
	outcomeError     = "error"
)

// Options configure an [Instrumentation]. The zero value uses the global
// tracer and meter providers.
type Options struct {
	// TracerProvider makes the spans; nil means otel.GetTracerProvider().
	TracerProvider trace.TracerProvider
	// MeterProvider makes the metrics; nil means otel.GetMeterProvider().
	MeterProvider metric.MeterProvider
	// ProviderName is gen_ai.provider.name ("openai", "anthropic",
	// "gcp.gemini", "ollama"); empty leaves it out.
	ProviderName string
	// Model is gen_ai.request.model for a provider that does not report
	// its model; the adapters do (they have a Model() string method).
	Model string
}

// An Instrumentation records agentio runs as spans and metrics. It is safe
// for concurrent use; make one per service (or per provider name) and share
// it.
type Instrumentation struct {
	tracer       trace.Tracer
	tokens       metric.Int64Histogram
	callDuration metric.Float64Histogram
	attempts     metric.Int64Histogram
	runs         metric.Int64Counter
	runDuration  metric.Float64Histogram
	providerName string
	model        string
}

// New returns an Instrumentation configured by opts (nil: the defaults).
// It fails only when the meter cannot create an instrument.
func New(opts *Options) (*Instrumentation, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.TracerProvider == nil {
		o.TracerProvider = otel.GetTracerProvider()
	}
	if o.MeterProvider == nil {
		o.MeterProvider = otel.GetMeterProvider()
	}
	meter := o.MeterProvider.Meter(ScopeName)
	in := &Instrumentation{tracer: o.TracerProvider.Tracer(ScopeName), providerName: o.ProviderName, model: o.Model}
	var errs []error
	var err error
	in.tokens, err = meter.Int64Histogram("gen_ai.client.token.usage", metric.WithUnit("{token}"),
		metric.WithDescription("Number of input and output tokens used."))
	errs = append(errs, err)
	in.callDuration, err = meter.Float64Histogram("gen_ai.client.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("GenAI operation duration."))
	errs = append(errs, err)
	in.attempts, err = meter.Int64Histogram("agentio.enforce.attempts", metric.WithUnit("{attempt}"),
		metric.WithDescription("Calls to the model per enforcement run."))
	errs = append(errs, err)
	in.runs, err = meter.Int64Counter("agentio.enforce.runs", metric.WithUnit("{run}"),
		metric.WithDescription("Enforcement runs, by outcome."))
	errs = append(errs, err)
	in.runDuration, err = meter.Float64Histogram("agentio.enforce.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of an enforcement run, every attempt included."))
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("otelagentio: %w", err)
	}
	return in, nil
}

// Run is enforce.Run traced and measured: [Instrumentation.Start],
// enforce.Run with [Instrumentation.Provider] and [Instrumentation.Options]
// added to opts, and the end of the run recorded. The run span is named
// for s by its root "title" keyword when it has one ("enforce Review"), and
// carries it as agentio.schema.name.
func (in *Instrumentation) Run(ctx context.Context, p provider.Provider, req enforce.Request, s *schema.Schema, opts ...enforce.Option) (*enforce.Result, error) {
	wrapped := in.Provider(p)
	var attrs []attribute.KeyValue
	if name := schemaTitle(s); name != "" {
		attrs = append(attrs, SchemaName(name))
	}
	if model := (&tracedProvider{in: in, p: p}).model(); model != "" {
		attrs = append(attrs, keyRequestModel.String(model))
	}
	ctx, end := in.Start(ctx, attrs...)
	res, err := enforce.Run(ctx, wrapped, req, s, append(opts[:len(opts):len(opts)], in.Options()...)...)
	end(res, err)
	return res, err
}

// SchemaName returns the agentio.schema.name attribute, for
// [Instrumentation.Start]: the name under which a run's schema is known
// (a registry name, a blueprint's name). It names the run span and is
// added to the run's metrics, so it should be one of few values.
func SchemaName(name string) attribute.KeyValue { return keySchemaName.String(name) }

// schemaTitle returns the root "title" of s, or "".
func schemaTitle(s *schema.Schema) string {
	if s == nil {
		return ""
	}
	var doc struct {
		Title string `json:"title"`
	}
	if err := json.Unmarshal(s.JSON(), &doc); err != nil {
		return "" // a boolean schema has no title
	}
	return doc.Title
}

// A run is one traced run: its span and the span of the call whose
// verdict is awaited.
type run struct {
	span     trace.Span
	start    time.Time
	schema   string // agentio.schema.name, or ""
	mu       sync.Mutex
	calls    int
	firstLen int // messages in the run's first request
	pending  trace.Span
	model    string
}

type runKey struct{}

func runFrom(ctx context.Context) *run {
	r, _ := ctx.Value(runKey{}).(*run)
	return r
}

// Start begins a traced run: the returned context carries the run's span,
// which the calls of [Instrumentation.Provider] and the hook of
// [Instrumentation.Options] attach to. attrs are added to the run span;
// give [SchemaName] to name the run for its schema, and
// gen_ai.request.model when the provider does not report its model. Call
// end with the run's result and error when it is over; it ends the span and
// records the run's metrics. A context from Start belongs to one run: start
// one per run, even for runs made at the same time.
func (in *Instrumentation) Start(ctx context.Context, attrs ...attribute.KeyValue) (context.Context, func(*enforce.Result, error)) {
	r := &run{start: time.Now()}
	for _, kv := range attrs {
		switch kv.Key {
		case keySchemaName:
			r.schema = kv.Value.String()
		case keyRequestModel:
			r.model = kv.Value.String()
		}
	}
	name := runSpanName
	if r.schema != "" {
		name += " " + r.schema
	}
	// The run span is not one model operation, so it has no
	// gen_ai.operation.name: a GenAI backend would count it, and its
	// tokens, beside its calls.
	spanAttrs := []attribute.KeyValue{keyOutputType.String(outputTypeJSON)}
	if in.providerName != "" {
		spanAttrs = append(spanAttrs, keyProvider.String(in.providerName))
	}
	spanAttrs = append(spanAttrs, attrs...)
	ctx, span := in.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(spanAttrs...))
	r.span = span
	ctx = context.WithValue(ctx, runKey{}, r)
	var once sync.Once
	return ctx, func(res *enforce.Result, err error) {
		once.Do(func() { in.end(ctx, r, res, err) })
	}
}

// end records the end of the run r.
func (in *Instrumentation) end(ctx context.Context, r *run, res *enforce.Result, err error) {
	r.mu.Lock()
	if r.pending != nil { // a call no verdict followed (the run stopped)
		r.pending.End()
		r.pending = nil
	}
	model := r.model
	r.mu.Unlock()
	outcome := runOutcome(err)
	attrs := in.common(model)
	if r.schema != "" {
		attrs = append(attrs, keySchemaName.String(r.schema))
	}
	attrs = append(attrs, keyOutcome.String(outcome))
	if model != "" {
		r.span.SetAttributes(keyRequestModel.String(model))
	}
	if res != nil {
		r.span.SetAttributes(keyMode.String(string(res.Mode)), keyAttempts.Int(len(res.Attempts)),
			keyInputTokens.Int(res.Usage.InputTokens), keyOutputTokens.Int(res.Usage.OutputTokens))
		in.attempts.Record(ctx, int64(len(res.Attempts)), metric.WithAttributes(attrs...))
	} else {
		r.span.SetAttributes(keyAttempts.Int(0))
		in.attempts.Record(ctx, 0, metric.WithAttributes(attrs...))
	}
	r.span.SetAttributes(keyOutcome.String(outcome))
	if err != nil {
		r.span.SetAttributes(keyErrorType.String(outcome))
		var ve *enforce.ValidationError
		if errors.As(err, &ve) {
			r.span.SetAttributes(keyRunViolations.Int(len(ve.Violations)))
		}
		r.span.RecordError(err)
		r.span.SetStatus(codes.Error, err.Error())
	}
	in.runs.Add(ctx, 1, metric.WithAttributes(attrs...))
	in.runDuration.Record(ctx, time.Since(r.start).Seconds(), metric.WithAttributes(attrs...))
	r.span.End()
}

// runOutcome names how a run ended.
func runOutcome(err error) string {
	var ve *enforce.ValidationError
	switch {
	case err == nil:
		return outcomeValid
	case errors.Is(err, enforce.ErrRefused):
		return outcomeRefused
	case errors.Is(err, enforce.ErrTokenBudget):
		return outcomeBudget
	case errors.As(err, &ve):
		return outcomeInvalid
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return outcomeCancelled
	default:
		return outcomeError
	}
}

// common returns the attributes every metric carries.
func (in *Instrumentation) common(model string) []attribute.KeyValue {
	attrs := []attribute.KeyValue{keyOperation.String(operationChat)}
	if in.providerName != "" {
		attrs = append(attrs, keyProvider.String(in.providerName))
	}
	if model != "" {
		attrs = append(attrs, keyRequestModel.String(model))
	}
	return attrs
}

// Options returns the enforce options that complete each call's span with
// the loop's verdict on its reply. Use them with a context from
// [Instrumentation.Start].
func (in *Instrumentation) Options() []enforce.Option {
	return []enforce.Option{enforce.WithAttemptHook(in.hook)}
}

// hook completes the pending call span of the run with attempt a. When
// the call was not traced (the provider was not wrapped by
// [Instrumentation.Provider]), it records the attempt as a span of its own,
// backdated by the attempt's duration.
func (in *Instrumentation) hook(ctx context.Context, a enforce.Attempt) {
	r := runFrom(ctx)
	if r == nil {
		return
	}
	r.mu.Lock()
	span := r.pending
	r.pending = nil
	model := r.model
	r.mu.Unlock()
	if span == nil {
		span = in.attemptSpan(ctx, r, a, model)
	}
	span.SetAttributes(
		keyNumber.Int(a.Number),
		keyAttemptMode.String(string(a.Mode)),
		keyAttemptOut.String(string(a.Outcome)),
		keyViolations.Int(len(a.Violations)),
		keyFixes.Int(len(a.Fixes)),
		keyCoercions.Int(len(a.Coercions)),
		keyStoppedEarly.Bool(a.StoppedEarly),
	)
	switch {
	case a.Err != nil:
		span.SetStatus(codes.Error, a.Err.Error())
	case a.Outcome != enforce.OutcomeValid:
		span.SetStatus(codes.Error, string(a.Outcome))
	}
	span.End()
}

// attemptSpan starts, in the past, the span of an attempt whose call was
// not traced, with what the attempt says of the call. It records no
// metrics: the call's were not measured either.
func (in *Instrumentation) attemptSpan(ctx context.Context, r *run, a enforce.Attempt, model string) trace.Span {
	name := operationChat
	if model != "" {
		name += " " + model
	}
	attrs := append(in.common(model), keyOutputType.String(outputTypeJSON),
		keyInputTokens.Int(a.Usage.InputTokens), keyOutputTokens.Int(a.Usage.OutputTokens))
	if a.Response != nil && a.Response.Model != "" {
		attrs = append(attrs, keyResponseModel.String(a.Response.Model))
	}
	if a.Response != nil {
		if reason := finishReason(a.Response); reason != "" {
			attrs = append(attrs, keyFinish.StringSlice([]string{reason}))
		}
	}
	if a.Err != nil {
		attrs = append(attrs, keyErrorType.String(errorType(a.Err)))
	}
	ctx = trace.ContextWithSpan(ctx, r.span)
	_, span := in.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(time.Now().Add(-a.Duration)), trace.WithAttributes(attrs...))
	if a.Err != nil {
		span.RecordError(a.Err)
	}
	return span
}

// Provider returns p with each call traced as a client span, child of the
// run's span when ctx comes from [Instrumentation.Start], and measured.
// When p is a [provider.Streamer], so is the Provider returned.
func (in *Instrumentation) Provider(p provider.Provider) provider.Provider {
	tp := &tracedProvider{in: in, p: p}
	if s, ok := p.(provider.Streamer); ok {
		return &tracedStreamer{tracedProvider: tp, s: s}
	}
	return tp
}

type tracedProvider struct {
	in *Instrumentation
	p  provider.Provider
}

// Capabilities reports the wrapped provider's.
func (t *tracedProvider) Capabilities() provider.Capabilities { return t.p.Capabilities() }

// model returns the model a call asks.
func (t *tracedProvider) model() string {
	if m, ok := t.p.(interface{ Model() string }); ok && m.Model() != "" {
		return m.Model()
	}
	return t.in.model
}

// Generate calls the wrapped provider inside a client span.
func (t *tracedProvider) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	ctx, call := t.begin(ctx, req)
	resp, err := t.p.Generate(ctx, req)
	call.finish(ctx, resp, err)
	return resp, err
}

// A call is one traced call in progress.
type call struct {
	in    *Instrumentation
	span  trace.Span
	run   *run
	model string
	start time.Time
}

// begin starts the span of a call of req.
func (t *tracedProvider) begin(ctx context.Context, req *provider.Request) (context.Context, *call) {
	model := t.model()
	var extra []attribute.KeyValue
	if req != nil && req.MaxTokens > 0 {
		extra = append(extra, keyMaxTokens.Int(req.MaxTokens))
	}
	r := runFrom(ctx)
	if r != nil {
		r.mu.Lock()
		r.calls++
		n := 0
		if req != nil {
			n = len(req.Messages)
		}
		if r.calls == 1 {
			r.firstLen = n
		} else if n > r.firstLen {
			// A re-ask adds the bad reply and the re-ask to the first
			// request; a resend (a schema fallback, a raised token limit)
			// does not.
			extra = append(extra, keyReaskBytes.Int(len(req.Messages[n-1].Content)))
		}
		if model != "" {
			r.model = model
		} else {
			model = r.model // given to Start
		}
		r.mu.Unlock()
	}
	name := operationChat
	if model != "" {
		name += " " + model
	}
	attrs := append(t.in.common(model), keyOutputType.String(outputTypeJSON))
	attrs = append(attrs, extra...)
	ctx, span := t.in.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx, &call{in: t.in, span: span, run: r, model: model, start: time.Now()}
}

// finish records the call's reply or error, and hands its span to the
// run's hook (or ends it, outside a run).
func (c *call) finish(ctx context.Context, resp *provider.Response, err error) {
	attrs := c.in.common(c.model)
	if err != nil {
		typ := errorType(err)
		attrs = append(attrs, keyErrorType.String(typ))
		c.span.SetAttributes(keyErrorType.String(typ))
		c.span.RecordError(err)
		c.span.SetStatus(codes.Error, err.Error())
	}
	if resp != nil && resp.Model != "" {
		attrs = append(attrs, keyResponseModel.String(resp.Model))
		c.span.SetAttributes(keyResponseModel.String(resp.Model))
	}
	c.in.callDuration.Record(ctx, time.Since(c.start).Seconds(), metric.WithAttributes(attrs...))
	if resp != nil {
		if reason := finishReason(resp); reason != "" {
			c.span.SetAttributes(keyFinish.StringSlice([]string{reason}))
		}
		c.span.SetAttributes(keyInputTokens.Int(resp.Usage.InputTokens), keyOutputTokens.Int(resp.Usage.OutputTokens))
		if resp.Retries > 0 { // the provider was wrapped in provider.WithRetry
			c.span.SetAttributes(keyRetries.Int(resp.Retries))
		}
		if resp.Usage.InputTokens > 0 || resp.Usage.OutputTokens > 0 { // else the provider reported none
			c.in.tokens.Record(ctx, int64(resp.Usage.InputTokens), metric.WithAttributes(append(attrs, keyTokenType.String(tokenTypeInput))...))
			c.in.tokens.Record(ctx, int64(resp.Usage.OutputTokens), metric.WithAttributes(append(attrs, keyTokenType.String(tokenTypeOutput))...))
		}
	}
	if c.run == nil {
		c.span.End()
		return
	}
	c.run.mu.Lock()
	if c.run.pending != nil {
		c.run.pending.End()
	}
	c.run.pending = c.span
	c.run.mu.Unlock()
}

// finishReason is gen_ai.response.finish_reasons' one value for resp: the
// provider's own stop reason, else agentio's.
func finishReason(resp *provider.Response) string {
	if resp.RawStopReason != "" {
		return resp.RawStopReason
	}
	return string(resp.StopReason)
}

// errorType is error.type for a failed call: the provider error's kind,
// "cancelled", or "_OTHER".
func errorType(err error) string {
	var pe *provider.Error
	switch {
	case errors.As(err, &pe) && pe.Kind != "":
		return string(pe.Kind)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "cancelled"
	default:
		return "_OTHER"
	}
}

type tracedStreamer struct {
	*tracedProvider
	s provider.Streamer
}

// Stream streams from the wrapped provider inside a client span that lasts
// as long as the iteration.
func (t *tracedStreamer) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		ctx, c := t.begin(ctx, req)
		var final *provider.Response
		var failed error
		defer func() { c.finish(ctx, final, failed) }()
		for ch, err := range t.s.Stream(ctx, req) {
			if err != nil {
				failed = err
			}
			if ch.Response != nil {
				final = ch.Response
			}
			if !yield(ch, err) || err != nil {
				return
			}
		}
	}
}
