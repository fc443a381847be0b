// Package openai is an agentio [provider.Provider] for OpenAI and
// OpenAI-compatible servers (vLLM, llama.cpp server, Ollama's /v1, LM
// Studio), built on the official SDK github.com/openai/openai-go/v3. It is
// a module of its own, so that the agentio module never depends on an SDK.
//
// Start with [New]:
//
//	p, err := openai.New(&openai.Options{Model: "gpt-4.1-mini"}) // key from OPENAI_API_KEY
//	if err != nil { ... }
//	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
//
// A local server needs only its base URL:
//
//	p, err := openai.New(&openai.Options{Model: "qwen3", BaseURL: "http://localhost:11434/v1"})
//
// # Mapping
//
// The adapter calls Chat Completions by default, or the Responses API
// with Options.API = [APIResponses]. The system prompt, user, assistant
// (with tool calls) and tool messages, the tools (their schemas sent with
// the author's key order; parallel_tool_calls false beside a strict tool),
// the tool choice (a named tool when the endpoint can be forced), the
// output spec (response_format json_schema with name,
// description and strict, or json_object) and the token limit
// (max_completion_tokens or max_tokens, see [MaxTokensParam]) are mapped to
// the request. The reply's text, tool calls, refusal, finish reason
// (normalised to a [provider.StopReason]) and usage, with cached input and
// reasoning tokens, are mapped back. The Responses API is used without
// server-side state (store false): each request carries the conversation.
//
// # Capabilities
//
// With OpenAI's own endpoint a Provider declares native strict schemas in
// the "openai" dialect (see dialect.OpenAI), JSON mode, tools, forced
// tools and schemas together with tools. With any other base URL it
// declares native (non-strict, passthrough) schemas, JSON mode and tools,
// since compatible servers often ignore strict and the object form of
// tool_choice; a named tool choice is then sent as "required". Options.
// Capabilities overrides either.
//
// # Batches
//
// A Provider is a [provider.BatchFinder] over OpenAI's Batch API (50%
// cheaper, results within 24 hours). [Provider.SubmitBatch] uploads one
// JSONL line per request (custom_id, POST, /v1/chat/completions or
// /v1/responses, and the body Generate would send) with the Files API and
// creates a batch over it, the key in its metadata under
// [BatchKeyMetadata]; [Provider.Batch] polls it (validating, in_progress,
// finalizing and cancelling are in progress; completed is ended; expired,
// cancelled and failed are themselves); [Provider.BatchResults] streams the
// output file, then the error file, mapping each reply as Generate does and
// each failure to the [*provider.Error] Generate would return (the codes
// batch_expired and batch_cancelled to provider.ErrExpired and
// ErrCanceled); [Provider.CancelBatch] cancels; [Provider.FindBatch] lists
// the batches to find one by its key. A batch holds at most
// [MaxBatchRequests] requests and [MaxBatchBytes] bytes of input file;
// larger ones are refused before any call. OpenAI-compatible servers
// rarely offer the Batch API.
//
// # Errors
//
// API failures are [*provider.Error] values: errors.Is(err,
// provider.ErrSchemaRejected) for a 400 about the response format or a tool
// schema (the enforcement loop can then fall back to prompt mode),
// provider.ErrRateLimited for 429, ErrAuth for 401 and 403, ErrOverloaded
// for 5xx, ErrInvalidRequest for other 4xx; errors.As gives the status, the
// provider's message and code, and the request id. The SDK retries 429 and
// 5xx twice by default; set option.WithMaxRetries in Options.RequestOptions
// to change that.
//
// # Streaming
//
// A Provider is a [provider.Streamer]: [Provider.Stream] sends the same
// request with streaming on (Chat Completions with stream_options
// include_usage, so the final chunk carries the usage; the Responses API's
// event stream) and yields text deltas and tool-call argument deltas as
// they arrive, then the whole reply. a run with enforce.WithPartials uses it to show partial
// values and to stop a reply that is already wrong.
package openai
