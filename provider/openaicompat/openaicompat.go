package openaicompat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentio/agentio/provider"
)

// Name is the provider name this adapter puts in [provider.Error] unless
// Options.Name gives another.
const Name = "openaicompat"

// Dialect is the schema dialect of [DefaultCapabilities].
const Dialect = "openai"

// DefaultBaseURL is the API a [Provider] calls when Options.BaseURL is
// empty: OpenAI's.
const DefaultBaseURL = "https://api.openai.com/v1"

// Options configure a [Provider]. The zero value of each field is a
// documented default; only Model is required.
type Options struct {
	// Model names the model ("gpt-4.1-mini", "gemini-2.5-flash"). Required.
	Model string
	// BaseURL is the API's address, up to and without /chat/completions
	// ("https://generativelanguage.googleapis.com/v1beta/openai",
	// "http://localhost:8000/v1"). Empty means [DefaultBaseURL].
	BaseURL string
	// APIKey is sent as a bearer token. Empty sends no Authorization
	// header (a local server).
	APIKey string
	// Header holds more headers every request carries (OpenRouter's
	// HTTP-Referer, Anthropic's anthropic-workspace-id). It is copied.
	Header http.Header
	// HTTPClient sends the requests. Nil means http.DefaultClient; set one
	// with a Timeout, or use the ctx passed to Generate, to bound a call.
	HTTPClient *http.Client
	// Name is the provider name put in errors ("gemini"). Empty means
	// [Name].
	Name string
	// MaxTokens is the output budget sent when a request sets none. Zero
	// sends none (the server's default); negative is invalid.
	MaxTokens int
	// LegacyMaxTokens sends the output budget as max_tokens, which older
	// compatible servers expect, instead of max_completion_tokens.
	LegacyMaxTokens bool
	// Capabilities, when not nil, replaces [DefaultCapabilities]: declare
	// what a compatible server really offers.
	Capabilities *provider.Capabilities
	// OmitStreamUsage leaves stream_options out of the requests
	// [Provider.Stream] sends, for a server that refuses the field (an
	// HTTP 400 naming stream_options). By default Stream asks for usage
	// with stream_options include_usage, without which OpenAI reports
	// none; with OmitStreamUsage the streamed Response carries the usage
	// the server sends unasked, often none.
	OmitStreamUsage bool
}

// ErrInvalidOption is returned (wrapped) by [New] for options it cannot
// use: no model, a negative output budget, a base URL that is not an
// http(s) address.
var ErrInvalidOption = errors.New("openaicompat: invalid option")

// A Provider calls a Chat Completions API. It is immutable after [New]
// and safe for concurrent use.
type Provider struct {
	endpoint  string // the /chat/completions URL
	model     string
	key       string
	header    http.Header
	client    *http.Client
	name      string
	maxTokens int
	legacy    bool
	noUsage   bool // Options.OmitStreamUsage
	caps      provider.Capabilities
}

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
	if o.MaxTokens < 0 {
		return nil, fmt.Errorf("%w: negative max tokens %d", ErrInvalidOption, o.MaxTokens)
	}
	base := strings.TrimRight(strings.TrimSpace(o.BaseURL), "/")
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%w: base URL %q is not an http(s) address", ErrInvalidOption, o.BaseURL)
	}
	p := &Provider{
		endpoint:  base + "/chat/completions",
		model:     o.Model,
		key:       o.APIKey,
		header:    o.Header.Clone(),
		client:    o.HTTPClient,
		name:      o.Name,
		maxTokens: o.MaxTokens,
		legacy:    o.LegacyMaxTokens,
		noUsage:   o.OmitStreamUsage,
		caps:      DefaultCapabilities(),
	}
	if p.client == nil {
		p.client = http.DefaultClient
	}
	if p.name == "" {
		p.name = Name
	}
	if o.Capabilities != nil {
		p.caps = *o.Capabilities
	}
	return p, nil
}

// DefaultCapabilities returns what OpenAI's Chat Completions offer: strict
// native schemas in the "openai" dialect, JSON mode, tools, a forced named
// tool, and a schema together with tools.
func DefaultCapabilities() provider.Capabilities {
	return provider.Capabilities{
		NativeSchema: true, StrictSchema: true, JSONMode: true,
		Tools: true, ForcedTool: true, SchemaWithTools: true,
		Dialect: Dialect,
	}
}

// Capabilities reports what the Provider declares: [DefaultCapabilities]
// unless Options.Capabilities replaced them.
func (p *Provider) Capabilities() provider.Capabilities { return p.caps }

// Model returns the model the Provider asks.
func (p *Provider) Model() string { return p.model }

// maxReplyBody bounds the reply body read from the server.
const maxReplyBody = 64 << 20

// Generate sends req to the server's /chat/completions and returns the
// model's reply. Failures come back as a [*provider.Error] (errors.Is
// matches provider.ErrSchemaRejected, ErrInvalidRequest, ErrRateLimited,
// ErrAuth, ErrOverloaded) with the HTTP status, the server's message and
// the request id; a request the adapter cannot map is a *provider.Error of
// kind invalid_request made before any call. It may be called
// concurrently; req is not modified.
func (p *Provider) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	if req == nil {
		return nil, p.invalid("nil request")
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
	data, err := p.read(res)
	if err != nil {
		return nil, err
	}
	if res.StatusCode >= 300 {
		return nil, p.failure(res, data, req)
	}
	resp, err := p.response(data)
	if err != nil {
		p.fromReply(err, res)
		return nil, err
	}
	return resp, nil
}

// send posts body to the endpoint with the configured headers, asking for
// the accept media type.
func (p *Provider) send(ctx context.Context, body []byte, accept string) (*http.Response, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: p.name, Message: "cannot build the request", Err: err}
	}
	for k, vs := range p.header {
		for _, v := range vs {
			hreq.Header.Add(k, v)
		}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", accept)
	if p.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+p.key)
	}
	res, err := p.client.Do(hreq)
	if err != nil {
		return nil, &provider.Error{Kind: provider.ErrOther, Provider: p.name, Message: "cannot reach the server at " + p.endpoint, Err: err}
	}
	return res, nil
}

// read reads a reply's whole body, up to maxReplyBody.
func (p *Provider) read(res *http.Response) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(res.Body, maxReplyBody))
	if err != nil {
		return nil, p.readFailure(res, err)
	}
	return data, nil
}

// readFailure is the error for a body that could not be read.
func (p *Provider) readFailure(res *http.Response, err error) *provider.Error {
	return &provider.Error{Kind: provider.ErrOther, Provider: p.name, StatusCode: res.StatusCode, Message: "cannot read the reply", Err: err}
}

// failure classifies a reply with a failure status whose body is data,
// with the wait the server asked for in its headers.
func (p *Provider) failure(res *http.Response, data []byte, req *provider.Request) error {
	e := p.statusError(res.StatusCode, data, req.Output != nil || len(req.Tools) > 0)
	e.RequestID = RequestID(res.Header)
	e.RetryAfter = provider.RetryAfterFrom(res.Header, time.Now())
	return e
}

// fromReply marks an error found in the body of res with its status and
// request id.
func (p *Provider) fromReply(err error, res *http.Response) {
	var pe *provider.Error
	if errors.As(err, &pe) {
		pe.StatusCode, pe.RequestID = res.StatusCode, RequestID(res.Header)
	}
}

// invalid returns the error for a request the adapter cannot send.
func (p *Provider) invalid(msg string) *provider.Error {
	return &provider.Error{Kind: provider.ErrInvalidRequest, Provider: p.name, Message: msg}
}
