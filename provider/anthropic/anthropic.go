package anthropic

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/agentio/agentio/provider"
)

// Name is the provider name this adapter puts in [provider.Error].
const Name = "anthropic"

// Dialect is the schema dialect the adapter declares in its
// [provider.Capabilities]: the enforcement loop converts schemas with
// dialect.Convert to it before they reach the adapter.
const Dialect = "anthropic"

// DefaultMaxTokens is the token limit sent when neither the request nor
// Options.MaxTokens sets one: the Messages API requires max_tokens.
const DefaultMaxTokens = 4096

// Options configure a [Provider]. The zero value of each field is a
// documented default; only Model is required.
type Options struct {
	// Model names the model ("claude-sonnet-4-5", "claude-haiku-4-5").
	// Required.
	Model string
	// APIKey authenticates the requests as the SDK sends a key (v2: an
	// Authorization: Bearer header). Empty means the SDK's
	// default: the ANTHROPIC_API_KEY environment variable (or the SDK's
	// other credential sources).
	APIKey string
	// BaseURL is the API's base URL, for a proxy or gateway. Empty means
	// the SDK's default: ANTHROPIC_BASE_URL if set, else
	// https://api.anthropic.com.
	BaseURL string
	// HTTPClient sends the requests. Nil means the SDK's default client.
	HTTPClient *http.Client
	// Client is the SDK client to use. Nil means a new client built from
	// the SDK's defaults; when set, APIKey, BaseURL, HTTPClient and
	// RequestOptions still apply, on top of its own options.
	Client *sdk.Client
	// RequestOptions are extra SDK options applied to every request:
	// headers (an anthropic-beta header, say), option.WithMaxRetries (the
	// SDK retries 408, 409, 429, 5xx and 529 twice by default), timeouts.
	// Behind provider.WithRetry, which honours the wait a 429 asks for
	// (Error.RetryAfter), pass option.WithMaxRetries(0) so that a call is
	// not retried by both.
	RequestOptions []option.RequestOption
	// MaxTokens is the max_tokens sent when a request sets none (the API
	// requires one). Zero means [DefaultMaxTokens]; negative is invalid.
	MaxTokens int
	// Capabilities, when not nil, replaces [DefaultCapabilities]: to turn
	// off native structured output for a model that lacks it (older
	// models answer output_config with a 400), say.
	Capabilities *provider.Capabilities
}

// A Provider calls Anthropic's Messages API through the official SDK. It
// is immutable after [New] and safe for concurrent use.
type Provider struct {
	client    sdk.Client
	opts      []option.RequestOption
	model     string
	maxTokens int
	caps      provider.Capabilities
	limits    provider.BatchLimits // the Message Batches API's; tests lower them
}

// ErrInvalidOption is returned (wrapped) by [New] for options it cannot
// use: no model, a negative token limit, a malformed base URL.
var ErrInvalidOption = errors.New("anthropic: invalid option")

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
	if o.MaxTokens < 0 {
		return nil, fmt.Errorf("%w: negative max tokens %d", ErrInvalidOption, o.MaxTokens)
	}
	if o.BaseURL != "" {
		u, err := url.Parse(o.BaseURL)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("%w: base URL %q is not an absolute URL", ErrInvalidOption, o.BaseURL)
		}
	}
	var reqOpts []option.RequestOption
	if o.APIKey != "" {
		reqOpts = append(reqOpts, option.WithAPIKey(o.APIKey))
	}
	if o.BaseURL != "" {
		reqOpts = append(reqOpts, option.WithBaseURL(o.BaseURL))
	}
	if o.HTTPClient != nil {
		reqOpts = append(reqOpts, option.WithHTTPClient(o.HTTPClient))
	}
	reqOpts = append(reqOpts, o.RequestOptions...)

	p := &Provider{model: o.Model, maxTokens: o.MaxTokens, opts: reqOpts, caps: DefaultCapabilities(),
		limits: provider.BatchLimits{MaxRequests: MaxBatchRequests, MaxBytes: MaxBatchBytes - batchEnvelope}}
	if p.maxTokens == 0 {
		p.maxTokens = DefaultMaxTokens
	}
	if o.Client != nil {
		p.client = *o.Client
	} else {
		p.client = sdk.NewClient()
	}
	if o.Capabilities != nil {
		p.caps = *o.Capabilities
	}
	return p, nil
}

// DefaultCapabilities returns what the Messages API offers the models that
// support structured outputs: native schemas (output_config.format, always
// constrained) and strict tools in the "anthropic" dialect, tools, a forced
// named tool and schemas together with tools. It has no schema-less JSON
// mode.
func DefaultCapabilities() provider.Capabilities {
	return provider.Capabilities{NativeSchema: true, StrictSchema: true, Tools: true,
		ForcedTool: true, SchemaWithTools: true, Dialect: Dialect}
}

// ToolCapabilities returns the capabilities of a model without structured
// outputs (the older Claude models): tools and a forced named tool, in the
// "anthropic" dialect but not strict. Pass them in Options.Capabilities, and
// enforce.ModeAuto then picks the forced tool.
func ToolCapabilities() provider.Capabilities {
	return provider.Capabilities{Tools: true, ForcedTool: true, Dialect: Dialect}
}

// Capabilities reports what the Provider declares: [DefaultCapabilities]
// unless Options.Capabilities replaced them.
func (p *Provider) Capabilities() provider.Capabilities { return p.caps }

// Model returns the model the Provider asks.
func (p *Provider) Model() string { return p.model }

// Generate sends req to the Messages API and returns the model's reply.
// API failures come back as a [*provider.Error] (errors.Is matches
// provider.ErrSchemaRejected, ErrRateLimited, ErrAuth, ErrOverloaded,
// ErrInvalidRequest) carrying the HTTP status, the API's error type and
// message and the request id; a request the adapter cannot map (an unknown
// role, a tool choice without a name, a JSON-object output) is a
// *provider.Error of kind invalid_request made before any call. It may be
// called concurrently; req is not modified.
func (p *Provider) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, err
	}
	out, err := p.client.Messages.New(ctx, params, p.opts...)
	if err != nil {
		return nil, classify(err)
	}
	return response(out), nil
}

// invalid returns the error for a request the adapter cannot send.
func invalid(msg string) *provider.Error {
	return &provider.Error{Kind: provider.ErrInvalidRequest, Provider: Name, Message: msg}
}
