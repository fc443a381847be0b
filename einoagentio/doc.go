// Package einoagentio puts agentio inside CloudWeGo Eino
// (github.com/cloudwego/eino), both ways.
//
// From Eino to agentio, [NewProvider] turns any Eino chat model
// (model.BaseChatModel, model.ToolCallingChatModel) into a
// provider.Provider and provider.Streamer: enforce, blueprint, eval and
// record then run on every model Eino reaches, with re-asks that name
// every violation, partial values while the model writes and a wrong
// reply stopped early (its stream closed).
//
//	p, err := einoagentio.NewProvider(chatModel, nil)
//	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
//
// From agentio into Eino, [NewChatModel] is a chat model whose answers are
// only ever valid output (it re-asks the wrapped model itself), usable
// wherever Eino takes a chat model, and [NewNode] a graph node
// (compose.Lambda) that emits the valid [Output], or, streamed, each
// partial value as the model writes and the valid output last. Each call
// of the wrapped model is told to the graph's callbacks as a chat model
// call (component "ChatModel", type "agentio"), so handlers see every
// attempt; a model that reports its own calls (components.Checker) is
// left to do so.
//
//	node, err := einoagentio.NewNode(chatModel, s, nil)
//	chain := compose.NewChain[[]*schema.Message, einoagentio.Output]().AppendLambda(node)
//
// The mapping: system prompt and conversation as Eino messages (system,
// user, assistant with its tool calls, tool); tools as schema.ToolInfo with
// the input schema as parameters, bound per call through WithTools on a
// model.ToolCallingChatModel and passed as model.WithTools otherwise; a
// forced tool as model.WithToolChoice(schema.ToolChoiceForced, name);
// MaxTokens as model.WithMaxTokens; finish reasons in each model's words
// ("stop", "length", "tool_calls", "content_filter", ...) and usage from
// ResponseMeta. Eino carries no output schema, so native mode is not
// offered, and no error types: errors keep a *provider.Error's kind, and
// Options.Classify maps a client's own errors.
//
// This is a module of its own, so that the agentio module never depends on
// Eino.
package einoagentio
