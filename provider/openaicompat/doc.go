// Package openaicompat is an agentio [provider.Provider] for any server
// that speaks OpenAI's Chat Completions API (POST {base}/chat/completions),
// written with net/http alone: it adds no dependency, so it lives in the
// agentio module itself.
//
// OpenAI, and the OpenAI-compatible endpoints of Gemini, Anthropic, Groq,
// OpenRouter, vLLM, LM Studio, llama.cpp and Ollama (/v1) all take it. For
// OpenAI's own features beyond Chat Completions (the Responses API, the
// SDK's retries), use the SDK-based adapter in the nested
// module github.com/agentio/agentio/provider/openai; for Anthropic's and
// Gemini's native APIs (their own structured outputs), provider/anthropic
// and provider/gemini. The agentio command uses this package, so that it
// can call every family without leaving the agentio module.
//
// Start with [New]:
//
//	p, err := openaicompat.New(&openaicompat.Options{
//		Model:  "gpt-4.1-mini",
//		APIKey: os.Getenv("OPENAI_API_KEY"),
//	})
//	if err != nil { ... }
//	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
//
// The adapter does not read the environment: pass the key, and the base
// URL of a server other than OpenAI's.
//
// # Mapping
//
// [Provider.Generate] makes one non-streaming call; [Provider.Stream] the
// same call, streamed (see Streaming). The system prompt becomes a
// system message; user, assistant (with tool_calls) and tool messages
// follow in order. Tools are function tools, their schemas sent as the
// author wrote them (key order kept); a named tool choice is sent as a
// forced function. An output spec becomes response_format: json_schema
// (with its name, description and strict flag) or json_object. MaxTokens
// becomes max_completion_tokens, or max_tokens with
// Options.LegacyMaxTokens. The reply's content (a string, or text parts),
// refusal, tool calls, finish_reason and token counts are mapped back.
//
// # Streaming
//
// The Provider is a [provider.Streamer], so enforce.Run with WithPartials reads its
// replies as they arrive and stops one that is already wrong.
// [Provider.Stream] sends Generate's request with "stream": true and
// "stream_options": {"include_usage": true} (left out with
// Options.OmitStreamUsage, for a server that refuses the field), reads the
// server-sent events (chat.completion.chunk deltas: content, refusal, and
// tool_calls in pieces by index; comments and CRLF line ends are fine) up
// to data: [DONE], and yields text and tool-call pieces, then the whole
// Response, equal to Generate's for the same reply. Reasoning deltas
// (reasoning_content, reasoning) are left out, as the refusal is: it comes
// in the Response. An error sent in the stream ({"error": {...}}) ends it
// with the error Generate gives for that body; a stream that ends before a
// finish_reason was cut off (no Response, no error); a line longer than
// [MaxStreamLine] is an error matching [ErrLineTooLong].
//
// # Capabilities
//
// [DefaultCapabilities] declares what OpenAI offers: strict native
// schemas in the "openai" dialect, JSON mode, tools, a forced named tool
// and schemas together with tools. A compatible server usually offers
// less: declare what it does with Options.Capabilities (Anthropic's
// endpoint ignores response_format, so declare tools only, in the
// "anthropic" dialect, and the loop uses tool mode).
//
// # Stop reasons
//
// finish_reason "stop" is [provider.StopEnd] (StopRefusal with a refusal,
// StopToolUse with tool calls), "length" is StopLength, "tool_calls" and
// "function_call" StopToolUse, "content_filter" StopContentFilter, any
// other value StopOther.
//
// # Errors
//
// Failures are [*provider.Error] values carrying the status, the server's
// message and code, and the request id: errors.Is(err,
// provider.ErrSchemaRejected) for a 400 or 422 about the schema or
// response_format of a request that sent one (the enforcement loop then
// falls back to prompt mode), ErrAuth for 401 and 403, ErrRateLimited for
// 429, ErrOverloaded for 5xx, ErrInvalidRequest for other 4xx. The error
// shapes of OpenAI ({"error":{"message":...}}), of Gemini (the same, in a
// list), {"error":"..."} and {"detail":...} are read; another body is
// quoted, cut short. A server that cannot be reached is an error of kind
// other that wraps the network error. The wait the server asks for
// (Retry-After, retry-after-ms, rate-limit reset headers) is in
// Error.RetryAfter, read by [provider.RetryAfterFrom]. The adapter never
// retries: wrap it with [provider.WithRetry] for that.
package openaicompat
