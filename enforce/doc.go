// Package enforce gets JSON that is valid against a JSON Schema out of any
// language model, or a typed error that says exactly why not. Start with
// [Run] (or [Typed] for a Go type):
//
//	s, err := schema.Parse(reviewSchema)
//	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review this diff: ..."}, s,
//		enforce.WithMaxRetries(1))
//	var ve *enforce.ValidationError
//	if errors.As(err, &ve) {
//		log.Printf("invalid after %d retries: %v", ve.Retries, ve.Violations)
//	}
//	use(res.JSON)
//
// # The loop
//
// Each attempt calls the provider, extracts the JSON from the reply (the
// whole text, a fence, or a value found in prose; every value found that
// could be valid is tried, so an example object before the real answer does
// no harm),
// transforms it back from the provider's dialect where one was used,
// validates it against the schema and then the custom validators
// ([WithValidator]), and either returns it or re-asks. The re-ask lists
// every violation with its path, shows the previous output (cut in the
// middle beyond 4 KB) and the schema (minified beyond 2 KB), and asks for
// the corrected JSON only; [WithReask] changes its text. A re-ask sends the
// original request, the last bad reply and the re-ask, not a growing
// transcript ([WithFullHistory] keeps it all). [WithMaxRetries] bounds the
// re-asks (default 2).
//
// # Modes
//
// [ModePrompt] appends the schema instructions ([Enforcer.Instructions]) to
// the prompt, [ModeSystem] to the system prompt. [ModeNative] passes the
// schema, converted to the provider's dialect, as the request's output
// spec. [ModeTool] offers one forced tool, submit_result, whose input schema
// is the output schema (a non-object root wrapped as {"result": ...}); its
// re-ask is an error result answering the call. [ModeAuto], the default,
// picks native, then tool, then prompt by the provider's capabilities. All
// modes validate locally. When the provider rejects the schema in native or
// tool mode, the run continues in prompt mode (unless [WithoutSchemaFallback]).
//
// # Failures
//
// A reply cut off at the token limit is re-asked for a shorter answer (or
// resent with more tokens, [WithRaiseMaxTokens]); a refusal or content
// filter ends the run with [ErrRefused]; a provider error ends it at once,
// wrapped; a cancelled context stops it between and during calls;
// [WithTokenBudget] stops it before a call that would not fit. When the
// re-asks are spent, the error is a [*ValidationError] with every attempt,
// the final violations, the last output and the usage; it encodes to the
// OutputSchemaValidationError JSON that orchestrators report.
//
// A reply whose JSON had to be completed by repair because it was cut off
// is never accepted, whatever the mode and the stop reason: the attempt's
// outcome is [OutcomeTruncated].
//
// # Strict and lenient
//
// By default a value is valid exactly when the schema says so. With
// [WithLenient] a value that fails is first coerced by the schema
// ([schema.Schema.Coerce]: "5" to 5, "High" to "high", {"Answer": ...} to
// {"answer": ...}, a bare list into {"answers": [...]}) and validated
// again, strictly; every change is listed in [Result.Coercions]. Lenient
// mode never fills a missing property, turns prose into data, rounds,
// clips, or accepts a cut-off reply. Every value the reply holds is
// offered to coercion (a bare list, a quoted object, a scalar), and a value
// valid as the model wrote it is preferred to one that needed coercion. On
// the 139 near-miss replies of testdata/lenient (TestLenientCorpus, one
// attempt each, repair on), strict mode accepts 10 and lenient mode 88,
// each with the expected value, while it keeps the 51 that must fail.
//
// # Streaming
//
// [WithPartials] streams a run: over a provider that streams
// (provider.Streamer), each reply is read as it is written, and the option's
// function gets Partial values: the complete members so far, with
// Partial.Open naming what is still being written. Every part
// that completes is checked at once against the subschemas that certainly
// apply to it (schema.Cursor); a part that can no longer become valid stops
// the stream and is re-asked at once (Attempt.StoppedEarly), so a wrong
// answer is not paid for to its end. The finished value gets Run's full
// validation; a partial is never the result. [WithTypedPartials] decodes
// each partial into a T. The same option streams a blueprint run and the
// MCP tools: there is one way to stream.
//
// # Step by step
//
// An orchestrator whose attempts are separate jobs uses an [Enforcer]:
// [Enforcer.EnrichPrompt] or [Enforcer.Start] for the first request,
// [Enforcer.Check] for each reply, and a [State] (plain JSON) carried
// between jobs. Run is built from the same pieces.
//
// # Observing
//
// [WithAttemptHook] observes each attempt (number, outcome, violations,
// usage, duration) on the caller's goroutine; [WithLogger] logs one debug
// line per attempt. [OptionsFromEnv] reads the defaults from the
// environment.
package enforce
