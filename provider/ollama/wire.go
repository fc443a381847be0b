package ollama

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agentio/agentio/internal/clip"
	"github.com/agentio/agentio/provider"
)

// The /api/chat wire format, as much of it as the adapter uses.
type (
	chatRequest struct {
		Model    string          `json:"model"`
		Messages []chatMessage   `json:"messages"`
		Tools    []chatTool      `json:"tools,omitempty"`
		Format   json.RawMessage `json:"format,omitempty"`
		Stream   bool            `json:"stream"`
		Options  *chatOptions    `json:"options,omitempty"`
	}
	chatOptions struct {
		NumPredict int `json:"num_predict,omitempty"`
		NumCtx     int `json:"num_ctx,omitempty"`
	}
	chatMessage struct {
		Role       string         `json:"role"`
		Content    string         `json:"content"`
		Thinking   string         `json:"thinking,omitempty"`
		ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
		ToolName   string         `json:"tool_name,omitempty"`
		ToolCallID string         `json:"tool_call_id,omitempty"`
	}
	chatToolCall struct {
		ID       string           `json:"id,omitempty"`
		Function chatCallFunction `json:"function"`
	}
	chatCallFunction struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	chatTool struct {
		Type     string       `json:"type"`
		Function chatFunction `json:"function"`
	}
	chatFunction struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	chatResponse struct {
		Model           string      `json:"model"`
		Message         chatMessage `json:"message"`
		Done            bool        `json:"done"`
		DoneReason      string      `json:"done_reason"`
		PromptEvalCount int         `json:"prompt_eval_count"`
		EvalCount       int         `json:"eval_count"`
		Error           string      `json:"error"`
	}
)

// emptyObjectSchema is the input schema of a tool that declares none.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// messages maps the conversation. A tool message carries the id of the
// call it answers and, found from the assistant message that made the
// call, the tool's name (what Ollama's chat templates use).
func messages(in []provider.Message) ([]chatMessage, error) {
	out := make([]chatMessage, 0, len(in))
	names := map[string]string{} // call id -> tool name
	for i, m := range in {
		switch m.Role {
		case provider.RoleUser:
			out = append(out, chatMessage{Role: "user", Content: m.Content})
		case provider.RoleAssistant:
			msg := chatMessage{Role: "assistant", Content: m.Content}
			for _, c := range m.ToolCalls {
				if c.ID != "" {
					names[c.ID] = c.Name
				}
				msg.ToolCalls = append(msg.ToolCalls, chatToolCall{ID: c.ID, Function: chatCallFunction{Name: c.Name, Arguments: callArguments(c.Arguments)}})
			}
			out = append(out, msg)
		case provider.RoleTool:
			content := m.Content
			if m.IsError {
				content = "error: " + content // Ollama has no error flag
			}
			out = append(out, chatMessage{Role: "tool", Content: content, ToolName: names[m.ToolCallID], ToolCallID: m.ToolCallID})
		default:
			return nil, invalid(fmt.Sprintf("message %d: unknown role %q", i, string(m.Role)))
		}
	}
	return out, nil
}

// callArguments is a tool call's arguments as Ollama takes them, a JSON
// object: anything else (a truncated call) is sent as {}.
func callArguments(args json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(trimmed)
}

// response decodes an /api/chat reply.
func response(data []byte) (*provider.Response, error) {
	c, err := decode(data)
	if err != nil {
		return nil, err
	}
	return mapResponse(c), nil
}

// decode reads a reply, or a line of a streamed one: a body that is not
// one, or that reports an error, is an error of kind other.
func decode(data []byte) (*chatResponse, error) {
	var c chatResponse
	if err := json.Unmarshal(data, &c); err != nil {
		msg, _ := errorMessage(data)
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: Name, StatusCode: 200, Message: "the reply is not a chat response: " + msg, Err: err}
	}
	if c.Error != "" {
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: Name, StatusCode: 200, Message: c.Error}
	}
	return &c, nil
}

// mapResponse maps a whole reply to a Response.
func mapResponse(c *chatResponse) *provider.Response {
	resp := &provider.Response{
		Text:          c.Message.Content,
		RawStopReason: c.DoneReason,
		Model:         c.Model,
		Usage: provider.Usage{
			InputTokens:  c.PromptEvalCount,
			OutputTokens: c.EvalCount,
			TotalTokens:  c.PromptEvalCount + c.EvalCount,
		},
	}
	for i, tc := range c.Message.ToolCalls {
		resp.ToolCalls = append(resp.ToolCalls, toolCall(tc, i))
	}
	switch c.DoneReason {
	case "stop":
		resp.StopReason = provider.StopEnd
		if len(resp.ToolCalls) > 0 {
			resp.StopReason = provider.StopToolUse
		}
	case "length":
		resp.StopReason = provider.StopLength
	case "":
		if len(resp.ToolCalls) > 0 {
			resp.StopReason = provider.StopToolUse
		}
	default: // load, unload, and reasons added later
		resp.StopReason = provider.StopOther
	}
	return resp
}

// toolCall maps the i-th tool call of a reply: an id is made up, call_<i>,
// when the server sends none, and no arguments are {}.
func toolCall(tc chatToolCall, i int) provider.ToolCall {
	id := tc.ID
	if id == "" {
		id = fmt.Sprintf("call_%d", i)
	}
	args := json.RawMessage(bytes.Clone(tc.Function.Arguments))
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	return provider.ToolCall{ID: id, Name: tc.Function.Name, Arguments: args}
}

// maxErrorText bounds a message taken from a body that is not Ollama's
// error JSON.
const maxErrorText = 500

// failure is the error for a reply res with a failure status whose body
// is data: [statusError], with the wait the server asked for in its
// headers.
func failure(res *http.Response, data []byte, req *provider.Request) error {
	err := statusError(res.StatusCode, data, req.Output != nil || len(req.Tools) > 0)
	if pe, ok := err.(*provider.Error); ok {
		pe.RetryAfter = provider.RetryAfterFrom(res.Header, time.Now())
	}
	return err
}

// statusError classifies a failed call from its status and body. A
// complaint about the format or schema is a schema rejection when the
// request carried a schema (sentSchema).
func statusError(status int, body []byte, sentSchema bool) error {
	msg, _ := errorMessage(body)
	kind := provider.KindForStatus(status)
	if sentSchema && (status == 400 || status == 422 || status == 500) && schemaComplaint(msg) {
		kind = provider.ErrSchemaRejected
	}
	if kind == provider.ErrOther && status >= 400 {
		kind = provider.ErrInvalidRequest
	}
	return &provider.Error{Kind: kind, Provider: Name, StatusCode: status, Message: msg}
}

// schemaComplaint reports whether an error message is about the format or
// the grammar Ollama builds from a schema.
func schemaComplaint(message string) bool {
	m := strings.ToLower(message)
	for _, s := range []string{"schema", "format", "grammar"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// errorMessage finds the message in an error body: Ollama's
// {"error":"..."}, or the text itself cut short. ok reports the former.
func errorMessage(body []byte) (msg string, ok bool) {
	var v struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &v) == nil && v.Error != "" {
		return v.Error, true
	}
	return clip.Ellipsis(strings.TrimSpace(string(body)), maxErrorText), false
}
