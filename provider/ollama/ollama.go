package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentio/agentio/provider"
)

// Name is the provider name this adapter puts in [provider.Error].
const Name = "ollama"

// Dialect is the schema dialect the adapter declares in its
// [provider.Capabilities]: the enforcement loop converts schemas with
// dialect.Convert to it before they reach the adapter.
const Dialect = "ollama"

// DefaultBaseURL is the server a [Provider] calls when Options.BaseURL is
// empty: Ollama's default address.
const DefaultBaseURL = "http://localhost:11434"

// Options configure a [Provider]. The zero value of each field is a
// documented default; only Model is required.
type Options struct {
	// Model names a model the server has pulled ("qwen3", "llama3.2:3b").
	// Required: there is no default model, and [New] refuses an empty
	// name.
	Model string
	// BaseURL is the server's address, without /api. Empty means
	// [DefaultBaseURL]; the environment is not read, so pass
	// os.Getenv("OLLAMA_HOST") to honour it. A value without a scheme
	// ("127.0.0.1:11434", "ollama.internal") is taken as http://, and an
	// http host without a port gets Ollama's 11434, as OLLAMA_HOST does.
	BaseURL string
	// HTTPClient sends the requests. Nil means http.DefaultClient; set one
	// with a Timeout, or use the ctx passed to Generate, to bound a call
	// (a local model may take minutes).
	HTTPClient *http.Client
	// NumCtx is the context window, in tokens, the server loads the model
	// with (options.num_ctx). Zero means the server's default, which is
	// small (a few thousand tokens) on many installations: Ollama then
	// drops the start of a longer prompt without an error, schema
	// instructions included. Negative is invalid.
	NumCtx int
	// Capabilities, when not nil, replaces [DefaultCapabilities].
	Capabilities *provider.Capabilities
}

// A Provider calls an Ollama server's chat API. It is immutable after
// [New] and safe for concurrent use.
type Provider struct {
	endpoint string // the /api/chat URL
	model    string
	numCtx   int
	client   *http.Client
	caps     provider.Capabilities
}

// ErrInvalidOption is returned (wrapped) by [New] for options it cannot
// use: no model, a negative context window, a base URL that is not an
// http(s) address.
var ErrInvalidOption = errors.New("ollama: invalid option")

// New returns a Provider configured by opts, which it copies. It returns an
// error matching [ErrInvalidOption] when opts is nil, Model is empty or
// BaseURL cannot be read; it makes no request.
func New(opts *Options) (*Provider, error) {
	if opts == nil {
		return nil, fmt.Errorf("%w: nil options", ErrInvalidOption)
	}
	o := *opts
	if strings.TrimSpace(o.Model) == "" {
		return nil, fmt.Errorf("%w: no model", ErrInvalidOption)
	}
	if o.NumCtx < 0 {
		return nil, fmt.Errorf("%w: negative context window %d", ErrInvalidOption, o.NumCtx)
	}
	base, err := baseURL(o.BaseURL)
	if err != nil {
		return nil, err
	}
	p := &Provider{endpoint: base + "/api/chat", model: o.Model, numCtx: o.NumCtx, client: o.HTTPClient, caps: DefaultCapabilities()}
	if p.client == nil {
		p.client = http.DefaultClient
	}
	if o.Capabilities != nil {
		p.caps = *o.Capabilities
	}
	return p, nil
}

// baseURL normalises a base URL as OLLAMA_HOST is written: a scheme is
// optional (http), the port too (11434), a trailing slash is dropped.
func baseURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return DefaultBaseURL, nil
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%w: base URL %q is not an http(s) address", ErrInvalidOption, raw)
	}
	if u.Port() == "" && u.Scheme == "http" {
		u.Host += ":11434" // https keeps its own port: a proxy in front of Ollama
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// DefaultCapabilities returns what an Ollama server offers: native schemas
// (format) in the "ollama" dialect, without a strict flag, JSON mode and
// tools, but no forced named tool (Ollama has no tool_choice) and no
// schema together with tools.
func DefaultCapabilities() provider.Capabilities {
	return provider.Capabilities{NativeSchema: true, JSONMode: true, Tools: true, Dialect: Dialect}
}

// Capabilities reports what the Provider declares: [DefaultCapabilities]
// unless Options.Capabilities replaced them.
func (p *Provider) Capabilities() provider.Capabilities { return p.caps }

// Model returns the model the Provider asks.
func (p *Provider) Model() string { return p.model }

// maxReplyBody bounds the reply body read from the server.
const maxReplyBody = 64 << 20

// Generate sends req to the server's /api/chat and returns the model's
// reply. Failures come back as a [*provider.Error] (errors.Is matches
// provider.ErrSchemaRejected, ErrInvalidRequest, ErrRateLimited, ErrAuth,
// ErrOverloaded) with the HTTP status and Ollama's message; a request the
// adapter cannot map is a *provider.Error of kind invalid_request made
// before any call. It may be called concurrently; req is not modified.
func (p *Provider) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	if req == nil {
		return nil, invalid("nil request")
	}
	body, err := p.body(req, false)
	if err != nil {
		return nil, err
	}
	res, err := p.send(ctx, body, "application/json")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := read(res)
	if err != nil {
		return nil, err
	}
	if res.StatusCode >= 300 {
		return nil, failure(res, data, req)
	}
	return response(data)
}

// send posts body to the endpoint, asking for the accept media type.
func (p *Provider) send(ctx context.Context, body []byte, accept string) (*http.Response, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: Name, Message: "cannot build the request", Err: err}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", accept)
	res, err := p.client.Do(hreq)
	if err != nil {
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: Name, Message: "cannot reach the server at " + p.endpoint, Err: err}
	}
	return res, nil
}

// read reads a reply's whole body, up to maxReplyBody.
func read(res *http.Response) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(res.Body, maxReplyBody))
	if err != nil {
		return nil, readFailure(res, err)
	}
	return data, nil
}

// readFailure is the error for a body that could not be read.
func readFailure(res *http.Response, err error) *provider.Error {
	return &provider.Error{Kind: provider.ErrOther, Provider: Name, StatusCode: res.StatusCode, Message: "cannot read the reply", Err: err}
}

// invalid returns the error for a request the adapter cannot send.
func invalid(msg string) *provider.Error {
	return &provider.Error{Kind: provider.ErrInvalidRequest, Provider: Name, Message: msg}
}

// body encodes req as an /api/chat request, streamed or not.
func (p *Provider) body(req *provider.Request, stream bool) ([]byte, error) {
	c := chatRequest{Model: p.model, Stream: stream}
	if req.MaxTokens < 0 {
		return nil, invalid(fmt.Sprintf("negative max tokens %d", req.MaxTokens))
	}
	if req.MaxTokens > 0 || p.numCtx > 0 {
		c.Options = &chatOptions{NumPredict: req.MaxTokens, NumCtx: p.numCtx}
	}
	if req.System != "" {
		c.Messages = append(c.Messages, chatMessage{Role: "system", Content: req.System})
	}
	msgs, err := messages(req.Messages)
	if err != nil {
		return nil, err
	}
	c.Messages = append(c.Messages, msgs...)
	switch req.ToolChoice.Mode {
	case provider.ToolChoiceAuto, provider.ToolChoiceRequired:
	case provider.ToolChoiceNone:
	case provider.ToolChoiceTool:
		if req.ToolChoice.Name == "" {
			return nil, invalid("tool choice names no tool")
		}
	default:
		return nil, invalid(fmt.Sprintf("unknown tool choice mode %q", string(req.ToolChoice.Mode)))
	}
	for _, t := range req.Tools {
		if t.Name == "" {
			return nil, invalid("a tool has no name")
		}
		params := json.RawMessage(t.InputSchema)
		if len(params) == 0 {
			params = emptyObjectSchema
		}
		if req.ToolChoice.Mode != provider.ToolChoiceNone {
			c.Tools = append(c.Tools, chatTool{Type: "function", Function: chatFunction{Name: t.Name, Description: t.Description, Parameters: params}})
		}
	}
	if o := req.Output; o != nil {
		switch o.Format {
		case provider.FormatJSONSchema:
			if len(o.Schema) == 0 {
				return nil, invalid("output spec has no schema")
			}
			c.Format = json.RawMessage(o.Schema)
		case provider.FormatJSONObject:
			c.Format = json.RawMessage(`"json"`)
		default:
			return nil, invalid(fmt.Sprintf("unknown output format %q", string(o.Format)))
		}
	}
	data, err := json.Marshal(c)
	if err != nil {
		// Only a schema that is not JSON can fail here.
		return nil, invalid("the output or a tool schema is not valid JSON")
	}
	return data, nil
}
