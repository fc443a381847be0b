package provider

import (
	"context"
	"iter"
)

// A Provider sends one request to a language model and returns its reply.
//
// Generate may be called concurrently from several goroutines; implementations
// must be safe for that. Generate must not retain or modify req after it
// returns. It returns a non-nil Response whenever the error is nil. An error
// means the model could not be asked or did not answer (network, API error,
// cancelled context); a reply that is merely wrong (bad JSON, a refusal) is a
// Response, not an error.
type Provider interface {
	Generate(ctx context.Context, req *Request) (*Response, error)
	Capabilities() Capabilities
}

// Capabilities describe what a provider supports beyond plain text. The zero
// value is a text-only provider: the enforcement loop then puts the schema
// into the prompt.
type Capabilities struct {
	// NativeSchema: the provider constrains its output to a JSON Schema
	// passed in Request.Output.
	NativeSchema bool
	// StrictSchema: the provider honours OutputSpec.Strict (guaranteed
	// conformance for the subset of JSON Schema its dialect allows).
	StrictSchema bool
	// JSONMode: the provider can be asked for "some JSON object" without a
	// schema (OutputSpec with FormatJSONObject).
	JSONMode bool
	// Tools: the provider supports tool (function) calling.
	Tools bool
	// ForcedTool: the provider can be forced to call one named tool
	// (ToolChoice{Mode: ToolChoiceTool, Name: ...}).
	ForcedTool bool
	// SchemaWithTools: Request.Output and Request.Tools may be combined.
	SchemaWithTools bool
	// Dialect names the JSON Schema dialect the provider accepts in
	// OutputSpec.Schema and Tool.InputSchema, as understood by the schema
	// package's dialect conversion ("openai", "anthropic", "gemini").
	// Empty means the schema is passed through unchanged.
	Dialect string
}

// Func adapts an ordinary function to the [Provider] interface. Its
// Capabilities are the zero value (text only); wrap it with
// [WithCapabilities] to declare more.
type Func func(ctx context.Context, req *Request) (*Response, error)

// Generate calls f(ctx, req).
func (f Func) Generate(ctx context.Context, req *Request) (*Response, error) {
	return f(ctx, req)
}

// Capabilities reports a text-only provider.
func (f Func) Capabilities() Capabilities { return Capabilities{} }

// WithCapabilities returns a Provider that generates with p but reports caps
// as its capabilities. Use it to declare what a [Func] supports, or to turn
// off a feature an endpoint claims but handles badly (an OpenAI-compatible
// server that ignores strict schemas, say).
//
// When p is a [Streamer], so is the Provider returned.
func WithCapabilities(p Provider, caps Capabilities) Provider {
	if s, ok := p.(Streamer); ok {
		return capsStreamer{capsProvider{p: p, caps: caps}, s}
	}
	return capsProvider{p: p, caps: caps}
}

type capsStreamer struct {
	capsProvider
	s Streamer
}

func (c capsStreamer) Stream(ctx context.Context, req *Request) iter.Seq2[Chunk, error] {
	return c.s.Stream(ctx, req)
}

type capsProvider struct {
	p    Provider
	caps Capabilities
}

func (c capsProvider) Generate(ctx context.Context, req *Request) (*Response, error) {
	return c.p.Generate(ctx, req)
}

func (c capsProvider) Capabilities() Capabilities { return c.caps }
