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
// The run span, "enforce" (SpanKind internal), carries agentio.mode,
// agentio.attempts, agentio.outcome, gen_ai.usage.input_tokens and
// gen_ai.usage.output_tokens (the run's total), and an error status when
// the run ends without valid output. Each call is a client span named
// "chat {model}" with gen_ai.operation.name "chat", gen_ai.provider.name,
// gen_ai.request.model, gen_ai.request.max_tokens, gen_ai.output.type
// "json", gen_ai.response.model, gen_ai.response.finish_reasons and the
// call's gen_ai.usage.* tokens; error.type when the call failed. When the
// loop has judged the reply, the same span gets agentio.attempt.number,
// agentio.attempt.mode, agentio.attempt.outcome, agentio.attempt.violations,
// agentio.attempt.fixes, agentio.attempt.coercions,
// agentio.attempt.stopped_early and, for a re-ask, agentio.reask.bytes (the
// size of the re-ask the call carried); an attempt that failed gets an
// error status.
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
// gen_ai.request.model when known.
package otelagentio
