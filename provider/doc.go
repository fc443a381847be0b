// Package provider defines the seam between agentio and a language model: the
// [Provider] interface, the [Request] sent to a model and the [Response] it
// gives back, in a form that every model API can be mapped to.
//
// A host wraps its existing client call with [Func]:
//
//	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
//		text, err := myClient.Complete(ctx, req.System, req.Messages[len(req.Messages)-1].Content)
//		if err != nil {
//			return nil, err
//		}
//		return &provider.Response{Text: text, StopReason: provider.StopEnd}, nil
//	})
//
// A Func declares no native capabilities, so the enforcement loop puts the
// schema into the prompt; [WithCapabilities] declares what the wrapped API
// can do (native schema mode, forced tool calls).
//
// Adapters for real SDKs live in nested modules (provider/openai, ...) so that
// this module never depends on an SDK. Package providertest holds a scripted
// Provider for tests; package provider/record records a real provider's calls
// to a directory and replays them offline.
//
// # Batches
//
// A [Batcher] is a Provider that also runs many requests at once through
// the provider's batch API, asynchronously and at a lower price:
// [Batcher.SubmitBatch], then [Batcher.Batch] until its [BatchStatus] is
// done, then [Batcher.BatchResults], one [BatchResult] per request ID.
// Requests that never ran carry errors matching [ErrExpired] or
// [ErrCanceled]. A [BatchFinder] also finds a batch by the key it was
// submitted with. The OpenAI, Anthropic and Gemini adapters are Batchers;
// OpenAI's and Gemini's are BatchFinders.
//
// # Errors
//
// Adapters report API failures as [*Error], classified by [ErrorKind]:
// errors.Is(err, provider.ErrRateLimited) and friends match on the kind, and
// errors.As gives the HTTP status, the provider's own message and the wait
// it asked for (Error.RetryAfter, read from the headers by
// [RetryAfterFrom]).
//
// # Retries and fallbacks
//
// [WithRetry] wraps a Provider so that the failures worth another try
// ([Retryable]: rate limited, overloaded, a reset connection, a timeout
// the caller did not set) are retried after a jittered exponential
// backoff, never sooner than Error.RetryAfter, within the attempts, the
// time budget and the context that [RetryOptions] and the call set.
// [Fallback] chains providers, moving to the next on the kinds named in
// [FallbackOptions]; Response.Provider says which one answered:
//
//	p, err := provider.WithRetry(primary, &provider.RetryOptions{MaxAttempts: 3})
//	...
//	p, err = provider.Fallback([]provider.Provider{p, backup}, nil)
package provider
