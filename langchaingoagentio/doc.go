// Package langchaingoagentio puts agentio inside LangChainGo
// (github.com/tmc/langchaingo), both ways.
//
// From LangChainGo to agentio, [NewProvider] turns any llms.Model into a
// provider.Provider (and provider.Streamer): enforce, blueprint, eval and
// record then run on every model LangChainGo reaches, with re-asks that
// name every violation, partial values while the model writes and a wrong
// reply stopped early.
//
//	p, err := langchaingoagentio.NewProvider(llm, nil)
//	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
//
// From agentio into LangChainGo, [NewParser] is an output parser
// (schema.OutputParser, for LLMChain.OutputParser through [Parser.Any])
// whose format instructions carry the schema and whose Parse finds,
// validates and decodes the JSON of a reply or returns a [*ParseError]
// with every violation and the re-ask; [NewChain] is a chain step
// (chains.Chain) that re-asks by itself until the output is valid.
//
//	chain, err := langchaingoagentio.NewChain(llm, s, nil)
//	out, err := chains.Call(ctx, chain, map[string]any{"input": "Review the diff."})
//
// The mapping: the system prompt is a system message, the conversation's
// turns are human, AI (with its tool calls) and tool messages; tools are
// llms.Tool functions with the input schema as parameters; a forced tool is
// llms.ToolChoice naming the function; a JSON-object output is
// llms.WithJSONMode; MaxTokens is llms.WithMaxTokens. LangChainGo carries no
// output schema, so native mode is not offered: set
// Options.Capabilities.Tools and ForcedTool for a model whose client passes
// tools on, and enforce uses tool mode; otherwise the schema goes into the
// prompt. Stop reasons are read in each client's own words ("stop",
// "end_turn", "length", "max_tokens", "tool_calls", "refusal",
// "content_filter", ...), usage from GenerationInfo under the names the
// clients use, and an llms.Error's code gives the provider error kind
// (rate limit and quota: provider.ErrRateLimited; authentication:
// provider.ErrAuth; invalid request, not found, token limit:
// provider.ErrInvalidRequest; unavailable, timeout: provider.ErrOverloaded).
//
// This is a module of its own, so that the agentio module never depends on
// LangChainGo.
package langchaingoagentio
