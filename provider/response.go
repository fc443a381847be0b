package provider

// A Response is a model's reply to one [Request].
type Response struct {
	// Text is the reply's text content (all text parts joined).
	Text string `json:"text,omitempty"`
	// ToolCalls are the tool calls the model made, in order.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Refusal is the model's refusal message, when the API reports one
	// separately from the text.
	Refusal string `json:"refusal,omitempty"`
	// StopReason is why the model stopped, normalised.
	StopReason StopReason `json:"stop_reason,omitempty"`
	// RawStopReason is the provider's own value ("stop", "max_tokens", ...).
	RawStopReason string `json:"raw_stop_reason,omitempty"`
	// Usage is the token usage of this call.
	Usage Usage `json:"usage"`
	// Model is the model that answered, when the provider reports it.
	Model string `json:"model,omitempty"`
	// Provider names, when a Provider choosing among several ([Fallback])
	// answered, the one of them that gave this reply. Adapters leave it
	// empty.
	Provider string `json:"provider,omitempty"`
	// Retries is how many times a Provider that retries ([WithRetry])
	// made the call again before this reply, each after a failure it
	// could retry. Adapters leave it 0.
	Retries int `json:"retries,omitempty"`
}

// StopReason is a provider's reason for ending its reply, normalised across
// providers.
type StopReason string

// The stop reasons. An empty StopReason means the provider did not say; it
// is treated like StopEnd.
const (
	// StopEnd: the model finished its answer.
	StopEnd StopReason = "end"
	// StopLength: the reply hit the token limit and is truncated.
	StopLength StopReason = "length"
	// StopToolUse: the model stopped to call a tool.
	StopToolUse StopReason = "tool_use"
	// StopRefusal: the model refused to answer.
	StopRefusal StopReason = "refusal"
	// StopContentFilter: the provider's content filter stopped the reply.
	StopContentFilter StopReason = "content_filter"
	// StopOther: any other reason.
	StopOther StopReason = "other"
)

// Usage counts the tokens of one or more calls.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// TotalTokens is what the provider reports as total; when it reports
	// none, adapters set InputTokens + OutputTokens.
	TotalTokens int `json:"total_tokens"`
	// CachedInputTokens is the part of InputTokens served from a prompt
	// cache, where reported.
	CachedInputTokens int `json:"cached_input_tokens,omitempty"`
	// ReasoningTokens is the part of OutputTokens spent on hidden
	// reasoning, where reported.
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
}

// Add returns the field-wise sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:       u.InputTokens + v.InputTokens,
		OutputTokens:      u.OutputTokens + v.OutputTokens,
		TotalTokens:       u.TotalTokens + v.TotalTokens,
		CachedInputTokens: u.CachedInputTokens + v.CachedInputTokens,
		ReasoningTokens:   u.ReasoningTokens + v.ReasoningTokens,
	}
}
