package openaicompat

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentio/agentio/internal/clip"
	"github.com/agentio/agentio/provider"
)

// The Chat Completions wire format, as much of it as the adapter uses.
type (
	chatRequest struct {
		Model               string          `json:"model"`
		Messages            []chatMessage   `json:"messages"`
		Tools               []chatTool      `json:"tools,omitempty"`
		ToolChoice          any             `json:"tool_choice,omitempty"`
		ParallelToolCalls   *bool           `json:"parallel_tool_calls,omitempty"`
		ResponseFormat      *responseFormat `json:"response_format,omitempty"`
		MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
		MaxTokens           int             `json:"max_tokens,omitempty"`
		Stream              bool            `json:"stream,omitempty"`
		StreamOptions       *streamOptions  `json:"stream_options,omitempty"`
	}
	chatMessage struct {
		Role       string         `json:"role"`
		Content    *string        `json:"content"`
		ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
		ToolCallID string         `json:"tool_call_id,omitempty"`
	}
	chatToolCall struct {
		ID       string           `json:"id"`
		Type     string           `json:"type"`
		Function chatCallFunction `json:"function"`
	}
	chatCallFunction struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	chatTool struct {
		Type     string       `json:"type"`
		Function chatFunction `json:"function"`
	}
	chatFunction struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
		Strict      bool            `json:"strict,omitempty"`
	}
	namedToolChoice struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	responseFormat struct {
		Type       string      `json:"type"`
		JSONSchema *jsonSchema `json:"json_schema,omitempty"`
	}
	jsonSchema struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Schema      json.RawMessage `json:"schema"`
		Strict      bool            `json:"strict,omitempty"`
	}

	streamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	}

	// A reply: a chat.completion, or, streamed, a chat.completion.chunk
	// whose choices hold deltas (the fields of a message in pieces).
	chatResponse struct {
		Model   string          `json:"model"`
		Choices []chatChoice    `json:"choices"`
		Usage   *chatUsage      `json:"usage"`
		Error   json.RawMessage `json:"error"`
	}
	chatChoice struct {
		Message      replyMessage `json:"message"`
		Delta        replyMessage `json:"delta"`
		FinishReason string       `json:"finish_reason"`
	}
	replyMessage struct {
		Content   json.RawMessage `json:"content"`
		Refusal   string          `json:"refusal"`
		ToolCalls []replyCall     `json:"tool_calls"`
	}
	replyCall struct {
		Index    *int   `json:"index"` // in a delta: which call the piece belongs to
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	chatUsage struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		TotalTokens         int `json:"total_tokens"`
		PromptTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionTokensDetails struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	}
)

// emptyObjectSchema is the input schema of a tool that declares none.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// body encodes req as a /chat/completions request, streamed or not.
func (p *Provider) body(req *provider.Request, stream bool) ([]byte, error) {
	c := chatRequest{Model: p.model, Stream: stream}
	if stream && !p.noUsage {
		c.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	if req.MaxTokens < 0 {
		return nil, p.invalid(fmt.Sprintf("negative max tokens %d", req.MaxTokens))
	}
	budget := req.MaxTokens
	if budget == 0 {
		budget = p.maxTokens
	}
	if p.legacy {
		c.MaxTokens = budget
	} else {
		c.MaxCompletionTokens = budget
	}
	if req.System != "" {
		c.Messages = append(c.Messages, chatMessage{Role: "system", Content: &req.System})
	}
	for i, m := range req.Messages {
		msg, err := p.message(m)
		if err != nil {
			return nil, p.invalid(fmt.Sprintf("message %d: %s", i, err))
		}
		c.Messages = append(c.Messages, msg)
	}
	for _, t := range req.Tools {
		if t.Name == "" {
			return nil, p.invalid("a tool has no name")
		}
		params := t.InputSchema
		if len(params) == 0 {
			params = emptyObjectSchema
		}
		c.Tools = append(c.Tools, chatTool{Type: "function", Function: chatFunction{
			Name: t.Name, Description: t.Description, Parameters: params, Strict: t.Strict,
		}})
		if t.Strict {
			// Parallel calls may not match strict schemas.
			no := false
			c.ParallelToolCalls = &no
		}
	}
	switch req.ToolChoice.Mode {
	case provider.ToolChoiceAuto:
	case provider.ToolChoiceNone, provider.ToolChoiceRequired:
		c.ToolChoice = string(req.ToolChoice.Mode)
	case provider.ToolChoiceTool:
		if req.ToolChoice.Name == "" {
			return nil, p.invalid("tool choice names no tool")
		}
		if !p.caps.ForcedTool {
			c.ToolChoice = string(provider.ToolChoiceRequired)
			break
		}
		var named namedToolChoice
		named.Type, named.Function.Name = "function", req.ToolChoice.Name
		c.ToolChoice = named
	default:
		return nil, p.invalid(fmt.Sprintf("unknown tool choice mode %q", string(req.ToolChoice.Mode)))
	}
	if o := req.Output; o != nil {
		switch o.Format {
		case provider.FormatJSONSchema:
			if len(o.Schema) == 0 {
				return nil, p.invalid("output spec has no schema")
			}
			c.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: &jsonSchema{
				Name: OutputName(o.Name), Description: o.Description, Schema: o.Schema, Strict: o.Strict,
			}}
		case provider.FormatJSONObject:
			c.ResponseFormat = &responseFormat{Type: "json_object"}
		default:
			return nil, p.invalid(fmt.Sprintf("unknown output format %q", string(o.Format)))
		}
	}
	data, err := json.Marshal(c)
	if err != nil {
		// Only a schema that is not JSON can fail here.
		return nil, p.invalid("the output or a tool schema is not valid JSON")
	}
	return data, nil
}

// message maps one conversation message.
func (p *Provider) message(m provider.Message) (chatMessage, error) {
	content := m.Content
	switch m.Role {
	case provider.RoleUser:
		return chatMessage{Role: "user", Content: &content}, nil
	case provider.RoleAssistant:
		msg := chatMessage{Role: "assistant"}
		if content != "" || len(m.ToolCalls) == 0 {
			msg.Content = &content
		}
		for _, c := range m.ToolCalls {
			args := string(c.Arguments)
			if args == "" {
				args = "{}"
			}
			msg.ToolCalls = append(msg.ToolCalls, chatToolCall{ID: c.ID, Type: "function", Function: chatCallFunction{Name: c.Name, Arguments: args}})
		}
		return msg, nil
	case provider.RoleTool:
		if m.ToolCallID == "" {
			return chatMessage{}, fmt.Errorf("tool message without a tool call id")
		}
		if m.IsError {
			content = "error: " + content // the API has no error flag
		}
		return chatMessage{Role: "tool", Content: &content, ToolCallID: m.ToolCallID}, nil
	}
	return chatMessage{}, fmt.Errorf("unknown role %q", string(m.Role))
}

// response decodes a /chat/completions reply.
func (p *Provider) response(data []byte) (*provider.Response, error) {
	c, err := p.decode(data)
	if err != nil {
		return nil, err
	}
	if len(c.Choices) == 0 {
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: p.name, Message: "the reply has no choices"}
	}
	return p.mapResponse(c.Model, &c.Choices[0].Message, c.Choices[0].FinishReason, c.Usage)
}

// decode reads a reply, or a chunk of a streamed one: a body that is not
// one, or that reports an error, is an error of kind other.
func (p *Provider) decode(data []byte) (*chatResponse, error) {
	var c chatResponse
	if err := json.Unmarshal(data, &c); err != nil {
		msg, _ := errorMessage(data)
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: p.name, Message: "the reply is not a chat completion: " + msg, Err: err}
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		msg, code := errorMessage(data)
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: p.name, Code: code, Message: msg}
	}
	return &c, nil
}

// mapResponse maps the reply's message, finish reason and usage (nil for
// none) to a Response.
func (p *Provider) mapResponse(model string, msg *replyMessage, finish string, usage *chatUsage) (*provider.Response, error) {
	text, err := contentText(msg.Content)
	if err != nil {
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: p.name, Message: "the reply's content is neither text nor text parts", Err: err}
	}
	var u chatUsage
	if usage != nil {
		u = *usage
	}
	resp := &provider.Response{
		Text:          text,
		Refusal:       msg.Refusal,
		RawStopReason: finish,
		Model:         model,
		Usage: provider.Usage{
			InputTokens:       u.PromptTokens,
			OutputTokens:      u.CompletionTokens,
			TotalTokens:       u.TotalTokens,
			CachedInputTokens: u.PromptTokensDetails.CachedTokens,
			ReasoningTokens:   u.CompletionTokensDetails.ReasoningTokens,
		},
	}
	if resp.Usage.TotalTokens == 0 {
		resp.Usage.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	for i, tc := range msg.ToolCalls {
		if !isFunction(tc.Type) {
			continue
		}
		resp.ToolCalls = append(resp.ToolCalls, provider.ToolCall{ID: callID(tc.ID, i), Name: tc.Function.Name, Arguments: callArguments(tc.Function.Arguments)})
	}
	resp.StopReason = StopReason(finish, resp)
	return resp, nil
}

// isFunction reports whether a tool call of the given type is a function
// call, the only kind the adapter reads (servers may leave the type out).
func isFunction(typ string) bool { return typ == "" || typ == "function" }

// callID returns a tool call's id, or for a call the server sent without
// one, call_<i>, i being its position among the message's calls.
func callID(id string, i int) string {
	if id == "" {
		return fmt.Sprintf("call_%d", i)
	}
	return id
}

// contentText reads a message's content: a string, null, or a list of
// parts whose text parts are joined.
func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	var b strings.Builder
	for _, part := range parts {
		if part.Type == "text" || part.Type == "" {
			b.WriteString(part.Text)
		}
	}
	return b.String(), nil
}

// callArguments returns a tool call's arguments as JSON text: the API
// sends them as a string holding JSON, some servers as the object itself.
// Whatever the model wrote is kept for the loop to judge.
func callArguments(raw json.RawMessage) json.RawMessage {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return json.RawMessage(`{}`)
		}
		return json.RawMessage(s)
	}
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{}`)
	}
	return append(json.RawMessage(nil), raw...)
}

// maxErrorText bounds a message taken from a body that is not JSON.
const maxErrorText = 500

// statusError classifies a failed call from its status and body. A 400 or
// 422 about the schema or response_format is a schema rejection when the
// request carried a schema (sentSchema).
func (p *Provider) statusError(status int, body []byte, sentSchema bool) *provider.Error {
	msg, code := errorMessage(body)
	kind := provider.KindForStatus(status)
	if sentSchema && (status == http.StatusBadRequest || status == http.StatusUnprocessableEntity) && schemaComplaint(msg) {
		kind = provider.ErrSchemaRejected
	}
	if kind == provider.ErrOther && status >= 400 {
		kind = provider.ErrInvalidRequest
	}
	return &provider.Error{Kind: kind, Provider: p.name, StatusCode: status, Code: code, Message: msg}
}

// schemaComplaint reports whether an error message is about a response
// format or tool schema: OpenAI's "Invalid schema for response_format 'x'",
// or a compatible server's complaint about the JSON schema or the grammar
// built from it.
func schemaComplaint(message string) bool {
	m := strings.ToLower(message)
	for _, s := range []string{"schema", "response_format", "guided_json", "grammar", "parameters"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// errorMessage finds the message and code in an error body: OpenAI's
// {"error":{"message":...,"code":...}} (Gemini sends it in a list),
// {"error":"..."} or {"detail":...}; otherwise the text itself, cut
// short.
func errorMessage(body []byte) (msg, code string) {
	trimmed := strings.TrimSpace(string(body))
	var list []json.RawMessage
	if strings.HasPrefix(trimmed, "[") && json.Unmarshal(body, &list) == nil && len(list) > 0 {
		body = list[0]
	}
	var v struct {
		Error  json.RawMessage `json:"error"`
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		var obj struct {
			Message string `json:"message"`
			Code    any    `json:"code"`
			Type    string `json:"type"`
			Status  string `json:"status"`
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			code = obj.Type
			switch c := obj.Code.(type) {
			case string:
				code = c
			case float64:
				if obj.Status != "" {
					code = obj.Status
				}
			}
			return obj.Message, code
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return s, ""
		case json.Unmarshal(v.Detail, &s) == nil && s != "":
			return s, ""
		case len(v.Detail) > 0 && string(v.Detail) != "null":
			return clip.Ellipsis(string(v.Detail), maxErrorText), ""
		}
	}
	return clip.Ellipsis(trimmed, maxErrorText), ""
}
