package enforce

import (
	"fmt"

	"github.com/agentio/agentio/provider"
)

// A Mode is how the schema reaches the model. Every mode extracts and
// validates the output locally: a provider's native mode is never trusted
// blindly.
type Mode string

// The modes.
const (
	// ModeAuto picks ModeNative when the provider has a native schema mode,
	// else ModeTool when it can be forced to call a tool, else ModePrompt.
	// It is the default.
	ModeAuto Mode = "auto"
	// ModePrompt appends the schema instructions to the user prompt.
	ModePrompt Mode = "prompt"
	// ModeSystem appends the schema instructions to the system prompt.
	ModeSystem Mode = "system"
	// ModeNative passes the schema, converted to the provider's dialect, as
	// the request's output spec.
	ModeNative Mode = "native"
	// ModeTool offers a single submit_result tool whose input schema is the
	// output schema (a non-object root wrapped as {"result": ...}) and forces
	// the model to call it; the call's arguments are the output.
	ModeTool Mode = "tool"
)

// ToolName is the name of the tool offered in [ModeTool].
const ToolName = "submit_result"

// valid reports whether m is one of the modes.
func (m Mode) valid() bool {
	switch m {
	case ModeAuto, ModePrompt, ModeSystem, ModeNative, ModeTool:
		return true
	}
	return false
}

// resolve turns m into the mode used with a provider of the given
// capabilities. It fails when m asks for what the provider lacks.
func (m Mode) resolve(caps provider.Capabilities) (Mode, error) {
	switch m {
	case ModeAuto:
		switch {
		case caps.NativeSchema:
			return ModeNative, nil
		case caps.Tools && caps.ForcedTool:
			return ModeTool, nil
		default:
			return ModePrompt, nil
		}
	case ModeNative:
		if !caps.NativeSchema {
			return "", fmt.Errorf("%w: mode native: the provider has no native schema mode", ErrInvalidRequest)
		}
	case ModeTool:
		if !caps.Tools {
			return "", fmt.Errorf("%w: mode tool: the provider does not support tools", ErrInvalidRequest)
		}
	}
	return m, nil
}
