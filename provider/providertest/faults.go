package providertest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/agentio/agentio/provider"
)

// A Fault is a failure a [Faulty] provider injects into a call.
type Fault string

// The faults. Those that fail the call (rate limited, server error,
// unavailable, reset, hang) never reach the provider wrapped; those that
// spoil a reply (stream cut, truncated, not text) call it and change what
// it answered; a slow first byte delays the call, then makes it.
const (
	// FaultRateLimited fails the call with a *provider.Error of kind
	// rate_limited, HTTP 429, whose RetryAfter is FaultOptions.RetryAfter.
	FaultRateLimited Fault = "rate_limited"
	// FaultServerError fails the call with a *provider.Error of kind
	// overloaded, HTTP 500.
	FaultServerError Fault = "server_error"
	// FaultUnavailable fails the call with a *provider.Error of kind
	// overloaded, HTTP 503.
	FaultUnavailable Fault = "unavailable"
	// FaultReset fails the call as a connection reset by the server: a
	// *provider.Error of kind other wrapping syscall.ECONNRESET.
	FaultReset Fault = "reset"
	// FaultSlowFirstByte waits FaultOptions.SlowFor (less when the
	// context ends first: the call then fails with the context's error)
	// before making the call.
	FaultSlowFirstByte Fault = "slow_first_byte"
	// FaultStreamCut cuts the reply off halfway through its text, as a
	// connection closed mid-value: a stream sends the first half and ends
	// without its final chunk; Generate returns what [provider.Collect]
	// makes of that, the half with StopReason length and RawStopReason
	// "stream_cut_off".
	FaultStreamCut Fault = "stream_cut"
	// FaultTruncated cuts the reply off halfway through its text at the
	// token limit: StopReason length, RawStopReason "length".
	FaultTruncated Fault = "truncated"
	// FaultNotText replaces the reply's text with bytes that are not
	// UTF-8 text.
	FaultNotText Fault = "not_text"
	// FaultHang makes the call wait until its context ends, then fail
	// with an error matching the context's error.
	FaultHang Fault = "hang"
)

// Faults lists every [Fault], in the order of their declaration.
func Faults() []Fault {
	return []Fault{FaultRateLimited, FaultServerError, FaultUnavailable, FaultReset, FaultSlowFirstByte,
		FaultStreamCut, FaultTruncated, FaultNotText, FaultHang}
}

// NotText is the text a reply spoilt by [FaultNotText] carries.
const NotText = "\xff\xfe\x00\x81\xc3\x28\xa0\xa1"

// FaultOptions configure [NewFaulty]. A nil *FaultOptions injects no
// fault; a zero field means its documented default.
type FaultOptions struct {
	// Schedule names the fault of chosen calls by their number, from 0,
	// in the order the calls reach the provider. A call it names gets
	// that fault whatever Rate says; an empty Fault runs the call clean.
	Schedule map[int]Fault
	// Rate is the share of the other calls faulted, from 0 (none, the
	// default) to 1 (all). Each faulted call gets one of Kinds.
	Rate float64
	// Kinds are the faults Rate picks among, evenly. nil means every
	// fault but [FaultHang], which needs a context that ends.
	Kinds []Fault
	// Seed makes the choice of Rate reproducible: call n's fault depends
	// on Seed and n alone, however calls interleave.
	Seed uint64
	// RetryAfter is the wait [FaultRateLimited] asks for. 0 means 1s.
	RetryAfter time.Duration
	// SlowFor is the delay of [FaultSlowFirstByte]. 0 means 50ms.
	SlowFor time.Duration
}

// A Faulty is a [provider.Streamer] that makes its calls through another
// provider, injecting faults by a schedule or at a rate ([FaultOptions]).
// A provider wrapped that does not stream serves its Generate reply as
// chunks ([provider.Chunks]). Its capabilities are the wrapped
// provider's. [NewFaultyHandler] injects the same faults into HTTP.
//
// A Faulty is safe for concurrent use when the provider it wraps is; it
// counts its calls and the faults it injected ([Faulty.Injected]).
type Faulty struct {
	p provider.Provider
	*faultSchedule
}

// NewFaulty returns a Faulty over p. It copies opts. A Rate outside
// [0, 1], a negative RetryAfter or SlowFor, or a Fault it does not know
// is an error.
func NewFaulty(p provider.Provider, opts *FaultOptions) (*Faulty, error) {
	if p == nil {
		return nil, errors.New("providertest: NewFaulty of a nil provider")
	}
	s, err := newFaultSchedule(opts)
	if err != nil {
		return nil, err
	}
	return &Faulty{p: p, faultSchedule: s}, nil
}

// A faultSchedule numbers the calls of a [Faulty] or the requests of a
// [FaultyHandler] and picks each one's fault.
type faultSchedule struct {
	o        FaultOptions
	mu       sync.Mutex
	calls    int
	injected map[Fault]int
}

// newFaultSchedule checks and copies opts, its defaults set.
func newFaultSchedule(opts *FaultOptions) (*faultSchedule, error) {
	var o FaultOptions
	if opts != nil {
		o = *opts
	}
	o.Schedule = maps.Clone(o.Schedule)
	o.Kinds = slices.Clone(o.Kinds)
	switch {
	case !(o.Rate >= 0 && o.Rate <= 1):
		return nil, fmt.Errorf("providertest: fault rate %v is not in [0, 1]", o.Rate)
	case o.RetryAfter < 0 || o.SlowFor < 0:
		return nil, errors.New("providertest: a negative RetryAfter or SlowFor")
	}
	if o.Kinds == nil {
		o.Kinds = slices.DeleteFunc(Faults(), func(f Fault) bool { return f == FaultHang })
	}
	if o.Rate > 0 && len(o.Kinds) == 0 {
		return nil, errors.New("providertest: a fault rate with no Kinds")
	}
	for _, f := range append(slices.Collect(maps.Values(o.Schedule)), o.Kinds...) {
		if f != "" && !slices.Contains(Faults(), f) {
			return nil, fmt.Errorf("providertest: unknown fault %q", f)
		}
	}
	if o.RetryAfter == 0 {
		o.RetryAfter = time.Second
	}
	if o.SlowFor == 0 {
		o.SlowFor = 50 * time.Millisecond
	}
	return &faultSchedule{o: o, injected: map[Fault]int{}}, nil
}

// Capabilities returns the wrapped provider's.
func (f *Faulty) Capabilities() provider.Capabilities { return f.p.Capabilities() }

// Calls returns the number of calls (or requests) made so far.
func (s *faultSchedule) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// Injected returns how many times each fault was injected, a copy.
func (s *faultSchedule) Injected() map[Fault]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.injected)
}

// next numbers a call and picks its fault ("" for none).
func (s *faultSchedule) next() Fault {
	s.mu.Lock()
	n := s.calls
	s.calls++
	s.mu.Unlock()
	fault, scheduled := s.o.Schedule[n]
	if !scheduled && s.o.Rate > 0 {
		r := rand.New(rand.NewPCG(s.o.Seed, uint64(n)))
		if r.Float64() < s.o.Rate {
			fault = s.o.Kinds[r.IntN(len(s.o.Kinds))]
		}
	}
	if fault != "" {
		s.mu.Lock()
		s.injected[fault]++
		s.mu.Unlock()
	}
	return fault
}

// Generate makes the call through the wrapped provider, with the fault
// the schedule or the rate gives it.
func (f *Faulty) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	fault := f.next()
	if err := f.fail(ctx, fault); err != nil {
		return nil, err
	}
	resp, err := f.p.Generate(ctx, req)
	if err != nil {
		return nil, err
	}
	return spoil(resp, fault), nil
}

// Stream makes the call through the wrapped provider, streaming when it
// streams, with the fault the schedule or the rate gives it.
func (f *Faulty) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		fault := f.next()
		if err := f.fail(ctx, fault); err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		var seq iter.Seq2[provider.Chunk, error]
		if s, ok := f.p.(provider.Streamer); ok {
			seq = s.Stream(ctx, req)
		} else {
			resp, err := f.p.Generate(ctx, req)
			if err != nil {
				yield(provider.Chunk{}, err)
				return
			}
			seq = provider.Chunks(resp)
		}
		if fault == FaultStreamCut || fault == FaultTruncated || fault == FaultNotText {
			// The reply is spoilt whole, then sent in the shape the fault
			// gives it: a spoilt reply's pieces are its own.
			resp, err := provider.Collect(seq)
			if err != nil {
				yield(provider.Chunk{}, err)
				return
			}
			seq = provider.Chunks(spoil(resp, fault))
			if fault == FaultStreamCut {
				seq = withoutLast(seq)
			}
		}
		for ch, err := range seq {
			if !yield(ch, err) || err != nil {
				return
			}
		}
	}
}

// fail returns the error of a fault that fails the call, after the
// delay of one that slows it; nil when the call is to be made.
func (f *Faulty) fail(ctx context.Context, fault Fault) error {
	switch fault {
	case FaultRateLimited:
		return &provider.Error{Kind: provider.ErrRateLimited, Provider: "providertest", StatusCode: 429, Message: "injected: rate limited", RetryAfter: f.o.RetryAfter}
	case FaultServerError:
		return &provider.Error{Kind: provider.ErrOverloaded, Provider: "providertest", StatusCode: 500, Message: "injected: internal server error"}
	case FaultUnavailable:
		return &provider.Error{Kind: provider.ErrOverloaded, Provider: "providertest", StatusCode: 503, Message: "injected: service unavailable"}
	case FaultReset:
		return &provider.Error{Kind: provider.ErrOther, Provider: "providertest", Message: "injected: connection reset",
			Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}
	case FaultHang:
		<-ctx.Done()
		return fmt.Errorf("providertest: injected hang until the context ended: %w", ctx.Err())
	case FaultSlowFirstByte:
		t := time.NewTimer(f.o.SlowFor)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return fmt.Errorf("providertest: injected slow first byte: %w", ctx.Err())
		case <-t.C:
		}
	}
	return nil
}

// spoil returns resp changed by a fault that spoils a reply; resp itself
// otherwise.
func spoil(resp *provider.Response, fault Fault) *provider.Response {
	switch fault {
	case FaultStreamCut, FaultTruncated:
		c := resp.Clone()
		c.Text = half(c.Text)
		c.ToolCalls = nil
		c.StopReason, c.RawStopReason = provider.StopLength, "length"
		if fault == FaultStreamCut {
			c.RawStopReason = "stream_cut_off"
		}
		return c
	case FaultNotText:
		c := resp.Clone()
		c.Text = NotText
		c.ToolCalls = nil
		return c
	}
	return resp
}

// half returns the first half of s, cut at a rune boundary.
func half(s string) string {
	i := len(s) / 2
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// withoutLast passes on seq but its final chunk, the one carrying the
// whole Response: a stream cut off.
func withoutLast(seq iter.Seq2[provider.Chunk, error]) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		for ch, err := range seq {
			if ch.Response != nil {
				return
			}
			if !yield(ch, err) || err != nil {
				return
			}
		}
	}
}
