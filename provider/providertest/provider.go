package providertest

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"time"

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
	streamed []int // chunks delivered by each Stream call
}

// A scripted reply, ready to serve: the response a Reply describes (served
// as a deep copy) or the error of a failed call.
type scripted struct {
	resp *provider.Response
	err  error
	// How Stream sends it (see Reply).
	chunks    []string
	chunkSize int
	delay     time.Duration
	cutOff    bool
}

// New returns a Provider that answers its calls with replies, in order. The
// replies are copied: changing the caller's slice afterwards has no effect.
func New(replies ...Reply) *Provider {
	rs := make([]scripted, len(replies))
	for i, r := range replies {
		if r.Chunks != nil {
			r.Text = strings.Join(r.Chunks, "")
		}
		rs[i] = scripted{err: r.Err, chunks: slices.Clone(r.Chunks), chunkSize: r.ChunkSize, delay: r.Delay, cutOff: r.CutOff}
		if r.Err == nil {
			rs[i].resp = response(r)
		} else if r.Chunks == nil && r.Text != "" {
			rs[i].chunks = []string{r.Text}
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
	r, resp, err := p.next(req)
	if err != nil {
		return nil, err
	}
	if r.err != nil {
		return nil, r.err
	}
	return resp, nil
}

// next records req and takes the next scripted reply, with a fresh copy of
// its response (tool calls given their IDs); the error is an
// *ExhaustedError when none is left.
func (p *Provider) next(req *provider.Request) (scripted, *provider.Response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests = append(p.requests, req.Clone())
	if p.served >= len(p.replies) {
		return scripted{}, nil, &ExhaustedError{Call: len(p.requests), Scripted: len(p.replies)}
	}
	r := p.replies[p.served]
	p.served++
	if r.resp == nil {
		return r, nil, nil
	}
	resp := r.resp.Clone()
	for i := range resp.ToolCalls {
		if resp.ToolCalls[i].ID == "" {
			p.callIDs++
			resp.ToolCalls[i].ID = fmt.Sprintf("call_%d", p.callIDs)
		}
	}
	return r, resp, nil
}

// Stream makes p a [provider.Streamer]: it records a deep copy of req and
// takes the next scripted reply as Generate does, then sends it in pieces
// (see [Reply]'s Chunks, ChunkSize, Delay and CutOff): the text, then each
// tool call's arguments, then, unless CutOff, the whole reply. A reply with
// Err sends its pieces and then fails with Err.
//
// Each piece waits Delay first; when ctx ends, the sequence ends with
// ctx.Err(). [Provider.Streamed] tells how many chunks each call delivered
// before the caller stopped or the reply ended.
func (p *Provider) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		r, resp, err := p.next(req)
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		p.mu.Lock()
		call := len(p.streamed)
		p.streamed = append(p.streamed, 0)
		p.mu.Unlock()
		send := func(c provider.Chunk) bool {
			if r.delay > 0 {
				t := time.NewTimer(r.delay)
				select {
				case <-ctx.Done():
					t.Stop()
					yield(provider.Chunk{}, ctx.Err())
					return false
				case <-t.C:
				}
			} else if err := ctx.Err(); err != nil {
				yield(provider.Chunk{}, err)
				return false
			}
			p.mu.Lock()
			p.streamed[call]++
			p.mu.Unlock()
			return yield(c, nil)
		}
		for _, c := range r.pieces(resp) {
			if !send(c) {
				return
			}
		}
		switch {
		case r.err != nil:
			yield(provider.Chunk{}, r.err)
		case !r.cutOff:
			send(provider.Chunk{Response: resp})
		}
	}
}

// pieces returns the chunks that stream the text and the tool calls of
// resp (nil for a failing reply: its scripted chunks) before the final one.
func (r scripted) pieces(resp *provider.Response) []provider.Chunk {
	var out []provider.Chunk
	text := r.chunks
	if text == nil && resp != nil && resp.Text != "" {
		text = split(resp.Text, r.chunkSize)
	}
	for _, t := range text {
		out = append(out, provider.Chunk{Text: t})
	}
	if resp == nil {
		return out
	}
	for i, tc := range resp.ToolCalls {
		args := split(string(tc.Arguments), r.chunkSize)
		if len(args) == 0 {
			args = []string{""}
		}
		for j, a := range args {
			d := &provider.ToolCallDelta{Index: i, Arguments: a}
			if j == 0 {
				d.ID, d.Name = tc.ID, tc.Name
			}
			out = append(out, provider.Chunk{ToolCall: d})
		}
	}
	return out
}

// split cuts s into pieces of size bytes, the last possibly shorter; a
// size of 0 or less gives s whole. An empty s gives no piece.
func split(s string, size int) []string {
	if s == "" {
		return nil
	}
	if size <= 0 {
		return []string{s}
	}
	out := make([]string, 0, (len(s)+size-1)/size)
	for len(s) > size {
		out = append(out, s[:size])
		s = s[size:]
	}
	return append(out, s)
}

// Streamed returns, for each call to [Provider.Stream] that found a reply,
// in call order, how many chunks the caller received: every piece and the
// final chunk when it read to the end, fewer when it stopped early.
func (p *Provider) Streamed() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.streamed)
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
