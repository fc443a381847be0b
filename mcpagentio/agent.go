package mcpagentio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// AgentTool returns an MCP tool that runs the agent of b with the model p,
// and its handler; add both to a server with [mcp.Server.AddTool]. The tool
// is named after the agent and described by its description (the returned
// *mcp.Tool is the caller's: rename it before adding it if need be), and
//
//   - its inputSchema is the agent's effective parameters schema
//     ([blueprint.Blueprint.EffectiveParametersSchema]: parameters_schema
//     with the required string "prompt");
//   - its outputSchema is the output schema the agent's runs use, as
//     [blueprint.ResolveOutputSchema] chooses it (default_output_schema,
//     else output_schema). An agent with neither makes a tool without an
//     outputSchema that answers with the model's free text.
//
// MCP requires both schemas to have the root type "object", and the SDK's
// AddTool panics otherwise: a schema that admits objects but says so
// differently (a type list, a root "$ref") is declared rewritten to that
// type (see [schema.MergeProperties]), and that declared schema is the one
// enforced. A schema that admits no object gives an error matching
// [ErrNotObject], a procedural agent one matching
// [blueprint.ErrNotAutonomous].
//
// Each call runs the agent with [blueprint.Run], p and opts: the arguments
// are validated against the parameters schema and rendered into the
// prompt, and the reply is enforced and re-asked as the blueprint's options
// say. The tool answers:
//
//   - on success, the valid JSON as structuredContent and, as MCP
//     recommends for clients that read only text, the same JSON as one
//     text content (a free-text agent: its text alone);
//   - for arguments that do not match, an error result (isError) whose
//     text is the [*blueprint.ParameterError]'s JSON
//     (parameter_validation_failed, every violation with its path), so
//     that the calling model can correct them; no model is called;
//   - for output that never became valid, an error result whose text is
//     the [*enforce.ValidationError]'s JSON (OutputSchemaValidationError);
//   - for any other failure of the run (a refusal, a provider error), an
//     error result with the error's JSON when it has one, else its text.
//
// A call whose client sent a progress token gets progress notifications:
// one for each attempt the loop judged ("attempt 1: invalid, stopped
// early: ..."), and one for each part of the output completed while the
// model writes it, with the value so far under [PartialMetaKey] in the
// notification's _meta: the run is streamed, as with
// enforce.WithPartials, so a reply whose finished part already breaks
// the schema is stopped and re-asked without waiting for its end. Parts are
// reported when the provider streams ([provider.Streamer]). Without a
// progress token the run is not streamed and nothing is sent.
//
// The error behind an error result is kept for the server's sending
// middleware ([mcp.CallToolResult.GetError]). Only a call whose context
// ended gets a JSON-RPC error: its client cancelled it or gave up.
//
// The handler is safe for concurrent calls when p is.
func AgentTool(b *blueprint.Blueprint, p provider.Provider, opts ...blueprint.Option) (*mcp.Tool, mcp.ToolHandler, error) {
	if b == nil || p == nil {
		return nil, nil, errors.New("mcpagentio: AgentTool needs a blueprint and a provider")
	}
	if b.Type() != blueprint.TypeAutonomous {
		return nil, nil, fmt.Errorf("mcpagentio: agent %s: %w", b.Name(), blueprint.ErrNotAutonomous)
	}
	tool := &mcp.Tool{Name: b.Name(), Description: b.Description()}
	params, in, err := declare(b.EffectiveParametersSchema())
	if err != nil {
		return nil, nil, fmt.Errorf("mcpagentio: agent %s: inputSchema: %w", b.Name(), err)
	}
	tool.InputSchema = in
	res, err := blueprint.ResolveOutputSchema(context.Background(), b, blueprint.RunSpec{}, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("mcpagentio: agent %s: %w", b.Name(), err)
	}
	var spec blueprint.RunSpec
	if res.Schema != nil {
		out, raw, err := declare(res.Schema)
		if err != nil {
			return nil, nil, fmt.Errorf("mcpagentio: agent %s: outputSchema: %w", b.Name(), err)
		}
		tool.OutputSchema = raw
		// Run the schema as declared (the blueprint's options and
		// invariants still apply to an inline schema).
		spec.Inline = out
	}
	opts = append([]blueprint.Option(nil), opts...)
	name := b.Name()
	handler := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, _, err := arguments(req)
		if err != nil {
			return toolError(argumentsError(name, params, err)), nil
		}
		runOpts := opts
		if pr := newProgress(req); pr != nil {
			runOpts = append(opts[:len(opts):len(opts)], blueprint.WithEnforceOptions(pr.options(ctx)...))
		}
		r, err := blueprint.Run(ctx, b, p, args, spec, runOpts...)
		if err != nil {
			return failed(ctx, err)
		}
		if !r.Structured() {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Text()}}}, nil
		}
		return structured(r.Data()), nil
	}
	return tool, handler, nil
}

// arguments decodes a call's arguments as an object, numbers as
// json.Number so that they keep their digits, and returns them with their
// JSON text; absent or null arguments are no parameters ({}).
func arguments(req *mcp.CallToolRequest) (map[string]any, []byte, error) {
	var raw json.RawMessage
	if req.Params != nil {
		raw = req.Params.Arguments
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return map[string]any{}, []byte("{}"), nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var params map[string]any
	if err := dec.Decode(&params); err != nil || params == nil {
		return nil, nil, errors.New("the arguments are not a JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errors.New("the arguments are not a single JSON object")
	}
	return params, raw, nil
}

// argumentsError is the parameter error of arguments that are not an
// object at all.
func argumentsError(name string, params *schema.Schema, err error) error {
	return &blueprint.ParameterError{
		AgentName:  name,
		Violations: []schema.Violation{{Path: "$", Message: err.Error()}},
		Schema:     params,
	}
}

// structured is the result of a successful run: the JSON as
// structuredContent and as text.
func structured(data json.RawMessage) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(data)}},
		StructuredContent: data,
	}
}

// failed turns a run's error into the tool's answer: a JSON-RPC error when
// ctx ended, else an error result.
func failed(ctx context.Context, err error) (*mcp.CallToolResult, error) {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, err
	}
	return toolError(err), nil
}

// toolError is an error result for err: its text is err's JSON when err
// has one (a ParameterError, a ValidationError, a FieldError), else its
// message.
func toolError(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	var m json.Marshaler
	if errors.As(err, &m) {
		if data, merr := m.MarshalJSON(); merr == nil {
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(data)}}
		}
	}
	return &res
}
