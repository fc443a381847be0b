// Package batch enforces output contracts over a provider's batch API
// (OpenAI's Batch API, Anthropic's Message Batches, Gemini's batch mode):
// half the price of synchronous calls, re-asks only for the items that
// failed, and resumable after a crash.
//
// A [Runner] takes [Item]s (an ID, an enforce.Request and the
// enforce.Enforcer that holds the reply to its schema), submits every
// first attempt as one batch through a [provider.Batcher], polls it,
// checks each reply with the same loop as enforce.Run (modes, lenient
// validation, repair, validators, failure classes, token budget), and
// submits a next round holding only the re-asks, until each item is valid
// or has spent its budget. Each outcome is yielded as it is settled, a
// [Settled] with the *enforce.Result and error enforce.Run would have
// returned for that item:
//
//	r, err := batch.New(b, batch.NewMemory(nil), batch.WithEnforcer(e))
//	for s, err := range r.Run(ctx, items) {
//		if err != nil { ... } // stopped: call Run again to resume
//		use(s.ID, s.Result, s.Err)
//	}
//
// A run of an agent blueprint is an Item too: blueprint.Prepare returns
// its Enforcer (the agent's schema, options and invariants) and Request,
// and blueprint.NewEnforcedResult turns the outcome's Result into the
// run's blueprint.Result, as blueprint.Run would have returned it.
//
// # Crash safety
//
// Every step goes to a [Store] before the next one: the items' state, and
// each batch intended (its key, round and request IDs) before
// SubmitBatch, then its provider ID after. A new Runner over the same
// store resumes: a batch intended but without an ID is looked up by its
// key when the Batcher is a [provider.BatchFinder], and submitted (again,
// possibly) when it is not; batches in flight are polled; outcomes
// settled but not handed out are yielded first. A request's ID names its
// item and attempt ("doc7-2"), so a stale or repeated result is never
// settled twice. Delivery is at least once: [Runner.Results] lists what
// the store keeps. [NewMemory] keeps the state in memory;
// package batch/sqlstore keeps it in SQLite or PostgreSQL.
//
// # Storage
//
// An item is a small record (its status, the enforcement state's
// counters, the outcome once settled), rewritten at each step, and a log
// appended to: the first request once, then for each attempt its reply
// and the messages the next request adds. What a run writes per attempt
// is what the attempt adds, so an item's storage grows linearly with its
// re-asks. A run reads whole only the pending items; of the others it
// reads the IDs, and it hands out the settled ones as it reads them.
//
// # Shutdown
//
// Ending Run's ctx (a SIGTERM on deploy) or stopping its loop stops this
// process only: the batches in flight keep running at the provider, paid
// for, and the next run takes them up from the store. Run records what it
// had handed out before it returns (within [WithStopTimeout]) and, once
// the caller stopped the loop, yields nothing more: a late error goes to
// [WithLogger]'s logger. [Runner.CancelBatches] cancels the remote batches
// when the job is abandoned, under a context of its own.
//
// # Limits and faults
//
// A round is split into as many batches as the provider's
// [provider.BatchLimits] need. Items an expired or cancelled batch did not
// run, items of a failed batch, and items with a retryable per-request
// error (rate limited, overloaded) are submitted again in the next round,
// not counted as re-asks, at most [WithMaxResubmits] times; other
// per-request errors end the item with the provider's error, as
// enforce.Run ends on a failed call. enforce.Run's fallback to prompt mode
// when the provider rejects a schema is not applied: such an item ends
// with the provider's error.
//
// # Memory
//
// A run keeps in memory the items given and, for each pending item, its
// requests and attempts; an item leaves memory once settled and handed
// out. [MemoryOptions.DropDelivered] makes a Memory store forget handed
// out outcomes too, so that neither grows with the items settled.
package batch
