// Package gemini is an agentio [provider.Provider] for the Gemini API's
// generateContent, built on the official SDK google.golang.org/genai. It
// is a module of its own, so that the agentio module never depends on an
// SDK.
//
// Start with [New]:
//
//	p, err := gemini.New(&gemini.Options{Model: "gemini-2.5-flash"}) // key from GEMINI_API_KEY
//	if err != nil { ... }
//	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
//
// For Vertex AI, build the SDK client yourself and pass it in
// Options.Client.
//
// # Mapping
//
// The system prompt is the systemInstruction; user turns are user
// contents, assistant turns model contents with their text and
// functionCall parts (an assistant turn with neither is left out, as the
// API refuses empty turns); tool results are functionResponse parts of a
// user turn, named after the call they answer, with the result under
// "output" ("error" for a failed call), consecutive results in one turn.
// Tools are functionDeclarations whose parametersJsonSchema is the input
// schema's bytes; the tool choice maps to the function calling mode (auto,
// NONE, ANY for "required", ANY with one allowed name for a named tool);
// the output spec to responseMimeType application/json with
// responseJsonSchema (the schema as dialect.Convert rendered it in the
// "gemini" dialect, with propertyOrdering set from the schema's property
// order, since the API reorders keys otherwise), or without a schema for
// JSON mode. MaxTokens is maxOutputTokens; Options.Temperature and
// StopSequences go with every request.
//
// The first candidate's text parts are joined (thought parts left out) and
// its functionCall parts become calls, their arguments re-encoded from the
// object the API sends; a call without an id gets one of the adapter's own,
// which is never sent back. A call's thought signature (thinking models
// sign their calls, and Gemini 3 refuses a call sent back without its
// signature) rides in the call's id after "~sig:", and goes back with the
// call when a later request carries it, as a re-ask in tool mode does.
//
// # Streaming
//
// A Provider is a [provider.Streamer]: [Provider.Stream] sends the same
// request to streamGenerateContent and yields the reply as the API sends
// it, so that a run with enforce.WithPartials can check a value while it is written and stop
// a reply that has already gone wrong. Text comes in pieces (thought parts
// are never yielded); a function call comes whole, as one tool call piece
// with its id (thought signature included), name and arguments. The last
// chunk carries the Response that Generate would have returned for the same
// reply. An API error, before the reply or in the middle of it (the API
// then sends its error object instead of an event, possibly over several
// lines), ends the sequence with the *provider.Error that Generate would
// give; a stream that stops before a finish reason is read as cut off
// (provider.Collect reports a truncated reply), and a dropped connection
// is an error matching io.ErrUnexpectedEOF. Leaving the range loop closes
// the connection.
//
// # Stop reasons and usage
//
// STOP is [provider.StopEnd] (StopToolUse when the reply calls a function),
// MAX_TOKENS is StopLength (the enforcement loop then asks for a shorter
// answer), SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII and the
// image reasons (IMAGE_SAFETY, IMAGE_PROHIBITED_CONTENT, IMAGE_RECITATION)
// are StopContentFilter (never re-asked), others StopOther. A
// prompt blocked before any candidate (promptFeedback.blockReason) is a
// StopRefusal with the reason as the Refusal. Usage: InputTokens is
// promptTokenCount, CachedInputTokens cachedContentTokenCount, OutputTokens
// the candidates' tokens plus thoughtsTokenCount (billed as output), which
// is also ReasoningTokens.
//
// # Batches
//
// A Provider is a [provider.BatchFinder] over the Gemini API's batch mode
// (half price, results within 24 hours). [Provider.SubmitBatch] creates a
// batch job of inlined requests, each the contents and config Generate
// would send (converted by the SDK as it converts them for
// generateContent), with its ID under "key" in its metadata and the batch
// key as the job's display name; [Provider.Batch] polls it
// (JOB_STATE_PENDING and RUNNING are in progress, SUCCEEDED is ended,
// FAILED, CANCELLED and EXPIRED are themselves; the request counts and a
// failed batch's error are read from the API's reply, which the SDK leaves
// out of its BatchJob, when the client is the one [New] builds);
// [Provider.BatchResults] maps each inlined response as Generate does, and
// each request's error to the [*provider.Error] Generate would return (a
// CANCELLED one to provider.ErrCanceled, a DEADLINE_EXCEEDED one in an
// expired batch to ErrExpired); [Provider.CancelBatch] cancels;
// [Provider.FindBatch] lists the batches to find one by its display name.
// Inlined requests are limited to [MaxBatchBytes] (the API's 20 MB, less
// room for the rest of the body); batches that need an input file are not
// supported, nor is batch mode on Vertex AI.
//
// # Errors
//
// API failures are [*provider.Error] values: errors.Is(err,
// provider.ErrSchemaRejected) for an INVALID_ARGUMENT about the response
// schema or a function's parameters, or the bare "Request contains an
// invalid argument." to a request that carried one (the enforcement loop
// then falls back to prompt mode), provider.ErrRateLimited for 429 (RESOURCE_EXHAUSTED),
// ErrOverloaded for 503 (UNAVAILABLE) and other 5xx, ErrAuth for 401, 403
// and the 400 the API answers a bad key with (API_KEY_INVALID),
// ErrInvalidRequest for other 4xx; errors.As gives the status, the API's
// status name (Code) and message, cut short. A proxy's error body that is
// not the API's JSON (plain text, {"message": ...}) keeps its HTTP status
// and its text as the message. The SDK does not retry generateContent.
package gemini
