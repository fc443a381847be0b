package provider

import "encoding/json"

// A Request is everything sent to a model in one call. Providers must not
// modify it.
type Request struct {
	// System is the system prompt; empty means none.
	System string
	// Messages is the conversation, oldest first. It normally starts and
	// ends with a user message (or a tool message answering the last
	// assistant tool call).
	Messages []Message
	// Output, when not nil, asks for structured output in the provider's
	// native mode. Only meaningful when Capabilities().NativeSchema or
	// JSONMode is set.
	Output *OutputSpec
	// Tools the model may call.
	Tools []Tool
	// ToolChoice says whether and which tool the model must call. The zero
	// value leaves the choice to the model (ToolChoiceAuto).
	ToolChoice ToolChoice
	// MaxTokens caps the reply's length in tokens; 0 means the provider's
	// default.
	MaxTokens int
}

// Role is the author of a [Message].
type Role string

// The roles of a conversation.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool messages answer an assistant's tool call (Message.ToolCallID).
	RoleTool Role = "tool"
)

// A Message is one turn of the conversation.
type Message struct {
	Role Role `json:"role"`
	// Content is the message text. For RoleTool it is the tool's result.
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message made.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID is, for RoleTool, the ID of the call this message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// IsError marks a RoleTool message that reports a failed call.
	IsError bool `json:"is_error,omitempty"`
}

// UserMessage returns a user message with the given text.
func UserMessage(text string) Message { return Message{Role: RoleUser, Content: text} }

// A ToolCall is a model's request to call a tool.
type ToolCall struct {
	// ID identifies the call; a tool message answers it by this ID.
	ID string `json:"id"`
	// Name is the tool's name.
	Name string `json:"name"`
	// Arguments is the raw JSON the model produced as the tool's input. It
	// is not guaranteed to be valid JSON.
	Arguments json.RawMessage `json:"arguments"`
}

// A Tool is a function the model may call.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the arguments, already in the
	// provider's dialect.
	InputSchema json.RawMessage `json:"input_schema"`
	// Strict asks the provider to guarantee the arguments conform to
	// InputSchema, where it can.
	Strict bool `json:"strict,omitempty"`
}

// ToolChoiceMode says how the model must use the request's tools.
type ToolChoiceMode string

// The tool choice modes.
const (
	// ToolChoiceAuto lets the model decide (the zero value).
	ToolChoiceAuto ToolChoiceMode = ""
	// ToolChoiceNone forbids tool calls.
	ToolChoiceNone ToolChoiceMode = "none"
	// ToolChoiceRequired makes the model call some tool.
	ToolChoiceRequired ToolChoiceMode = "required"
	// ToolChoiceTool makes the model call the tool named in ToolChoice.Name.
	ToolChoiceTool ToolChoiceMode = "tool"
)

// ToolChoice says whether, and which, tool the model must call. The zero
// value is ToolChoiceAuto.
type ToolChoice struct {
	Mode ToolChoiceMode `json:"mode,omitempty"`
	// Name is the tool to call when Mode is ToolChoiceTool.
	Name string `json:"name,omitempty"`
}

// OutputFormat is the kind of structured output asked of the provider.
type OutputFormat string

// The output formats.
const (
	// FormatJSONSchema constrains the output to OutputSpec.Schema (the zero
	// value).
	FormatJSONSchema OutputFormat = ""
	// FormatJSONObject asks for any JSON object (a provider's "JSON mode").
	FormatJSONObject OutputFormat = "json_object"
)

// An OutputSpec asks a provider for structured output in its native mode.
type OutputSpec struct {
	// Name of the schema, as some APIs require one ("output" if empty is a
	// reasonable adapter default).
	Name string `json:"name,omitempty"`
	// Description of the output, shown to the model where the API allows.
	Description string `json:"description,omitempty"`
	// Schema is the JSON Schema, already in the provider's dialect.
	// Ignored for FormatJSONObject.
	Schema json.RawMessage `json:"schema,omitempty"`
	// Strict asks for guaranteed conformance where the provider offers it.
	Strict bool `json:"strict,omitempty"`
	// Format is the kind of output; the zero value is FormatJSONSchema.
	Format OutputFormat `json:"format,omitempty"`
}
