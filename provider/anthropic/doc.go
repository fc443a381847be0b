// Package anthropic is an agentio [provider.Provider] for Anthropic's
// Messages API, built on the official SDK
// github.com/anthropics/anthropic-sdk-go/v2. It is a module of its own, so
// that the agentio module never depends on an SDK.
//
// Start with [New]:
//
//	p, err := anthropic.New(&anthropic.Options{Model: "claude-sonnet-4-5"}) // key from ANTHROPIC_API_KEY
//	if err != nil { ... }
//	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
//
// # Mapping
//
// The system prompt, the user and assistant turns (with their tool_use
// blocks; an assistant turn with neither text nor calls is left out, as
// the API refuses empty text), the tool results (tool_result blocks of a user turn, with
// is_error), the tools (their input schemas sent as raw bytes, so with the
// author's key order, and strict when asked), the tool choice (auto, none,
// any for "required", tool for a named tool) and the output spec
// (output_config.format of type json_schema) are mapped to the request;
// max_tokens, which the API requires, is the request's MaxTokens, else
// Options.MaxTokens, else [DefaultMaxTokens]. The reply's text blocks
// (joined), tool_use blocks, stop reason and usage are mapped back;
// thinking blocks are left out.
//
// # Stop reasons and usage
//
// end_turn and stop_sequence are [provider.StopEnd] (StopToolUse when the
// reply calls a tool), tool_use is StopToolUse, max_tokens and
// model_context_window_exceeded are StopLength (the enforcement loop then
// asks for a shorter answer or a larger budget), refusal is StopRefusal
// with the reply's text as the Refusal (never re-asked), pause_turn and
// unknown reasons StopOther. The API's input_tokens leaves out the prompt
// cache; InputTokens here counts every input token (input_tokens +
// cache_creation_input_tokens + cache_read_input_tokens), CachedInputTokens
// the cache reads, TotalTokens input plus output.
//
// # Capabilities
//
// [DefaultCapabilities] declares native schemas (the Messages API's
// structured outputs, which constrain decoding: there is no strict flag
// for the format, and no schema-less JSON mode), strict tools, forced named
// tools and schemas together with tools, in the "anthropic" schema dialect,
// so enforce.ModeAuto picks the native mode. For a model without structured
// outputs pass [ToolCapabilities] in Options.Capabilities: ModeAuto then
// forces the submit_result tool.
//
// # Streaming
//
// A Provider is a [provider.Streamer]: [Provider.Stream] sends the request
// Generate sends, with "stream": true, and reads the Messages API's events
// as they come (a run with enforce.WithPartials uses it, and can stop a reply that is
// already wrong). It yields the text_delta pieces of text blocks, each
// tool_use block as a tool call (its id and name, then its input_json_delta
// pieces; calls are numbered from 0 in the order of the reply), and at
// message_stop the whole Response, the same as Generate's for that reply;
// thinking and signature deltas are not yielded. An HTTP error or an error
// event during the reply (overloaded_error, say) ends the sequence with the
// *provider.Error Generate would give; a stream that ends before
// message_stop is a truncated reply for provider.Collect. Leaving the range
// loop closes the connection.
//
// # Batches
//
// A Provider is a [provider.Batcher] over the Message Batches API (50%
// cheaper, results within 24 hours). [Provider.SubmitBatch] sends each
// request with its ID as custom_id and as params exactly what Generate
// sends to /v1/messages; [Provider.Batch] polls it; [Provider.BatchResults]
// streams the JSONL results, mapping each succeeded message as Generate
// does and each errored request to the [*provider.Error] Generate would
// return, expired and canceled requests to provider.ErrExpired and
// ErrCanceled; [Provider.CancelBatch] cancels. The API's processing_status
// in_progress and canceling are in progress; its one final status, ended,
// becomes [provider.BatchCanceled] when any request was cancelled, else
// [provider.BatchExpired] when any expired, else [provider.BatchEnded]. A
// batch holds at most [MaxBatchRequests] requests and [MaxBatchBytes]
// bytes, and its IDs must be 1 to 64 characters of [a-zA-Z0-9_-]; other
// batches are refused before any call. A Provider is not a
// [provider.BatchFinder]: a message batch keeps no metadata or name, so
// SubmitBatch sends no key and a batch is known by its ID alone.
//
// # Errors
//
// API failures are [*provider.Error] values: errors.Is(err,
// provider.ErrSchemaRejected) for a 400 about output_config or a tool's
// input_schema (the enforcement loop then falls back to prompt mode),
// provider.ErrRateLimited for 429 (rate_limit_error), ErrOverloaded for
// 529 (overloaded_error) and other 5xx, ErrAuth for 401 and 403,
// ErrInvalidRequest for other 4xx; errors.As gives the status, the API's
// error type (Code) and message and the request id. An error event in a
// stream, which arrives after the stream's 200, carries the status the API
// gives its type (529 for overloaded_error, 500 for api_error), so it is
// classified as the same error before the stream. The SDK retries 408,
// 409, 429 and 5xx twice by default; set option.WithMaxRetries in
// Options.RequestOptions to change that.
package anthropic
