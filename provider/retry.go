package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"sync"
	"syscall"
	"time"
)

// RetryOptions configure [WithRetry]. A nil *RetryOptions means the
// defaults; a zero field means its documented default.
type RetryOptions struct {
	// MaxAttempts bounds the calls made for one Generate or Stream, the
	// first included: 1 makes no retry. 0 means 4.
	MaxAttempts int
	// BaseDelay is the ceiling of the first backoff; each retry doubles
	// it, up to MaxDelay. 0 means 500ms.
	BaseDelay time.Duration
	// MaxDelay bounds one wait. A provider that asks for a longer one
	// (Error.RetryAfter) is not retried: its error is returned, since
	// waiting less than it asked would fail again. 0 means 30s.
	MaxDelay time.Duration
	// Budget bounds the time from the first call to the start of the
	// last retry: a wait that would end past it is not started and the
	// last error is returned. A call in flight is not cut short; a
	// deadline on the context does that. 0 means no budget beyond the
	// context's deadline (a wait that would end past that deadline is
	// not started either).
	Budget time.Duration
	// Retryable reports whether a failed call may be retried. nil means
	// [Retryable]. An error of the caller's context (one that has ended)
	// is never retried, whatever Retryable says.
	Retryable func(err error) bool
	// OnRetry, when not nil, is called before each wait with the number
	// of the attempt that failed (from 1), its error and the wait, on the
	// goroutine of the Generate or Stream call that retries.
	OnRetry func(ctx context.Context, attempt int, err error, wait time.Duration)
	// Rand returns the jitter, a number in [0, 1). nil means
	// math/rand/v2's Float64. Calls to it are serialised, so a seeded
	// (*rand.Rand).Float64 may be given for a reproducible run.
	Rand func() float64
	// Sleep waits d or until ctx ends, whichever comes first, returning
	// ctx's error in the second case. nil means a timer. Tests give one
	// that records the wait and returns at once. It may be called
	// concurrently.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now returns the current time, for Budget and for the context's
	// deadline. nil means time.Now; a test that gives a fake clock uses a
	// context without a deadline, or one on the same clock.
	Now func() time.Time
}

// Default retry options.
const (
	defaultMaxAttempts = 4
	defaultBaseDelay   = 500 * time.Millisecond
	defaultMaxDelay    = 30 * time.Second
)

// WithRetry returns a Provider that calls p and, when a call fails with an
// error opts.Retryable accepts ([Retryable] by default: rate limited,
// overloaded, a connection reset or cut, a timeout the caller's context
// did not cause), waits and calls again, up to opts.MaxAttempts calls.
//
// The wait is exponential backoff with full jitter: a random duration
// between 0 and BaseDelay·2^(attempt-1), capped at MaxDelay; when the
// error is an [*Error] whose RetryAfter is longer, the wait is RetryAfter,
// never less. A RetryAfter past MaxDelay, a wait that would end past the
// Budget or past ctx's deadline, or attempts spent end the retries: the
// last error is returned unchanged, so errors.Is and [KindOf] read it as
// p's. Auth failures, invalid requests and rejected schemas are never
// retried, nor is any error once ctx has ended.
//
// When ctx ends during a wait, the call returns at once with an error
// that matches (errors.Is) both ctx's error and the last error of p.
//
// When p is a [Streamer], so is the Provider returned: a stream is
// retried only while it has yielded no chunk (the failure came before the
// reply began); once a chunk is delivered, the stream's error or its end
// is passed on as it comes. When p is a [Batcher] or a [BatchFinder], so
// is the Provider returned, its batch methods p's own, not retried.
// Capabilities are p's.
//
// WithRetry copies opts. A negative MaxAttempts, BaseDelay, MaxDelay or
// Budget, or a nil p, is an error matching [ErrInvalidOption]. The
// Provider returned is safe for concurrent use when p is; hooks run on
// the caller's goroutine.
func WithRetry(p Provider, opts *RetryOptions) (Provider, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: WithRetry of a nil provider", ErrInvalidOption)
	}
	var o RetryOptions
	if opts != nil {
		o = *opts
	}
	switch {
	case o.MaxAttempts < 0:
		return nil, fmt.Errorf("%w: MaxAttempts %d is negative", ErrInvalidOption, o.MaxAttempts)
	case o.BaseDelay < 0 || o.MaxDelay < 0 || o.Budget < 0:
		return nil, fmt.Errorf("%w: a negative BaseDelay, MaxDelay or Budget", ErrInvalidOption)
	}
	if o.MaxAttempts == 0 {
		o.MaxAttempts = defaultMaxAttempts
	}
	if o.BaseDelay == 0 {
		o.BaseDelay = defaultBaseDelay
	}
	if o.MaxDelay == 0 {
		o.MaxDelay = defaultMaxDelay
	}
	if o.Retryable == nil {
		o.Retryable = Retryable
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	r := &retrier{p: p, o: o}
	var stream streamFunc
	if s, ok := p.(Streamer); ok {
		r.s = s
		stream = r.stream
	}
	return compose(r, stream, p), nil
}

// Retryable reports whether err is a failure that may pass if the call is
// made again: an [*Error] of kind [ErrRateLimited] or [ErrOverloaded]; or,
// with no *Error of another named kind in its chain, a connection reset,
// aborted or broken, a reply cut short (io.ErrUnexpectedEOF), or a
// timeout (a net.Error that says so, os.ErrDeadlineExceeded,
// context.DeadlineExceeded). [ErrAuth], [ErrInvalidRequest] and
// [ErrSchemaRejected] are never retryable, nor is context.Canceled.
//
// A deadline of the caller's own context also matches the last case:
// [WithRetry] checks the context itself and never retries once it has
// ended.
func Retryable(err error) bool {
	if err == nil {
		return false
	}
	switch KindOf(err) {
	case ErrRateLimited, ErrOverloaded:
		return true
	case ErrAuth, ErrInvalidRequest, ErrSchemaRejected:
		return false
	}
	if errors.Is(err, context.Canceled) {
		return false
	}
	for _, transient := range []error{io.ErrUnexpectedEOF, syscall.ECONNRESET, syscall.ECONNABORTED, syscall.EPIPE,
		os.ErrDeadlineExceeded, context.DeadlineExceeded} {
		if errors.Is(err, transient) {
			return true
		}
	}
	// A connection the server closed before its response: the client
	// reports EOF for the request (a url.Error), not a reply cut short.
	var ue *url.Error
	if errors.As(err, &ue) && errors.Is(ue.Err, io.EOF) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A retrier is the Provider WithRetry returns.
type retrier struct {
	p  Provider
	s  Streamer // p, when it streams
	o  RetryOptions
	mu sync.Mutex // serialises o.Rand
}

func (r *retrier) Capabilities() Capabilities { return r.p.Capabilities() }

func (r *retrier) Generate(ctx context.Context, req *Request) (*Response, error) {
	start := r.o.Now()
	for attempt := 1; ; attempt++ {
		resp, err := r.p.Generate(ctx, req)
		if err == nil {
			return retried(resp, attempt), nil
		}
		if err := r.wait(ctx, attempt, err, start); err != nil {
			return nil, err
		}
	}
}

func (r *retrier) stream(ctx context.Context, req *Request) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		start := r.o.Now()
		for attempt := 1; ; attempt++ {
			var failed error
			delivered := false
			for ch, err := range r.s.Stream(ctx, req) {
				if err != nil && !delivered {
					failed = err
					break
				}
				delivered = true
				if ch.Response != nil {
					ch.Response = retried(ch.Response, attempt)
				}
				if !yield(ch, err) || err != nil {
					return
				}
			}
			if failed == nil {
				return
			}
			if err := r.wait(ctx, attempt, failed, start); err != nil {
				yield(Chunk{}, err)
				return
			}
		}
	}
}

// wait decides whether to retry after attempt failed with err, in a call
// that began at start. It returns nil after waiting, when the call is to
// be made again, or the error to return.
func (r *retrier) wait(ctx context.Context, attempt int, err error, start time.Time) error {
	if ctx.Err() != nil || attempt >= r.o.MaxAttempts || !r.o.Retryable(err) {
		return err
	}
	d := r.backoff(attempt)
	var pe *Error
	if errors.As(err, &pe) && pe.RetryAfter > d {
		if pe.RetryAfter > r.o.MaxDelay {
			return err
		}
		d = pe.RetryAfter
	}
	now := r.o.Now()
	if r.o.Budget > 0 && now.Sub(start)+d > r.o.Budget {
		return err
	}
	if deadline, ok := ctx.Deadline(); ok && now.Add(d).After(deadline) {
		return err
	}
	if r.o.OnRetry != nil {
		r.o.OnRetry(ctx, attempt, err, d)
	}
	if serr := r.o.Sleep(ctx, d); serr != nil {
		if cerr := ctx.Err(); cerr != nil {
			serr = cerr
		}
		return fmt.Errorf("provider: retry wait cut short: %w; last error: %w", serr, err)
	}
	return nil
}

// backoff returns the jittered backoff before the retry that follows
// attempt: a random duration in [0, min(MaxDelay, BaseDelay·2^(attempt-1))).
func (r *retrier) backoff(attempt int) time.Duration {
	ceiling := r.o.MaxDelay
	if shift := attempt - 1; shift < 62 {
		if c := r.o.BaseDelay << shift; c > 0 && c>>shift == r.o.BaseDelay && c < ceiling {
			ceiling = c
		}
	}
	r.mu.Lock()
	f := r.o.Rand()
	r.mu.Unlock()
	if f < 0 || f >= 1 {
		f = 0
	}
	return time.Duration(f * float64(ceiling))
}

// retried returns resp, answered at the given attempt, counting the
// retries before it: a copy when there were some, so that the reply of
// the provider wrapped is never changed.
func retried(resp *Response, attempt int) *Response {
	if resp == nil || attempt <= 1 {
		return resp
	}
	c := *resp
	c.Retries += attempt - 1
	return &c
}
