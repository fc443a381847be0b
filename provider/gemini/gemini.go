package gemini

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
)

// Name is the provider name this adapter puts in [provider.Error].
const Name = "gemini"

// Dialect is the schema dialect the adapter declares in its
// [provider.Capabilities]: the enforcement loop converts schemas with
// dialect.Convert to it (propertyOrdering from the schema's property order,
// oneOf as anyOf, ...) before they reach the adapter.
const Dialect = "gemini"

// Options configure a [Provider]. The zero value of each field is a
// documented default; only Model is required.
type Options struct {
	// Model names the model ("gemini-2.5-flash", "gemini-2.5-pro").
	// Required.
	Model string
	// APIKey is the Gemini API key. Empty means the GEMINI_API_KEY
	// environment variable, else GOOGLE_API_KEY; [New] fails when all
	// three are empty and Client is nil.
	APIKey string
	// BaseURL is the API's base URL, for a proxy or gateway. Empty means
	// the SDK's default: GOOGLE_GEMINI_BASE_URL if set, else
	// https://generativelanguage.googleapis.com/.
	BaseURL string
	// HTTPClient sends the requests; New uses a copy of it whose transport
	// reads a proxy's error bodies (plain text or other JSON) as API
	// errors with their message, since the SDK expects the API's own. Nil
	// means a client of New's own with http.DefaultTransport.
	HTTPClient *http.Client
	// Client is the SDK client to use, built with genai.NewClient (for
	// Vertex AI, say). Nil means a client for the Gemini API built from
	// APIKey, BaseURL and HTTPClient, which are then ignored.
	Client *genai.Client
	// Temperature, when not nil, is sent with every request.
	Temperature *float32
	// StopSequences, when not empty, are sent with every request (the API
	// takes up to 5): the reply ends before the first one it would write.
	// A stop sequence that can occur inside the JSON cuts the answer short.
	StopSequences []string
	// Capabilities, when not nil, replaces [DefaultCapabilities].
	Capabilities *provider.Capabilities
}

// A Provider calls the Gemini API's generateContent, or
// streamGenerateContent for [Provider.Stream], through the official SDK
// google.golang.org/genai. It is immutable after [New] and safe for
// concurrent use.
type Provider struct {
	client      *genai.Client
	model       string
	temperature *float32
	stop        []string
	caps        provider.Capabilities
	limits      provider.BatchLimits // the batch mode's; tests lower them
	encoder     encoder              // encodes inlined requests as the SDK sends them
}

// ErrInvalidOption is returned (wrapped) by [New] for options it cannot
// use: no model, no API key, a malformed base URL, a client the SDK cannot
// build.
var ErrInvalidOption = errors.New("gemini: invalid option")

// New returns a Provider configured by opts, which it copies. It returns an
// error matching [ErrInvalidOption] when opts is nil or a field is
// invalid; it makes no request.
func New(opts *Options) (*Provider, error) {
	if opts == nil {
		return nil, fmt.Errorf("%w: nil options", ErrInvalidOption)
	}
	o := *opts
	if strings.TrimSpace(o.Model) == "" {
		return nil, fmt.Errorf("%w: no model", ErrInvalidOption)
	}
	p := &Provider{model: o.Model, caps: DefaultCapabilities(), client: o.Client, stop: slices.Clone(o.StopSequences),
		limits: provider.BatchLimits{MaxBytes: MaxBatchBytes}}
	if o.Temperature != nil {
		t := *o.Temperature
		p.temperature = &t
	}
	if o.Capabilities != nil {
		p.caps = *o.Capabilities
	}
	if p.client != nil {
		return p, nil
	}
	key := o.APIKey
	for _, name := range []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"} {
		if key == "" {
			key = os.Getenv(name)
		}
	}
	if key == "" {
		return nil, fmt.Errorf("%w: no API key (set Options.APIKey, GEMINI_API_KEY or GOOGLE_API_KEY)", ErrInvalidOption)
	}
	httpClient := &http.Client{}
	if o.HTTPClient != nil {
		c := *o.HTTPClient
		httpClient = &c
	}
	base := httpClient.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	httpClient.Transport = errorBodies{base: base}
	// The key is always explicit, so the SDK never picks one from the
	// environment itself (and logs nothing about it).
	cfg := &genai.ClientConfig{APIKey: key, Backend: genai.BackendGeminiAPI, HTTPClient: httpClient}
	if o.BaseURL != "" {
		u, err := url.Parse(o.BaseURL)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("%w: base URL %q is not an absolute URL", ErrInvalidOption, o.BaseURL)
		}
		cfg.HTTPOptions.BaseURL = o.BaseURL
	}
	// The SDK uses the context only to find Vertex AI credentials, which a
	// Gemini API client with a key never does.
	client, err := genai.NewClient(context.Background(), cfg)
	if err != nil {
		// The SDK's messages print the whole configuration, key included.
		return nil, fmt.Errorf("%w: the SDK refused the client configuration", ErrInvalidOption)
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
	contents, cfg, err := p.prepare(req)
	if err != nil {
		return nil, err
	}
	out, err := p.generate(ctx, contents, cfg)
	if err != nil {
		return nil, classify(err, withSchema(cfg))
	}
	return response(out), nil
}

// prepare checks req and maps it to the SDK's contents and config, for
// Generate and Stream alike.
func (p *Provider) prepare(req *provider.Request) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	if req == nil {
		return nil, nil, invalid("nil request")
	}
	return p.params(req)
}

// withSchema reports whether cfg carries a response schema or function
// parameters, which an error classification needs to know (see kindOf).
func withSchema(cfg *genai.GenerateContentConfig) bool {
	return cfg.ResponseJsonSchema != nil || len(cfg.Tools) > 0
}

// errSDKPanic is the cause of the error Generate returns when the SDK
// panicked reading a reply.
var errSDKPanic = errors.New("the SDK panicked reading the reply")

// generate calls the SDK. A client passed in Options.Client lacks the
// transport that keeps the SDK from dereferencing nil on an error body
// that is JSON but not the API's (see errorBodies): such a panic comes
// back as an error rather than taking the caller down.
func (p *Provider) generate(ctx context.Context, contents []*genai.Content, cfg *genai.GenerateContentConfig) (out *genai.GenerateContentResponse, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%w: %v", errSDKPanic, r)
		}
	}()
	return p.client.Models.GenerateContent(ctx, p.model, contents, cfg)
}

// invalid returns the error for a request the adapter cannot send.
func invalid(msg string) *provider.Error {
	return &provider.Error{Kind: provider.ErrInvalidRequest, Provider: Name, Message: msg}
}
