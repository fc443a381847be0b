package mcpagentio

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/inputs"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// A Task describes a tool whose output a model produces under enforcement,
// for a server that has an output schema and a prompt rather than an
// agent.json ([AgentTool] serves blueprints). It is plain data;
// [TaskTool] copies what it needs.
type Task struct {
	// Name is the tool's name; it must not be empty.
	Name string
	// Description is the tool's description; "" means none.
	Description string
	// Input is the tool's input schema, which every call's arguments must
	// match. Nil means the schema of a bare prompt,
	// {"type":"object","properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}.
	Input *schema.Schema
	// Output is the schema the tool's output is held to, declared as the
	// tool's outputSchema; it must not be nil.
	Output *schema.Schema
	// System is the system prompt of every run; "" means none.
	System string
	// Prompt renders a call's arguments, already valid against Input, into
	// the user prompt. Nil means [inputs.Format] in Input's property order:
	// the "prompt" argument, after an `<inputs>` block of the others (the
	// Input schema must then require a string "prompt"). An error makes the
	// call an error result with the error's text.
	Prompt func(args map[string]any) (string, error)
	// MaxTokens caps each reply's length in tokens; 0 means the provider's
	// default.
	MaxTokens int
	// Options are the enforcement options of every run (retries, mode,
	// validators). They are copied.
	Options []enforce.Option
}

// TaskTool returns an MCP tool answered by p under enforcement, and its
// handler; add both to a server with [mcp.Server.AddTool]. The tool's
// inputSchema is t.Input and its outputSchema t.Output, each declared with
// the root type "object" that MCP requires, as [AgentTool] declares them
// (ErrNotObject for a schema that admits no object). The enforcement
// options are checked here: a bad one is returned (matching
// [enforce.ErrInvalidOption]).
//
// Each call validates its arguments against the input schema, renders the
// prompt, runs [enforce.Enforcer.Run] and answers as an agent's tool does:
// the valid JSON as structuredContent and as text; arguments that do not
// match as an error result holding a [*blueprint.ParameterError]'s JSON
// (its agent_name is the tool's name), without a model call; output that
// never became valid as one holding the [*enforce.ValidationError]'s JSON;
// a call whose context ended with a JSON-RPC error. A call whose client
// sent a progress token gets progress notifications, as from an
// [AgentTool]: the run is streamed ([enforce.WithPartials]), each attempt and
// each part of the output completed is reported, and a reply whose
// finished part already breaks the schema is stopped and re-asked.
//
// The handler is safe for concurrent calls when p is.
func TaskTool(t Task, p provider.Provider) (*mcp.Tool, mcp.ToolHandler, error) {
	if p == nil {
		return nil, nil, errors.New("mcpagentio: TaskTool needs a provider")
	}
	if t.Name == "" {
		return nil, nil, errors.New("mcpagentio: TaskTool: the task has no name")
	}
	if t.Output == nil {
		return nil, nil, fmt.Errorf("mcpagentio: task %q has no output schema", t.Name)
	}
	input := t.Input
	if input == nil {
		var err error
		if input, err = schema.MergePrompt(nil); err != nil {
			return nil, nil, fmt.Errorf("mcpagentio: task %q: inputSchema: %w", t.Name, err)
		}
	}
	input, in, err := declare(input)
	if err != nil {
		return nil, nil, fmt.Errorf("mcpagentio: task %q: inputSchema: %w", t.Name, err)
	}
	output, out, err := declare(t.Output)
	if err != nil {
		return nil, nil, fmt.Errorf("mcpagentio: task %q: outputSchema: %w", t.Name, err)
	}
	opts := append([]enforce.Option(nil), t.Options...)
	e, err := enforce.New(output, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("mcpagentio: task %q: %w", t.Name, err)
	}
	name, system, maxTokens := t.Name, t.System, t.MaxTokens
	prompt := t.Prompt
	if prompt == nil {
		prompt = func(args map[string]any) (string, error) {
			return inputs.Format(args, inputs.WithSchema(input))
		}
	}
	tool := &mcp.Tool{Name: name, Description: t.Description, InputSchema: in, OutputSchema: out}
	handler := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, data, err := arguments(req)
		if err != nil {
			return toolError(argumentsError(name, input, err)), nil
		}
		vs, err := input.ValidateJSON(data)
		if err != nil {
			return toolError(argumentsError(name, input, err)), nil
		}
		if len(vs) > 0 {
			return toolError(&blueprint.ParameterError{AgentName: name, Violations: vs, Schema: input}), nil
		}
		text, err := prompt(args)
		if err != nil {
			return toolError(fmt.Errorf("mcpagentio: task %q: prompt: %w", name, err)), nil
		}
		req2 := enforce.Request{System: system, Prompt: text, MaxTokens: maxTokens}
		var res *enforce.Result
		if pr := newProgress(req); pr != nil {
			res, err = streamTask(ctx, p, output, opts, req2, pr)
		} else {
			res, err = e.Run(ctx, p, req2)
		}
		if err != nil {
			return failed(ctx, err)
		}
		return structured(res.JSON), nil
	}
	return tool, handler, nil
}

// streamTask runs a task's call with its progress reported: streamed, with
// an attempt hook of its own added to the task's options.
func streamTask(ctx context.Context, p provider.Provider, output *schema.Schema, opts []enforce.Option, req enforce.Request, pr *progress) (*enforce.Result, error) {
	return enforce.Run(ctx, p, req, output, append(opts[:len(opts):len(opts)], pr.options(ctx)...)...)
}
