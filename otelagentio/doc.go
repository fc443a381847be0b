// Package otelagentio traces and measures agentio's enforcement loop with
// OpenTelemetry: a span for each run, a child span for each call to the
// model, following the OpenTelemetry semantic conventions for generative
// AI clients (gen_ai.* attributes), and the metrics a service dashboards
// (tokens, call latency, attempts per run, runs by outcome). It is a module
// of its own, so that the agentio module never depends on OpenTelemetry.
//
// Wrap the provider and run through the Instrumentation:
//
//	in, err := otelagentio.New(&otelagentio.Options{ProviderName: "openai"}) // the global providers
//	if err != nil { ... }
//	res, err := in.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s, enforce.WithMaxRetries(2))
//
// or, to keep calling enforce yourself (an Enforcer, blueprint.Run), wrap
// the context, the provider and the options:
//
//	ctx, end := in.Start(ctx)
//	res, err := enforce.Run(ctx, in.Provider(p), req, s, in.Options()...)
//	end(res, err)
//
// # Spans
//
// The run span (SpanKind internal) is named "enforce", or "enforce {name}"
// when the schema's name is known: the root "title" of the schema given to
// [Instrumentation.Run], or [SchemaName] given to [Instrumentation.Start].
// It carries gen_ai.provider.name, gen_ai.request.model, gen_ai.output.type
// "json", agentio.schema.name, agentio.mode, agentio.attempts,
// agentio.outcome, gen_ai.usage.input_tokens and gen_ai.usage.output_tokens
// (the run's total); when the run ends without valid output, an error
// status with the error recorded, error.type (the outcome) and, for a
// *enforce.ValidationError, agentio.violations (the final violations). It
// has no gen_ai.operation.name: it is not one model operation, and a GenAI
// backend would count it, and its tokens, beside its calls.
//
// Each call is a client span, child of the run span and parent of whatever
// the provider's HTTP client traces, named "chat {model}" with
// gen_ai.operation.name "chat", gen_ai.provider.name, gen_ai.request.model,
// gen_ai.request.max_tokens, gen_ai.output.type "json",
// gen_ai.response.model, gen_ai.response.finish_reasons and the call's
// gen_ai.usage.* tokens; error.type when the call failed. When the loop has
// judged the reply, the same span gets agentio.attempt.number,
// agentio.attempt.mode, agentio.attempt.outcome, agentio.attempt.violations,
// agentio.attempt.fixes, agentio.attempt.coercions,
// agentio.attempt.stopped_early and, for a re-ask, agentio.reask.bytes (the
// size of the re-ask the call carried), and agentio.call.retries on a
// reply a provider.WithRetry under it got after retries; an attempt that
// failed gets an error status. When the provider was not wrapped by
// [Instrumentation.Provider], the hook of [Instrumentation.Options] still
// records each attempt as a span under the run, backdated by the attempt's
// duration, from what the attempt says of its call (no call metrics then).
//
// # Metrics
//
//   - gen_ai.client.token.usage (histogram, {token}), by gen_ai.token.type
//     "input" or "output";
//   - gen_ai.client.operation.duration (histogram, s), per call, with
//     error.type on failures;
//   - agentio.enforce.attempts (histogram, {attempt}), per run;
//   - agentio.enforce.runs (counter, {run}), by agentio.outcome;
//   - agentio.enforce.duration (histogram, s), per run.
//
// Every metric carries gen_ai.operation.name, gen_ai.provider.name and
// gen_ai.request.model when known; the call metrics also
// gen_ai.response.model, and the run metrics agentio.schema.name, when
// known. Tokens are recorded only for a reply that reports usage.
//
// # Concurrency
//
// An [Instrumentation] is safe for concurrent use. A context from
// [Instrumentation.Start] belongs to one run.
package otelagentio
