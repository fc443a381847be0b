package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/agentio/agentio/provider"
)

// Name is the provider name this adapter puts in [provider.Error].
const Name = "openai"

// API selects the OpenAI endpoint a [Provider] calls.
type API string

// The APIs.
const (
	// APIChatCompletions calls POST /chat/completions, which OpenAI and
	// the OpenAI-compatible servers all offer (the zero value).
	APIChatCompletions API = ""
	// APIResponses calls POST /responses, OpenAI's newer API.
	APIResponses API = "responses"
)

// MaxTokensParam names the request field that carries
// [provider.Request.MaxTokens].
type MaxTokensParam string

// The token limit fields.
const (
	// MaxTokensAuto uses max_completion_tokens with OpenAI and max_tokens
	// with other servers (the zero value).
	MaxTokensAuto MaxTokensParam = ""
	// MaxTokensCompletion sends max_completion_tokens, which OpenAI's
	// reasoning models require.
	MaxTokensCompletion MaxTokensParam = "max_completion_tokens"
	// MaxTokensLegacy sends max_tokens, which older compatible servers
	// understand and OpenAI deprecates.
	MaxTokensLegacy MaxTokensParam = "max_tokens"
)

// Options configure a [Provider]. The zero value of each field is a
// documented default; only Model is required.
type Options struct {
	// Model names the model ("gpt-4.1-mini"; "qwen3" on Ollama). Required.
	Model string
	// APIKey is sent as the bearer token. Empty means the SDK's default,
	// the OPENAI_API_KEY environment variable; local servers need none.
	APIKey string
	// BaseURL is the API's base URL, for OpenAI-compatible servers:
	// "http://localhost:8000/v1" (vLLM), "http://localhost:8080/v1"
	// (llama.cpp server), "http://localhost:11434/v1" (Ollama),
	// "http://localhost:1234/v1" (LM Studio). Empty means the SDK's
	// default: OPENAI_BASE_URL if set, else https://api.openai.com/v1.
	// The endpoint counts as OpenAI's own (for the default Capabilities and
	// MaxTokensParam) when its host is api.openai.com, or when BaseURL is
	// empty and Client is set.
	BaseURL string
	// HTTPClient sends the requests. Nil means the SDK's default client.
	HTTPClient *http.Client
	// Client is the SDK client to use. Nil means a new client built from
	// the SDK's defaults; when set, APIKey, BaseURL, HTTPClient and
	// RequestOptions still apply, on top of its own options.
	Client *sdk.Client
	// RequestOptions are extra SDK options applied to every request:
	// headers, option.WithMaxRetries (the SDK retries 429 and 5xx twice by
	// default), timeouts. Behind provider.WithRetry, which honours the
	// wait a 429 asks for (Error.RetryAfter), pass option.WithMaxRetries(0)
	// so that a call is not retried by both.
	RequestOptions []option.RequestOption
	// API selects the endpoint; the zero value is APIChatCompletions.
	API API
	// MaxTokensParam names the field that carries Request.MaxTokens; the
	// zero value is MaxTokensAuto.
	MaxTokensParam MaxTokensParam
	// Capabilities, when not nil, replaces the capabilities derived from
	// the endpoint: with OpenAI everything (strict schemas in the "openai"
	// dialect, forced tools, schema with tools); with other servers
	// native schemas (not strict, passthrough dialect), JSON mode and
	// tools, but no forced named tool, since compatible servers often
	// ignore strict and the object form of tool_choice.
	Capabilities *provider.Capabilities
}

// A Provider calls an OpenAI or OpenAI-compatible endpoint through the
// official SDK. It is immutable after [New] and safe for concurrent use.
type Provider struct {
	client    sdk.Client
	opts      []option.RequestOption
	model     string
	api       API
	maxTokens MaxTokensParam
	caps      provider.Capabilities
	limits    provider.BatchLimits // the Batch API's; tests lower them
}

// ErrInvalidOption is returned (wrapped) by [New] for options it cannot
// use: no model, an unknown API or token field, a malformed base URL.
var ErrInvalidOption = errors.New("openai: invalid option")

// New returns a Provider configured by opts, which it copies. It returns
// an error matching [ErrInvalidOption] when opts is nil or a field is
// invalid; it makes no request.
func New(opts *Options) (*Provider, error) {
	if opts == nil {
		return nil, fmt.Errorf("%w: nil options", ErrInvalidOption)
	}
	o := *opts
	if strings.TrimSpace(o.Model) == "" {
		return nil, fmt.Errorf("%w: no model", ErrInvalidOption)
	}
	switch o.API {
	case APIChatCompletions, APIResponses:
	default:
		return nil, fmt.Errorf("%w: unknown API %q", ErrInvalidOption, string(o.API))
	}
	switch o.MaxTokensParam {
	case MaxTokensAuto, MaxTokensCompletion, MaxTokensLegacy:
	default:
		return nil, fmt.Errorf("%w: unknown max tokens field %q", ErrInvalidOption, string(o.MaxTokensParam))
	}
	base := o.BaseURL
	if base == "" && o.Client == nil {
		base = os.Getenv("OPENAI_BASE_URL")
	}
	official := true
	if base != "" {
		u, err := url.Parse(base)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("%w: base URL %q is not an absolute URL", ErrInvalidOption, base)
		}
		official = strings.EqualFold(u.Hostname(), "api.openai.com")
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

	p := &Provider{model: o.Model, api: o.API, maxTokens: o.MaxTokensParam, opts: reqOpts,
		limits: provider.BatchLimits{MaxRequests: MaxBatchRequests, MaxBytes: MaxBatchBytes}}
	if o.Client != nil {
		p.client = *o.Client
	} else {
		p.client = sdk.NewClient()
	}
	if p.maxTokens == MaxTokensAuto {
		p.maxTokens = MaxTokensLegacy
		if official {
			p.maxTokens = MaxTokensCompletion
		}
	}
	switch {
	case o.Capabilities != nil:
		p.caps = *o.Capabilities
	case official:
		p.caps = OfficialCapabilities()
	default:
		p.caps = CompatibleCapabilities()
	}
	return p, nil
}

// OfficialCapabilities returns the capabilities of OpenAI's own endpoint:
// native strict schemas in the "openai" dialect, JSON mode, tools, forced
// named tools and schemas together with tools. Pass them in
// Options.Capabilities for a proxy that forwards to OpenAI (Azure OpenAI,
// a gateway).
func OfficialCapabilities() provider.Capabilities {
	return provider.Capabilities{NativeSchema: true, StrictSchema: true, JSONMode: true, Tools: true,
		ForcedTool: true, SchemaWithTools: true, Dialect: "openai"}
}

// CompatibleCapabilities returns the capabilities assumed for an
// OpenAI-compatible server: native schemas passed through as written (no
// strict guarantee), JSON mode and tools, but no forced named tool.
func CompatibleCapabilities() provider.Capabilities {
	return provider.Capabilities{NativeSchema: true, JSONMode: true, Tools: true}
}

// Capabilities reports what the endpoint supports, as derived in [New] or
// set by Options.Capabilities.
func (p *Provider) Capabilities() provider.Capabilities { return p.caps }

// Model returns the model the Provider asks.
func (p *Provider) Model() string { return p.model }

// Generate sends req to the endpoint and returns the model's reply. API
// failures come back as a [*provider.Error] (errors.Is matches
// provider.ErrSchemaRejected, ErrRateLimited, ErrAuth, ErrOverloaded,
// ErrInvalidRequest) carrying the HTTP status, the provider's message and
// request id; a request the adapter cannot map (an unknown role, a tool
// choice without a name) is a *provider.Error of kind invalid_request made
// before any call. It may be called concurrently; req is not modified.
func (p *Provider) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	if err := checkRequest(req); err != nil {
		return nil, err
	}
	var rec recorder
	opts := append(append([]option.RequestOption(nil), p.opts...), option.WithMiddleware(rec.middleware))
	if p.api == APIResponses {
		return p.generateResponses(ctx, req, &rec, opts)
	}
	return p.generateChat(ctx, req, &rec, opts)
}

// checkRequest refuses a request no API can carry, before it is mapped:
// nil, or with a negative token limit. Generate and the batch requests
// share it.
func checkRequest(req *provider.Request) error {
	if req == nil {
		return invalid("nil request")
	}
	if req.MaxTokens < 0 {
		return invalid(fmt.Sprintf("negative max tokens %d", req.MaxTokens))
	}
	return nil
}

// invalid returns the error for a request the adapter cannot send.
func invalid(msg string) *provider.Error {
	return &provider.Error{Kind: provider.ErrInvalidRequest, Provider: Name, Message: msg}
}
