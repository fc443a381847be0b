// Package genkitagentio puts agentio inside Firebase Genkit for Go
// (github.com/firebase/genkit/go), both ways.
//
// From Genkit to agentio, [NewProvider] turns any Genkit model (ai.Model:
// one a plugin defines, or ai.NewModel) into a provider.Provider and
// provider.Streamer: enforce, blueprint, eval and record then run on every
// model Genkit reaches, native mode included (the schema sent as Genkit's
// constrained output), with re-asks that name every violation, partial
// values while the model writes and a wrong reply stopped early.
//
//	p, err := genkitagentio.NewProvider(model, &genkitagentio.Options{Capabilities: provider.Capabilities{NativeSchema: true}})
//	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
//
// From agentio into Genkit, [Middleware] is a model middleware that holds a
// generate call to its output schema: it reads each reply as agentio does,
// re-asks the model within the call with the bad reply and every violation
// until a reply is valid (lenient coercion, repair and validators as the
// enforce options say), and leaves the valid JSON as the response's text,
// so Genkit's own output parsing hands back the typed value; a call that
// ends without one returns enforce's typed error. [GenerateData] is
// genkit.GenerateData under it:
//
//	review, resp, err := genkitagentio.GenerateData[Review](ctx, g, nil, ai.WithModel(m), ai.WithPrompt("Review the diff."))
//
// The mapping: the system prompt and the conversation as Genkit messages
// (system, user, model with its tool requests, tool responses); tools as
// ai.ToolDefinition with the input schema; a forced tool as tool choice
// "required" with that tool alone (Genkit's tool choice names no tool);
// the output schema as ModelRequest.Output, constrained; MaxTokens as
// ai.GenerationCommonConfig when Options.Config is not set; finish reasons
// "stop", "length", "blocked" (a refusal), usage from GenerationUsage; and
// a core.GenkitError's status gives the provider error kind
// (RESOURCE_EXHAUSTED: provider.ErrRateLimited; UNAUTHENTICATED,
// PERMISSION_DENIED: provider.ErrAuth; INVALID_ARGUMENT, NOT_FOUND,
// FAILED_PRECONDITION, OUT_OF_RANGE, UNIMPLEMENTED:
// provider.ErrInvalidRequest; UNAVAILABLE, DEADLINE_EXCEEDED, INTERNAL:
// provider.ErrOverloaded).
//
// This is a module of its own, so that the agentio module never depends on
// Genkit.
package genkitagentio
