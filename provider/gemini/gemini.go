package gemini

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
)

// Name is the provider name this adapter puts in [provider.Error].
const Name = "gemini"

// Dialect is the schema dialect the adapter declares in its
// [provider.Capabilities]: the enforcement loop converts schemas with
// schema.Convert to it (propertyOrdering from the schema's property order,
// oneOf as anyOf, ...) before they reach the adapter.
const Dialect = "gemini"

// Options configure a [Provider]. The zero value of each field is a
// documented default; only Model is required.
type Options struct {
	// Model names the model ("gemini-2.5-flash", "gemini-2.5-pro").
	// Required.
	Model string
	// APIKey is the Gemini API key. Empty means the SDK's default: the
	// GEMINI_API_KEY or GOOGLE_API_KEY environment variable.
	APIKey string
	// BaseURL is the API's base URL, for a proxy or gateway. Empty means
	// https://generativelanguage.googleapis.com/.
	BaseURL string
	// HTTPClient sends the requests. Nil means the SDK's default client.
	HTTPClient *http.Client
	// Client is the SDK client to use, built with genai.NewClient (for
	// Vertex AI, say). Nil means a client for the Gemini API built from
	// APIKey, BaseURL and HTTPClient, which are then ignored.
	Client *genai.Client
	// Temperature, when not nil, is sent with every request.
	Temperature *float32
	// Capabilities, when not nil, replaces [DefaultCapabilities].
	Capabilities *provider.Capabilities
}

// A Provider calls the Gemini API's generateContent through the official
// SDK google.golang.org/genai. It is immutable after [New] and safe for
// concurrent use.
type Provider struct {
	client      *genai.Client
	model       string
	temperature *float32
	caps        provider.Capabilities
}

// ErrInvalidOptions is returned (wrapped) by [New] for options it cannot
// use: no model, a malformed base URL, a client the SDK cannot build.
var ErrInvalidOptions = errors.New("gemini: invalid options")

// New returns a Provider configured by opts, which it copies. It returns an
// error matching [ErrInvalidOptions] when opts is nil or a field is
// invalid; it makes no request.
func New(ctx context.Context, opts *Options) (*Provider, error) {
	if opts == nil {
		return nil, fmt.Errorf("%w: nil options", ErrInvalidOptions)
	}
	o := *opts
	if strings.TrimSpace(o.Model) == "" {
		return nil, fmt.Errorf("%w: no model", ErrInvalidOptions)
	}
	p := &Provider{model: o.Model, temperature: o.Temperature, caps: DefaultCapabilities(), client: o.Client}
	if o.Capabilities != nil {
		p.caps = *o.Capabilities
	}
	if p.client != nil {
		return p, nil
	}
	cfg := &genai.ClientConfig{APIKey: o.APIKey, Backend: genai.BackendGeminiAPI, HTTPClient: o.HTTPClient}
	if o.BaseURL != "" {
		u, err := url.Parse(o.BaseURL)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("%w: base URL %q is not an absolute URL", ErrInvalidOptions, o.BaseURL)
		}
		cfg.HTTPOptions.BaseURL = o.BaseURL
	}
	client, err := genai.NewClient(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOptions, err)
	}
	p.client = client
	return p, nil
}

// DefaultCapabilities returns what the Gemini API offers: native schemas
// (responseJsonSchema, which constrains decoding), a schema-less JSON mode
// (responseMimeType application/json), tools and a forced named function
// (function calling mode ANY with one allowed name), in the "gemini"
// dialect, so enforce.ModeAuto picks the native mode.
func DefaultCapabilities() provider.Capabilities {
	return provider.Capabilities{NativeSchema: true, JSONMode: true, Tools: true, ForcedTool: true, Dialect: Dialect}
}

// Capabilities reports what the Provider declares: [DefaultCapabilities]
// unless Options.Capabilities replaced them.
func (p *Provider) Capabilities() provider.Capabilities { return p.caps }

// Model returns the model the Provider asks.
func (p *Provider) Model() string { return p.model }

// Generate sends req to generateContent and returns the model's reply. API
// failures come back as a [*provider.Error] (errors.Is matches
// provider.ErrSchemaRejected, ErrRateLimited, ErrAuth, ErrOverloaded,
// ErrInvalidRequest) carrying the HTTP status, the API's status and
// message; a request the adapter cannot map (an unknown role, a tool result
// that answers no call, a tool choice without a name) is a *provider.Error
// of kind invalid_request made before any call. It may be called
// concurrently; req is not modified.
func (p *Provider) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	if req == nil {
		return nil, invalid("nil request")
	}
	contents, cfg, err := p.params(req)
	if err != nil {
		return nil, err
	}
	out, err := p.client.Models.GenerateContent(ctx, p.model, contents, cfg)
	if err != nil {
		return nil, classify(err)
	}
	return response(out), nil
}

// invalid returns the error for a request the adapter cannot send.
func invalid(msg string) *provider.Error {
	return &provider.Error{Kind: provider.ErrorInvalidRequest, Provider: Name, Message: msg}
}
