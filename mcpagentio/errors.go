package mcpagentio

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentio/agentio/schema"
)

// ErrNoSuchTool is returned, wrapped with the name, by [Client.CallTool]
// and [Client.OutputSchema] for a tool the server does not list: there is
// no outputSchema to check its output against. The tool is not called.
var ErrNoSuchTool = errors.New("mcpagentio: no such tool")

// ErrNotObject is returned, wrapped with the tool and the schema, by
// [AgentTool] and [TaskTool] when a tool's input or output schema admits
// no object, and by [AddTool] for a tool whose schemas lack the root type
// "object": MCP requires that type of both, and the SDK panics without it.
var ErrNotObject = errors.New(`mcpagentio: an MCP tool schema must describe an object`)

// An OutputError reports a tool result whose structuredContent does not
// match the outputSchema the tool declares. [Client.CallTool] returns it
// beside the result it received; [Guard], [AddTool] and the
// [ValidateOutputs] middleware put it in the error result they send
// instead of the tool's output (where the
// server's sending middleware can read it with
// [mcp.CallToolResult.GetError]).
type OutputError struct {
	// Tool is the name of the tool that produced the output.
	Tool string
	// Violations lists every way the output fails the schema, in the
	// schema package's stable order; never empty. A result with no
	// structuredContent at all has one violation at "$".
	Violations schema.Violations
}

// Error returns `mcpagentio: tool "<name>": output does not match its
// outputSchema: <first violation>`, with the count of the others.
func (e *OutputError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcpagentio: tool %q: output does not match its outputSchema", e.Tool)
	if len(e.Violations) > 0 {
		b.WriteString(": ")
		b.WriteString(e.Violations[0].String())
		if n := len(e.Violations) - 1; n == 1 {
			b.WriteString(" (and 1 more)")
		} else if n > 1 {
			fmt.Fprintf(&b, " (and %d more)", n)
		}
	}
	return b.String()
}

// report renders e for the model that called the tool: what happened, then
// every violation on its own line, so that it can decide what to do next
// (call again with other arguments, use another tool, tell the user).
func (e *OutputError) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "The output of tool %q was withheld because it does not match the tool's outputSchema:", e.Tool)
	for _, v := range e.Violations {
		b.WriteString("\n- ")
		b.WriteString(v.String())
	}
	return b.String()
}
