package gemini

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
)

// params maps req to the SDK's contents and config.
func (p *Provider) params(req *provider.Request) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	cfg := &genai.GenerateContentConfig{Temperature: p.temperature, StopSequences: p.stop}
	switch {
	case req.MaxTokens < 0:
		return nil, nil, invalid(fmt.Sprintf("negative max tokens %d", req.MaxTokens))
	case req.MaxTokens > 0:
		cfg.MaxOutputTokens = int32(min(req.MaxTokens, 1<<31-1))
	}
	if req.System != "" {
		cfg.SystemInstruction = &genai.Content{Parts: []*genai.Part{{Text: req.System}}}
	}
	contents, err := contents(req.Messages)
	if err != nil {
		return nil, nil, err
	}
	var decls []*genai.FunctionDeclaration
	for _, t := range req.Tools {
		if t.Name == "" {
			return nil, nil, invalid("a tool without a name")
		}
		fd := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
		if len(bytes.TrimSpace(t.InputSchema)) > 0 {
			if !json.Valid(t.InputSchema) {
				return nil, nil, invalid(fmt.Sprintf("tool %q: input schema is not JSON", t.Name))
			}
			fd.ParametersJsonSchema = json.RawMessage(t.InputSchema)
		}
		decls = append(decls, fd)
	}
	if len(decls) > 0 {
		cfg.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	}
	fc, err := functionCalling(req.ToolChoice)
	if err != nil {
		return nil, nil, err
	}
	if fc != nil {
		cfg.ToolConfig = &genai.ToolConfig{FunctionCallingConfig: fc}
	}
	if o := req.Output; o != nil {
		cfg.ResponseMIMEType = "application/json"
		switch o.Format {
		case provider.FormatJSONObject:
		case provider.FormatJSONSchema:
			if !json.Valid(o.Schema) {
				return nil, nil, invalid("the output schema is not JSON")
			}
			cfg.ResponseJsonSchema = json.RawMessage(o.Schema)
		default:
			return nil, nil, invalid(fmt.Sprintf("unknown output format %q", o.Format))
		}
	}
	return contents, cfg, nil
}

// contents maps the conversation. Gemini's roles are user and model; a
// tool result is a functionResponse part of a user turn, named after the
// call it answers, so consecutive tool messages become one user turn (the
// answers to a turn's parallel calls go together).
func contents(in []provider.Message) ([]*genai.Content, error) {
	var out []*genai.Content
	names := map[string]string{} // call id → function name
	for i, m := range in {
		switch m.Role {
		case provider.RoleUser:
			out = append(out, &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{{Text: m.Content}}})
		case provider.RoleAssistant:
			c := &genai.Content{Role: genai.RoleModel}
			if m.Content != "" {
				c.Parts = append(c.Parts, &genai.Part{Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				names[tc.ID] = tc.Name
				id, sig := splitID(tc.ID)
				c.Parts = append(c.Parts, &genai.Part{
					FunctionCall:     &genai.FunctionCall{ID: id, Name: tc.Name, Args: callArgs(tc.Arguments)},
					ThoughtSignature: sig,
				})
			}
			if len(c.Parts) == 0 {
				continue // the API refuses a turn without parts
			}
			out = append(out, c)
		case provider.RoleTool:
			name, ok := names[m.ToolCallID]
			if !ok {
				return nil, invalid(fmt.Sprintf("message %d: tool result for call %q, which no earlier message made", i, m.ToolCallID))
			}
			key := "output"
			if m.IsError {
				key = "error"
			}
			id, _ := splitID(m.ToolCallID)
			part := &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: id, Name: name, Response: map[string]any{key: m.Content}}}
			if last := len(out) - 1; last >= 0 && out[last].Role == genai.RoleUser && isResponses(out[last]) {
				out[last].Parts = append(out[last].Parts, part)
			} else {
				out = append(out, &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{part}})
			}
		default:
			return nil, invalid(fmt.Sprintf("message %d: unknown role %q", i, string(m.Role)))
		}
	}
	return out, nil
}

// localIDPrefix begins the ids this adapter gives calls that came without
// one; they are not sent back to the API.
const localIDPrefix = "agentio_call_"

// signatureMark separates a call's id from the thought signature the
// adapter keeps in it. Thinking models (Gemini 3 always) sign the function
// calls they make, and the API refuses a conversation that sends such a
// call back without its signature ("Function call is missing a
// thought_signature"), as a re-ask in tool mode does: provider.ToolCall has
// no field for it, and the id comes back unchanged.
const signatureMark = "~sig:"

// callID returns the id a call is known by outside the adapter: the API's
// id (or one of ours), with the thought signature, if any, after
// signatureMark in base64url (an id that holds the mark itself gets one
// with an empty signature, so that splitID undoes it).
func callID(id string, signature []byte) string {
	if len(signature) == 0 && !strings.Contains(id, signatureMark) {
		return id
	}
	return id + signatureMark + base64.RawURLEncoding.EncodeToString(signature)
}

// splitID undoes callID: the id to send ("" for one of ours, which the API
// never saw) and the thought signature. An id the adapter did not make is
// sent as it is, without a signature.
func splitID(id string) (string, []byte) {
	var signature []byte
	if i := strings.LastIndex(id, signatureMark); i >= 0 {
		if sig, err := base64.RawURLEncoding.DecodeString(id[i+len(signatureMark):]); err == nil {
			id = id[:i]
			if len(sig) > 0 {
				signature = sig
			}
		}
	}
	if strings.HasPrefix(id, localIDPrefix) {
		id = ""
	}
	return id, signature
}

// isResponses reports whether every part of c is a function response.
func isResponses(c *genai.Content) bool {
	for _, p := range c.Parts {
		if p.FunctionResponse == nil {
			return false
		}
	}
	return len(c.Parts) > 0
}

// callArgs decodes a call's arguments for a functionCall part, which takes
// an object: other JSON (a model's broken output being sent back in a
// re-ask) is kept as the string it was, under "arguments".
func callArgs(args json.RawMessage) map[string]any {
	var m map[string]any
	if len(bytes.TrimSpace(args)) == 0 {
		return map[string]any{}
	}
	if json.Unmarshal(args, &m) == nil && m != nil {
		return m
	}
	return map[string]any{"arguments": string(args)}
}

// functionCalling maps the tool choice: auto is the API's default (nil),
// none is NONE, required is ANY, a named tool ANY with that name alone.
func functionCalling(c provider.ToolChoice) (*genai.FunctionCallingConfig, error) {
	switch c.Mode {
	case provider.ToolChoiceAuto:
		return nil, nil
	case provider.ToolChoiceNone:
		return &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeNone}, nil
	case provider.ToolChoiceRequired:
		return &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeAny}, nil
	case provider.ToolChoiceTool:
		if c.Name == "" {
			return nil, invalid("tool choice names no tool")
		}
		return &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeAny, AllowedFunctionNames: []string{c.Name}}, nil
	default:
		return nil, invalid(fmt.Sprintf("unknown tool choice %q", c.Mode))
	}
}

// response maps the SDK's reply: the first candidate's text parts joined
// (thoughts left out), its function calls, the finish reason, a prompt
// blocked before any candidate as a refusal, and the usage.
func response(out *genai.GenerateContentResponse) *provider.Response {
	resp := &provider.Response{Model: out.ModelVersion}
	if u := out.UsageMetadata; u != nil {
		resp.Usage = usage(u)
	}
	if len(out.Candidates) == 0 || out.Candidates[0] == nil {
		if fb := out.PromptFeedback; fb != nil && fb.BlockReason != "" {
			resp.RawStopReason = string(fb.BlockReason)
			resp.StopReason = provider.StopRefusal
			resp.Refusal = "the prompt was blocked (" + string(fb.BlockReason) + ")"
			if fb.BlockReasonMessage != "" {
				resp.Refusal += ": " + fb.BlockReasonMessage
			}
			return resp
		}
		resp.StopReason = provider.StopOther
		return resp
	}
	cand := out.Candidates[0]
	var text strings.Builder
	if cand.Content != nil {
		for _, part := range cand.Content.Parts {
			switch {
			case part == nil || part.Thought:
			case part.FunctionCall != nil:
				resp.ToolCalls = append(resp.ToolCalls, toolCall(part, len(resp.ToolCalls)))
			default:
				text.WriteString(part.Text)
			}
		}
	}
	resp.Text = text.String()
	resp.RawStopReason = string(cand.FinishReason)
	resp.StopReason = stopReason(cand.FinishReason, resp)
	if resp.StopReason == provider.StopContentFilter && cand.FinishMessage != "" {
		resp.Refusal = cand.FinishMessage
	}
	return resp
}

// toolCall maps a functionCall part, the reply's n-th call (from 0): its
// arguments re-encoded from the object the API sends, its id with the
// part's thought signature. The Gemini API may give a call no id: it is
// then numbered by n, so that a result can answer it (by name, on the
// wire), and a streamed call gets the id the whole reply gives it.
func toolCall(part *genai.Part, n int) provider.ToolCall {
	fc := part.FunctionCall
	args, err := json.Marshal(fc.Args)
	if err != nil || fc.Args == nil {
		args = []byte(`{}`)
	}
	id := fc.ID
	if id == "" {
		id = fmt.Sprintf("%s%d", localIDPrefix, n)
	}
	return provider.ToolCall{ID: callID(id, part.ThoughtSignature), Name: fc.Name, Arguments: args}
}

// stopReason normalises the finish reason: STOP ends (or calls a tool),
// MAX_TOKENS is a truncation, the safety reasons are the content filter.
func stopReason(r genai.FinishReason, resp *provider.Response) provider.StopReason {
	switch r {
	case genai.FinishReasonStop:
		if len(resp.ToolCalls) > 0 {
			return provider.StopToolUse
		}
		return provider.StopEnd
	case "", genai.FinishReasonUnspecified:
		if len(resp.ToolCalls) > 0 {
			return provider.StopToolUse
		}
		return ""
	case genai.FinishReasonMaxTokens:
		return provider.StopLength
	case genai.FinishReasonSafety, genai.FinishReasonRecitation, genai.FinishReasonBlocklist,
		genai.FinishReasonProhibitedContent, genai.FinishReasonSPII, genai.FinishReasonImageSafety,
		// Reasons newer than the SDK's constants.
		"IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION":
		return provider.StopContentFilter
	default: // LANGUAGE, OTHER, MALFORMED_FUNCTION_CALL, ...
		return provider.StopOther
	}
}

// usage maps usageMetadata. Thinking tokens are billed as output: they
// count in OutputTokens, and in ReasoningTokens.
func usage(u *genai.GenerateContentResponseUsageMetadata) provider.Usage {
	output := int(u.CandidatesTokenCount) + int(u.ThoughtsTokenCount)
	total := int(u.TotalTokenCount)
	if total == 0 {
		total = int(u.PromptTokenCount) + output
	}
	return provider.Usage{
		InputTokens:       int(u.PromptTokenCount),
		OutputTokens:      output,
		TotalTokens:       total,
		CachedInputTokens: int(u.CachedContentTokenCount),
		ReasoningTokens:   int(u.ThoughtsTokenCount),
	}
}
