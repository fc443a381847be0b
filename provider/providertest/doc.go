// Package providertest provides a scripted [provider.Provider] for tests: it
// answers each call with the next of a list of replies and records every
// request it receives, so a test can drive code that calls a model without a
// network and then check what that code sent.
//
//	p := providertest.New(
//		providertest.Text(`{"summary": 42}`),     // first call: an invalid answer
//		providertest.Text(`{"summary": "done"}`), // second call: a valid one
//	)
//	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Summarise."}, s)
//	reqs := p.Requests() // what the enforcement loop sent, deep copies
//
// # Cues
//
// A [Reply] is a plain struct; [Text], [Truncated], [Refused], [Failed] and
// [CallTool] build the common ones: a normal answer, a reply cut off at the
// token limit, a refusal, an API failure and a tool call.
//
// # Capabilities
//
// A [Provider] reports text-only capabilities. Declare more with
// [provider.WithCapabilities], keeping the *Provider to read its requests:
//
//	p := providertest.New(providertest.CallTool("submit_result", `{"ok": true}`))
//	tooled := provider.WithCapabilities(p, provider.Capabilities{Tools: true, ForcedTool: true})
//
// # Running out
//
// A call made after the last scripted reply fails with an [*ExhaustedError]
// that says how many replies were scripted; the request is still recorded,
// so the test can show what the extra call asked.
//
// # Batches
//
// [NewBatcher] returns a scripted [provider.BatchFinder] for code that
// uses provider batch APIs, such as package batch: a [Script] answers each
// request by its item and how many of its requests ran before
// ([Replies] serves a map of replies per item); [BatcherOptions] make
// batches stay in progress for some polls, expire, be cancelled or fail
// ([BatchFault]), enforce [provider.BatchLimits], and fail any step
// through a hook ([BatchOp]), to crash the code under test there.
// [Batcher.Submissions] records what was submitted, and
// [Batcher.Submitted] counts each request ID, so a test can assert that
// nothing was submitted twice.
//
// # Faults
//
// [NewFaulty] wraps any provider in a [Faulty] that injects faults by a
// schedule (call number → [Fault]) or at a seeded rate: a 429 with
// RetryAfter, a 500 or 503, a reset connection, a slow first byte, a
// stream cut mid-value, a reply truncated at the token limit, bytes that
// are not text, a hang until the context ends. [Faulty.Injected] counts
// them, so a test of retries, fallbacks or the enforcement loop can say
// what it survived.
//
// # Testing an adapter
//
// The package is also the test kit for a [provider.Streamer] adapter, as
// registry/registrytest is for a registry: [SameAsGenerate] and [SameError]
// hold a stream to what Generate returns for the same reply, [First] and
// [CancelAfterFirst] leave a stream early, and [CheckStream] asserts what
// holds of any stream a fuzz test feeds an adapter. An HTTP adapter's
// replies are scripted with package provider/wiretest; the checks that
// need the enforcement loop are in package enforce/enforcetest.
package providertest
