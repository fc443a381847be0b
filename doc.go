// Package agentio is the root of a library that makes language-model agents
// keep a contract: structured inputs go in, schema-valid JSON comes out, or
// a typed error says exactly why not. This package holds no code; the work
// is done by the packages below it, which a host application wires together.
//
// # Packages
//
//	schema              compile JSON Schemas; validate with every violation and its path;
//	                    coerce near misses (lenient mode); merge; the Cursor over a value
//	schema/dialect      a provider's flavour of JSON Schema: Convert, the changes, Restore
//	registry            named schemas: the Registry interface, memory, a directory;
//	                    registry/sqlregistry, registry/registryhttp, registry/registrytest
//	extract             the JSON in a reply: whole, fenced, in prose; repair; the streaming Reader
//	inputs              parameters rendered as the <inputs> block
//	provider            the Provider and Streamer interfaces, requests, responses, error kinds;
//	                    provider/providertest (scripted provider, adapter kit), provider/wiretest,
//	                    the adapters (openaicompat, ollama here; openai, anthropic, gemini as modules)
//	enforce             the loop: Run, Typed, the step-wise Enforcer, WithPartials; enforce/enforcetest
//	batch               the loop over provider batch APIs: rounds of re-asks, a Store to resume
//	                    after a crash; batch/sqlstore (SQLite, PostgreSQL), batch/batchtest
//	crosscheck          contradictions between outputs and invariants inside one
//	blueprint           agent.json: parameters, prompts, output schemas, Run
//	cmd/agentio         the command: lint, fmt, extract, check, run
//	otelagentio, mcpagentio   OpenTelemetry and MCP, each its own module
//
// # Imports
//
// Imports only run down:
//
//	cmd/agentio ──► blueprint ──► enforce ──► {schema, schema/dialect, extract, provider}
//	                    └──► registry ──► schema          crosscheck ──► schema
//	batch ──► enforce ──► provider    batch/sqlstore ──► batch
//	schema/dialect ──► schema        adapters (provider/...) ──► provider
//	internal/...     leaf helpers (jsonpath, jsontree, schematree, clip, ...)
//
// schema, extract, inputs and provider import none of each other; enforce is
// the only package that knows the loop, blueprint the only one that knows
// agent.json. One path syntax (internal/jsonpath) is written and read
// everywhere a location is shown: violations, coercions, crosscheck rules,
// lint positions. A nested module imports only the public packages of the
// others, so each can be released on its own.
package agentio
