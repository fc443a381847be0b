// Package record records the calls a [provider.Provider] makes to a store on
// disk and replays them offline: run an agent once against the real model,
// then rerun it, in a test, an evaluation or a bug report, without a network,
// an API key or a bill, and get the very same replies.
//
//	p, err := record.New(openaiProvider, "testdata/calls", record.RecordMissing, &record.Options{
//		Model:   "gpt-4.1",
//		Secrets: []string{os.Getenv("OPENAI_API_KEY")},
//	})
//	res, err := enforce.Run(ctx, p, req, s)
//
// It sits beside the adapters, between the enforcement loop and a real
// provider, and imports only package provider. It is its own package, not
// part of providertest, because it serves production-shaped runs: the
// replies are whatever the real model said, kept for evaluation and
// regression runs, where providertest scripts replies a test invents.
//
// # Modes
//
// [Record] always calls the wrapped provider and overwrites the
// recording; [Replay] never calls it and fails on a request it has no
// recording for; [RecordMissing] replays what it has and records what it
// has not.
//
// # Store
//
// A store is a directory of JSON files, one per request, named by the
// SHA-256 of the request's canonical encoding (the model label of
// [Options] and every field of the [provider.Request], read from the type
// itself, so that a field the type gains enters the key; after redaction)
// and indented so that a diff of two runs reads well. A file holds the request, and the reply: the Response of a Generate
// call, or the chunks of a Stream call in order (so a replay yields the same
// partials), or the error of a call that failed. A stream the caller left
// early is recorded up to where it stopped reading. Beside them,
// capabilities.json keeps the capabilities of the provider recorded, so
// that a replay without one reports them and the enforcement loop asks in
// the mode it asked in when recording. It is written before the first
// recording; a call whose write of it fails returns that error, and the
// next call tries again.
//
// # Batches
//
// When the provider wrapped is a [provider.Batcher] (or when there is
// none, replaying), the recorder is a [provider.BatchFinder] too, and a
// batch job (package batch) records and replays like single calls. Under
// batches/ in the store, a file per submission, named by the SHA-256 of
// the model label and the requests' IDs and redacted trees (not the key
// the job gave SubmitBatch, which is new in every run), keeps the
// requests, the batch or error the provider answered, each state its
// polls saw, its results once downloaded and its cancellation; limits.json
// keeps the provider's [provider.BatchLimits], so that a replay splits its
// rounds alike. The same requests submitted again (after a refusal, or a
// batch that expired or was cancelled before it ran) get a file of their
// own, named with "-2", "-3"...: a replay answers the n-th submission of
// them with the n-th recorded, and [RecordMissing] asks the provider
// again when the last one recorded failed. A replay answers the n-th poll
// with the n-th state recorded, and misses past a recording that stops
// before the batch was done. Without a provider, BatchRequestSize is the length of the
// request's JSON: a job whose provider limits batches by bytes may split
// otherwise on replay, and then misses. FindBatch asks the wrapped
// Batcher when it can find batches, and reports none otherwise and when
// replaying.
//
// # Secrets
//
// [Options] names request fields to blank out and secret strings (API keys)
// to replace wherever they occur in what is recorded: the request, the
// reply, the error, a batch's states. The caller still gets the provider's
// values unchanged. The key is computed after redaction, so a replay
// matches; a file that would still contain a secret is not written.
//
// # Limits
//
// A Request does not name its model (the adapter does), so the model is the
// label [Options.Model] gives. Text is stored as JSON strings: bytes that
// are not valid UTF-8 are written as U+FFFD, and an empty raw JSON value
// (tool call arguments, a schema) replays as nil. A recording made by
// Generate serves a Stream call as [provider.Chunks] splits a whole reply,
// so its partials are not those a streamed recording would give; a stream
// its caller left early replays only as far as it was read.
//
// # Errors
//
// A replay that finds no recording returns a [*MissError] matching
// [ErrMiss]; it names the first field where the request differs from the
// nearest recording. A store file that does not parse or was edited by hand
// out of shape is a [*FileError]; so is a capabilities.json that does not
// parse, which [New] reports. A recording that cannot be written is an
// error of the call that made it, or, for a stream its caller had stopped
// reading, a message to [Options.Logger].
package record
