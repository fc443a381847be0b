// Package agentio is the root of a library that makes language-model agents
// keep a contract: structured inputs go in, schema-valid JSON comes out, or
// a typed error says exactly why not. This package holds no code; the work
// is done by the packages below it, which a host application wires together.
//
// # Packages
//
// One line each; internal/layout's tests hold this list, and the README's
// table, to the packages there are.
//
//	schema                  compile JSON Schemas; validate with every violation and its path; coerce; merge; Cursor
//	schema/dialect          a provider's flavour of JSON Schema: Convert, the changes it made, Restore
//	registry                named schemas: the Registry interface, in memory, in a directory
//	registry/sqlregistry    named schemas in a database/sql table (SQLite, PostgreSQL)
//	registry/registryhttp   any Registry served over HTTP, with ETags and problem+json errors
//	registry/registrytest   the conformance kit for a Registry of your own
//	extract                 the JSON in a reply: whole, fenced, in prose; repair; the streaming Reader
//	inputs                  parameters rendered as the <inputs> block before a prompt
//	provider                the Provider and Streamer interfaces, requests, responses, error kinds, batches
//	provider/providertest   a scripted provider for tests, and the test kit for adapters
//	provider/wiretest       a scripted HTTP server for an adapter's wire tests
//	provider/record         records a provider's calls, streams and batches to files, and replays them
//	provider/openaicompat   adapter for any Chat Completions server, on net/http alone
//	provider/ollama         adapter for Ollama's chat API, on net/http alone
//	provider/openai         adapter for OpenAI, on its SDK (its own module)
//	provider/anthropic      adapter for Anthropic's Messages API, on its SDK (its own module)
//	provider/gemini         adapter for the Gemini API, on its SDK (its own module)
//	enforce                 the loop: Run, Typed, the step-wise Enforcer, WithPartials
//	enforce/enforcetest     checks an adapter under the loop
//	crosscheck              contradictions between outputs, invariants inside one, grounding in sources
//	blueprint               agent blueprints (agent.json): parameters, prompts, output schemas, Run
//	batch                   the loop over provider batch APIs, resumable from a Store
//	batch/sqlstore          a batch Store in a database/sql database (SQLite, PostgreSQL)
//	batch/batchtest         the conformance kit for a batch Store of your own
//	eval                    a contract evaluated across models: reports, Compare against a baseline
//	cmd/agentio             the command: lint, fmt, extract, check, run, eval
//	otelagentio             OpenTelemetry spans and metrics for the loop (its own module)
//	mcpagentio              MCP tools checked against their schemas; agents served as tools (its own module)
//	langchaingoagentio      agentio inside LangChainGo: models as providers, an output parser, a chain step (its own module)
//	einoagentio             agentio inside Eino: chat models as providers, a valid-only chat model, a graph node (its own module)
//	genkitagentio           agentio inside Genkit: models as providers, a middleware that re-asks, typed data (its own module)
//
// # Imports
//
// Imports only run down these layers (internal/layout's TestLayers holds
// them; tests may import any package):
//
//	schema, extract, inputs, provider             none imports another
//	schema/dialect, registry, crosscheck,         each over one of the above
//	  provider/providertest, provider/record
//	the adapters, registry's stores and kits
//	enforce                                       the only package that knows the loop
//	blueprint, batch                              the only ones that know agent.json, batch APIs
//	eval, batch/sqlstore, otelagentio, mcpagentio, the framework modules
//	cmd/agentio
//
// internal/... are leaf helpers. One path syntax (internal/jsonpath) is
// written and read everywhere a location is shown: violations, coercions,
// crosscheck rules, lint positions. A nested module imports only the public
// packages of the others, so each can be released on its own.
package agentio
