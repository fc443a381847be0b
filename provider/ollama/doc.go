// Package ollama is an agentio [provider.Provider] for a local or remote
// Ollama server, speaking its native chat API (POST /api/chat) with
// net/http alone: it adds no dependency, so it lives in the agentio module
// itself.
//
// Start with [New]:
//
//	p, err := ollama.New(&ollama.Options{Model: "qwen3"}) // http://localhost:11434
//	if err != nil { ... }
//	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
//
// The adapter does not read the environment. To honour Ollama's own
// OLLAMA_HOST variable, pass it: Options{Model: "qwen3", BaseURL:
// os.Getenv("OLLAMA_HOST")} ("" keeps the default, [DefaultBaseURL]; a
// bare host:port such as "0.0.0.0:11434", as OLLAMA_HOST is often written,
// is read as http://host:port).
//
// # Mapping
//
// [Provider.Generate] makes one non-streaming chat call (stream false);
// [Provider.Stream] the same call, streamed (see Streaming). The system
// prompt becomes a system message; user, assistant (with tool_calls, their
// arguments as JSON objects) and tool messages (with tool_name and
// tool_call_id) are sent in order; tools are function tools, their schemas
// sent as raw bytes (the author's key order); an output spec becomes
// format: the schema itself, or "json" for [provider.FormatJSONObject];
// MaxTokens becomes options.num_predict and Options.NumCtx options.num_ctx. The reply's message content,
// tool_calls (an id is made up, call_<n>, when the server sends none),
// done_reason and token counts (prompt_eval_count as input, eval_count as
// output) are mapped back; the thinking field of reasoning models is left
// out.
//
// # Streaming
//
// The Provider is a [provider.Streamer], so enforce.Run with WithPartials reads its
// replies as they arrive and stops one that is already wrong.
// [Provider.Stream] sends Generate's request with stream true and reads
// the NDJSON lines of the reply: each piece of content is yielded as
// text, each tool call whole (Ollama sends calls whole, their arguments a
// JSON object), and the done line brings the whole Response, equal to
// Generate's for the same reply. Thinking is left out, as in Generate. An
// error line ({"error": "..."}) ends the stream with the error Generate
// gives for that body; a stream that ends before its done line was cut
// off (no Response, no error); a line longer than [MaxStreamLine] is an
// error matching [ErrLineTooLong].
//
// # Capabilities
//
// [DefaultCapabilities] declares native schemas (format constrains
// decoding to the schema, with no strict flag), JSON mode and tools, in the
// "ollama" schema dialect, so enforce.ModeAuto picks the native mode. Ollama
// has no tool_choice: it cannot be forced to call a named tool, so
// ForcedTool is false, and a request's tool choice is not sent (except
// ToolChoiceNone, which leaves the tools out). enforce.ModeTool still
// works, as a request the model may decline (the loop then re-asks).
//
// # Stop reasons
//
// done_reason "stop" is [provider.StopEnd] (StopToolUse when the reply
// calls tools), "length" is StopLength (a truncated reply: the loop asks
// for a shorter answer or raises the limit), any other value StopOther.
//
// # Errors
//
// Failures are [*provider.Error] values carrying the status and Ollama's
// {"error": "..."} message: errors.Is(err, provider.ErrSchemaRejected) for
// a 400 or 500 about the format or schema of a request that sent one (the
// enforcement loop then falls back to prompt mode), ErrInvalidRequest for
// other 4xx (404: the model is not pulled), ErrRateLimited for 429,
// ErrAuth for 401 and 403 (a proxy in front of Ollama), ErrOverloaded for
// other 5xx. A server that cannot be reached is an error of kind other
// that wraps the network error. The wait a server or proxy asks for
// (Retry-After and the like) is in Error.RetryAfter, read by
// [provider.RetryAfterFrom]. The adapter never retries: wrap it with
// [provider.WithRetry] for that.
package ollama
