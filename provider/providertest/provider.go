package providertest

import (
	"context"
	"fmt"
	"sync"

	"github.com/agentio/agentio/provider"
)

// A Provider is a scripted [provider.Provider]: its n-th call to Generate
// answers with the n-th [Reply] given to [New], and every request is
// recorded. It reports text-only capabilities (see the package
// documentation to declare more).
//
// A Provider is safe for concurrent use; concurrent calls take the replies
// in the order the calls reach it. Use one Provider per test.
type Provider struct {
	mu       sync.Mutex
	replies  []scripted
	served   int
	requests []*provider.Request
	callIDs  int
}

// A scripted reply, ready to serve: the response a Reply describes (served
// as a deep copy) or the error of a failed call.
type scripted struct {
	resp *provider.Response
	err  error
}

// New returns a Provider that answers its calls with replies, in order. The
// replies are copied: changing the caller's slice afterwards has no effect.
func New(replies ...Reply) *Provider {
	rs := make([]scripted, len(replies))
	for i, r := range replies {
		if r.Err != nil {
			rs[i].err = r.Err
		} else {
			rs[i].resp = response(r)
		}
	}
	return &Provider{replies: rs}
}

// Generate records a deep copy of req and answers with the next scripted
// reply: a fresh Response the caller may modify, or the reply's Err.
//
// When ctx is already done it returns ctx.Err() without recording req or
// using a reply. When every reply has been used it records req and returns
// an [*ExhaustedError].
func (p *Provider) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests = append(p.requests, req.Clone())
	if p.served >= len(p.replies) {
		return nil, &ExhaustedError{Call: len(p.requests), Scripted: len(p.replies)}
	}
	r := p.replies[p.served]
	p.served++
	if r.err != nil {
		return nil, r.err
	}
	resp := r.resp.Clone()
	for i := range resp.ToolCalls {
		if resp.ToolCalls[i].ID == "" {
			p.callIDs++
			resp.ToolCalls[i].ID = fmt.Sprintf("call_%d", p.callIDs)
		}
	}
	return resp, nil
}

// response returns the Response r describes, with the defaults of an empty
// StopReason and a zero TotalTokens filled in. It shares nothing with r.
func response(r Reply) *provider.Response {
	resp := &provider.Response{
		Text:          r.Text,
		Refusal:       r.Refusal,
		StopReason:    r.StopReason,
		RawStopReason: string(r.StopReason),
		Usage:         r.Usage,
		Model:         r.Model,
	}
	if len(r.ToolCalls) > 0 {
		resp.ToolCalls = r.ToolCalls
		resp = resp.Clone()
	}
	if resp.StopReason == "" {
		switch {
		case len(resp.ToolCalls) > 0:
			resp.StopReason = provider.StopToolUse
		case resp.Refusal != "":
			resp.StopReason = provider.StopRefusal
		default:
			resp.StopReason = provider.StopEnd
		}
	}
	if resp.Usage.TotalTokens == 0 {
		resp.Usage.TotalTokens = resp.Usage.InputTokens + resp.Usage.OutputTokens
	}
	return resp
}

// Capabilities reports a text-only provider (the zero Capabilities).
func (p *Provider) Capabilities() provider.Capabilities { return provider.Capabilities{} }

// Requests returns deep copies of the requests received so far, oldest
// first; the caller owns them. It includes a request that found no reply
// left, but not one made with an already-done context.
func (p *Provider) Requests() []*provider.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*provider.Request, len(p.requests))
	for i, r := range p.requests {
		out[i] = r.Clone()
	}
	return out
}

// Remaining reports how many scripted replies have not been used yet.
func (p *Provider) Remaining() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.replies) - p.served
}

// An ExhaustedError is returned by [Provider.Generate] for a call made after
// every scripted reply was used: the code under test called the model more
// often than the test expected.
type ExhaustedError struct {
	// Call is the number of the failing call, counting from 1.
	Call int
	// Scripted is the number of replies given to [New].
	Scripted int
}

// Error returns "providertest: call N made but only M replies were scripted".
func (e *ExhaustedError) Error() string {
	noun := "replies were"
	if e.Scripted == 1 {
		noun = "reply was"
	}
	return fmt.Sprintf("providertest: call %d made but only %d %s scripted", e.Call, e.Scripted, noun)
}
