package provider

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strconv"
)

// FallbackOptions configure [Fallback]. A nil *FallbackOptions means the
// defaults; a zero field means its documented default.
type FallbackOptions struct {
	// On are the error kinds that move a call to the next provider. nil
	// means [ErrRateLimited], [ErrOverloaded] and [ErrSchemaRejected]; an
	// error of another kind is returned at once. Name [ErrOther] to move
	// on after network failures too.
	On []ErrorKind
	// Names name the providers, in order, for Response.Provider. nil
	// means their positions: "0", "1", ...; otherwise there must be one
	// name per provider.
	Names []string
	// Capabilities, when not nil, are the capabilities the chain reports.
	// nil means what every provider supports (see [Fallback]).
	Capabilities *Capabilities
	// OnFallback, when not nil, is called each time a call moves on, with
	// the position of the provider that failed and its error, on the
	// goroutine of the Generate or Stream call.
	OnFallback func(ctx context.Context, from int, err error)
}

// Fallback returns a Provider that calls providers in order: the first
// that answers gives the reply, its name in Response.Provider (see
// FallbackOptions.Names). A call that fails with an error of a kind in
// opts.On ([KindOf]) moves to the next provider; another error, an error
// once ctx has ended, or the last provider's error is returned unchanged.
// Wrap each provider with [WithRetry] to retry it before moving on.
//
// Every provider receives the same request, built by the caller for the
// chain's Capabilities; by default these are what every provider
// supports: a feature is reported only when all have it, and the schema
// features (native schema, strict schema, tools, forced tool, schema with
// tools) only when all share one Dialect, since the request's schemas are
// written in it. A chain of differing providers thus gets prompt-mode
// requests, which any of them can serve; FallbackOptions.Capabilities
// overrides this.
//
// When any provider is a [Streamer], so is the Provider returned: a
// provider that does not stream serves its Generate reply as chunks
// ([Chunks]). A stream moves on only while it has yielded no chunk; once
// one is delivered, its error or its end is passed on as it comes.
//
// Fallback copies providers and opts. No providers, a nil one, or Names
// of another length is an error matching [ErrInvalidOption]. The Provider
// returned is safe for concurrent use when every provider is.
func Fallback(providers []Provider, opts *FallbackOptions) (Provider, error) {
	if len(providers) == 0 {
		return nil, fmt.Errorf("%w: Fallback of no providers", ErrInvalidOption)
	}
	var o FallbackOptions
	if opts != nil {
		o = *opts
	}
	f := &fallback{providers: slices.Clone(providers), on: slices.Clone(o.On), onFallback: o.OnFallback}
	if f.on == nil {
		f.on = []ErrorKind{ErrRateLimited, ErrOverloaded, ErrSchemaRejected}
	}
	switch {
	case o.Names == nil:
		for i := range providers {
			f.names = append(f.names, strconv.Itoa(i))
		}
	case len(o.Names) != len(providers):
		return nil, fmt.Errorf("%w: %d Names for %d providers", ErrInvalidOption, len(o.Names), len(providers))
	default:
		f.names = slices.Clone(o.Names)
	}
	streams := false
	for i, p := range providers {
		if p == nil {
			return nil, fmt.Errorf("%w: provider %d is nil", ErrInvalidOption, i)
		}
		_, ok := p.(Streamer)
		streams = streams || ok
	}
	if o.Capabilities != nil {
		f.caps = *o.Capabilities
	} else {
		f.caps = common(f.providers)
	}
	if streams {
		return compose(f, f.stream, nil), nil
	}
	return f, nil
}

// common returns the capabilities every provider has.
func common(providers []Provider) Capabilities {
	c := providers[0].Capabilities()
	for _, p := range providers[1:] {
		pc := p.Capabilities()
		c.NativeSchema = c.NativeSchema && pc.NativeSchema
		c.StrictSchema = c.StrictSchema && pc.StrictSchema
		c.JSONMode = c.JSONMode && pc.JSONMode
		c.Tools = c.Tools && pc.Tools
		c.ForcedTool = c.ForcedTool && pc.ForcedTool
		c.SchemaWithTools = c.SchemaWithTools && pc.SchemaWithTools
		if pc.Dialect != c.Dialect {
			c = Capabilities{JSONMode: c.JSONMode}
		}
	}
	return c
}

// A fallback is the Provider Fallback returns.
type fallback struct {
	providers  []Provider
	names      []string
	on         []ErrorKind
	caps       Capabilities
	onFallback func(ctx context.Context, from int, err error)
}

func (f *fallback) Capabilities() Capabilities { return f.caps }

func (f *fallback) Generate(ctx context.Context, req *Request) (*Response, error) {
	var err error
	for i, p := range f.providers {
		var resp *Response
		if resp, err = p.Generate(ctx, req); err == nil {
			return f.named(resp, i), nil
		}
		if !f.moveOn(ctx, i, err) {
			break
		}
	}
	return nil, err
}

func (f *fallback) stream(ctx context.Context, req *Request) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		for i, p := range f.providers {
			var seq iter.Seq2[Chunk, error]
			if s, ok := p.(Streamer); ok {
				seq = s.Stream(ctx, req)
			} else {
				seq = generated(ctx, p, req)
			}
			var failed error
			delivered := false
			for ch, err := range seq {
				if err != nil && !delivered {
					failed = err
					break
				}
				delivered = true
				if ch.Response != nil {
					ch.Response = f.named(ch.Response, i)
				}
				if !yield(ch, err) || err != nil {
					return
				}
			}
			if failed == nil {
				return
			}
			if !f.moveOn(ctx, i, failed) {
				yield(Chunk{}, failed)
				return
			}
		}
	}
}

// generated serves p's Generate reply as a stream.
func generated(ctx context.Context, p Provider, req *Request) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		resp, err := p.Generate(ctx, req)
		if err != nil {
			yield(Chunk{}, err)
			return
		}
		for ch, err := range Chunks(resp) {
			if !yield(ch, err) {
				return
			}
		}
	}
}

// moveOn reports whether a call that failed at provider i with err moves
// to the next provider, telling OnFallback when it does.
func (f *fallback) moveOn(ctx context.Context, i int, err error) bool {
	if i == len(f.providers)-1 || ctx.Err() != nil || !slices.Contains(f.on, KindOf(err)) {
		return false
	}
	if f.onFallback != nil {
		f.onFallback(ctx, i, err)
	}
	return true
}

// named returns a copy of resp naming provider i: the provider's reply
// may be its own to keep.
func (f *fallback) named(resp *Response, i int) *Response {
	if resp == nil {
		return nil
	}
	c := *resp
	c.Provider = f.names[i]
	return &c
}
