package provider_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// A fakeClock is a clock that moves only when slept on: tests never
// sleep for real, and every wait is recorded.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func newClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

func (c *fakeClock) Waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}

// options returns o with the clock's hooks, and the jitter fixed at half
// the ceiling unless o sets its own.
func (c *fakeClock) options(o provider.RetryOptions) *provider.RetryOptions {
	o.Now, o.Sleep = c.Now, c.Sleep
	if o.Rand == nil {
		o.Rand = func() float64 { return 0.5 }
	}
	return &o
}

func rateLimited(after time.Duration) error {
	return &provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429, RetryAfter: after}
}

var (
	overloaded = &provider.Error{Kind: provider.ErrOverloaded, StatusCode: 503}
	errNoHost  = errors.New("no such host")
)

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// TestWithRetryRules: one case per rule of the retry wrapper, each a
// script of replies, the waits asked and the calls made.
func TestWithRetryRules(t *testing.T) {
	now := newClock().Now()
	dated := provider.RetryAfterFrom(http.Header{"Retry-After": {now.Add(2 * time.Second).Format(http.TimeFormat)}}, now)
	tests := []struct {
		name    string
		opts    provider.RetryOptions
		replies []providertest.Reply
		waits   []time.Duration
		calls   int
		wantErr error // nil: the last reply answers
	}{
		{
			name:    "rate limited, then an answer: one jittered wait",
			opts:    provider.RetryOptions{BaseDelay: 100 * time.Millisecond},
			replies: []providertest.Reply{providertest.Failed(rateLimited(0)), providertest.Text("ok")},
			waits:   []time.Duration{50 * time.Millisecond},
			calls:   2,
		},
		{
			name:    "Retry-After in seconds is waited in full",
			opts:    provider.RetryOptions{BaseDelay: 100 * time.Millisecond},
			replies: []providertest.Reply{providertest.Failed(rateLimited(3 * time.Second)), providertest.Text("ok")},
			waits:   []time.Duration{3 * time.Second},
			calls:   2,
		},
		{
			name:    "Retry-After as an HTTP date is waited in full",
			opts:    provider.RetryOptions{BaseDelay: 100 * time.Millisecond},
			replies: []providertest.Reply{providertest.Failed(rateLimited(dated)), providertest.Text("ok")},
			waits:   []time.Duration{2 * time.Second},
			calls:   2,
		},
		{
			name:    "a backoff longer than Retry-After wins",
			opts:    provider.RetryOptions{BaseDelay: 10 * time.Second, Rand: func() float64 { return 0.9 }},
			replies: []providertest.Reply{providertest.Failed(rateLimited(time.Second)), providertest.Text("ok")},
			waits:   []time.Duration{9 * time.Second},
			calls:   2,
		},
		{
			name:    "Retry-After past MaxDelay is not retried",
			opts:    provider.RetryOptions{MaxDelay: 5 * time.Second},
			replies: []providertest.Reply{providertest.Failed(rateLimited(time.Minute)), providertest.Text("ok")},
			calls:   1,
			wantErr: provider.ErrRateLimited,
		},
		{
			name:    "overloaded until attempts are spent",
			opts:    provider.RetryOptions{MaxAttempts: 3, BaseDelay: 100 * time.Millisecond},
			replies: []providertest.Reply{providertest.Failed(overloaded), providertest.Failed(overloaded), providertest.Failed(overloaded), providertest.Text("ok")},
			waits:   []time.Duration{50 * time.Millisecond, 100 * time.Millisecond},
			calls:   3,
			wantErr: provider.ErrOverloaded,
		},
		{
			name:    "one attempt makes no retry",
			opts:    provider.RetryOptions{MaxAttempts: 1},
			replies: []providertest.Reply{providertest.Failed(overloaded), providertest.Text("ok")},
			calls:   1,
			wantErr: provider.ErrOverloaded,
		},
		{
			name: "the budget bounds the total wait",
			opts: provider.RetryOptions{MaxAttempts: 10, BaseDelay: 100 * time.Millisecond, Budget: time.Second},
			replies: []providertest.Reply{providertest.Failed(rateLimited(400 * time.Millisecond)), providertest.Failed(rateLimited(400 * time.Millisecond)),
				providertest.Failed(rateLimited(400 * time.Millisecond)), providertest.Text("ok")},
			waits:   []time.Duration{400 * time.Millisecond, 400 * time.Millisecond},
			calls:   3,
			wantErr: provider.ErrRateLimited,
		},
		{
			name:    "auth is never retried",
			replies: []providertest.Reply{providertest.Failed(&provider.Error{Kind: provider.ErrAuth, StatusCode: 401, RetryAfter: time.Second}), providertest.Text("ok")},
			calls:   1,
			wantErr: provider.ErrAuth,
		},
		{
			name:    "an invalid request is never retried",
			replies: []providertest.Reply{providertest.Failed(&provider.Error{Kind: provider.ErrInvalidRequest, StatusCode: 400}), providertest.Text("ok")},
			calls:   1,
			wantErr: provider.ErrInvalidRequest,
		},
		{
			name:    "a rejected schema is never retried",
			replies: []providertest.Reply{providertest.Failed(&provider.Error{Kind: provider.ErrSchemaRejected, StatusCode: 400}), providertest.Text("ok")},
			calls:   1,
			wantErr: provider.ErrSchemaRejected,
		},
		{
			name: "a reset connection is retried",
			opts: provider.RetryOptions{BaseDelay: 100 * time.Millisecond},
			replies: []providertest.Reply{providertest.Failed(&provider.Error{Kind: provider.ErrOther, Message: "cannot reach the server",
				Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}), providertest.Text("ok")},
			waits: []time.Duration{50 * time.Millisecond},
			calls: 2,
		},
		{
			name:    "a reply cut short is retried",
			opts:    provider.RetryOptions{BaseDelay: 100 * time.Millisecond},
			replies: []providertest.Reply{providertest.Failed(fmt.Errorf("read body: %w", io.ErrUnexpectedEOF)), providertest.Text("ok")},
			waits:   []time.Duration{50 * time.Millisecond},
			calls:   2,
		},
		{
			name:    "a network timeout is retried",
			opts:    provider.RetryOptions{BaseDelay: 100 * time.Millisecond},
			replies: []providertest.Reply{providertest.Failed(fmt.Errorf("post: %w", timeoutError{})), providertest.Text("ok")},
			waits:   []time.Duration{50 * time.Millisecond},
			calls:   2,
		},
		{
			name:    "another error is not retried",
			replies: []providertest.Reply{providertest.Failed(errNoHost), providertest.Text("ok")},
			calls:   1,
			wantErr: errNoHost,
		},
		{
			name:    "a custom Retryable decides",
			opts:    provider.RetryOptions{BaseDelay: 100 * time.Millisecond, Retryable: func(err error) bool { return provider.KindOf(err) == provider.ErrAuth }},
			replies: []providertest.Reply{providertest.Failed(&provider.Error{Kind: provider.ErrAuth}), providertest.Text("ok")},
			waits:   []time.Duration{50 * time.Millisecond},
			calls:   2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newClock()
			inner := providertest.New(tt.replies...)
			var hooked []time.Duration
			opts := tt.opts
			opts.OnRetry = func(_ context.Context, attempt int, err error, wait time.Duration) {
				assert.Equal(t, len(hooked)+1, attempt)
				assert.Error(t, err)
				hooked = append(hooked, wait)
			}
			p, err := provider.WithRetry(inner, clock.options(opts))
			require.NoError(t, err)
			resp, err := p.Generate(context.Background(), &provider.Request{})
			switch {
			case tt.wantErr == nil:
				require.NoError(t, err)
				assert.Equal(t, "ok", resp.Text)
			default:
				assert.ErrorIs(t, err, tt.wantErr)
				assert.Nil(t, resp)
			}
			assert.Len(t, inner.Requests(), tt.calls, "calls")
			assert.Equal(t, tt.waits, clock.Waits(), "waits")
			assert.Equal(t, tt.waits, hooked, "OnRetry")
		})
	}
}

// TestWithRetryJitter: with a seeded source, each wait lies in
// [0, min(MaxDelay, BaseDelay·2^(n-1))), the same seed gives the same
// waits, and they spread over the range rather than sit at its top.
func TestWithRetryJitter(t *testing.T) {
	run := func(seed uint64) []time.Duration {
		clock := newClock()
		replies := make([]providertest.Reply, 8)
		for i := range replies {
			replies[i] = providertest.Failed(overloaded)
		}
		p, err := provider.WithRetry(providertest.New(replies...), clock.options(provider.RetryOptions{
			MaxAttempts: 8, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second,
			Rand: rand.New(rand.NewPCG(seed, 40)).Float64,
		}))
		require.NoError(t, err)
		_, err = p.Generate(context.Background(), &provider.Request{})
		require.ErrorIs(t, err, provider.ErrOverloaded)
		return clock.Waits()
	}
	waits := run(1)
	require.Len(t, waits, 7)
	below := 0
	for i, w := range waits {
		ceiling := min(time.Second, 100*time.Millisecond<<i)
		assert.GreaterOrEqual(t, w, time.Duration(0), "wait %d", i)
		assert.Less(t, w, ceiling, "wait %d", i)
		if w < ceiling/2 {
			below++
		}
	}
	assert.Equal(t, waits, run(1), "same seed, same waits")
	assert.NotEqual(t, waits, run(2), "another seed, other waits")
	assert.Positive(t, below, "full jitter: some waits in the lower half")
}

// TestWithRetryContext: a context cancelled during a wait ends the call
// at once with an error matching both the context's and the last error;
// a wait past the context's deadline is not started; an error after the
// context ended is not retried.
func TestWithRetryContext(t *testing.T) {
	t.Run("cancelled mid-backoff", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		inner := providertest.New(providertest.Failed(rateLimited(time.Second)), providertest.Text("ok"))
		var asked time.Duration
		p, err := provider.WithRetry(inner, &provider.RetryOptions{Sleep: func(ctx context.Context, d time.Duration) error {
			asked = d
			cancel() // the caller gives up while the wrapper waits
			<-ctx.Done()
			return ctx.Err()
		}})
		require.NoError(t, err)
		resp, err := p.Generate(ctx, &provider.Request{})
		assert.Nil(t, resp)
		assert.ErrorIs(t, err, context.Canceled)
		assert.ErrorIs(t, err, provider.ErrRateLimited)
		assert.Equal(t, time.Second, asked)
		assert.Len(t, inner.Requests(), 1)
	})
	t.Run("cancelled mid-backoff with the real timer", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		inner := providertest.New(providertest.Failed(rateLimited(20*time.Second)), providertest.Text("ok"))
		p, err := provider.WithRetry(inner, &provider.RetryOptions{OnRetry: func(context.Context, int, error, time.Duration) { cancel() }})
		require.NoError(t, err)
		start := time.Now()
		_, err = p.Generate(ctx, &provider.Request{})
		assert.ErrorIs(t, err, context.Canceled)
		assert.Less(t, time.Since(start), 5*time.Second, "returns promptly, not after the wait")
	})
	t.Run("a wait past the deadline is not started", func(t *testing.T) {
		clock := newClock()
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Minute))
		defer cancel()
		inner := providertest.New(providertest.Failed(rateLimited(2*time.Minute)), providertest.Text("ok"))
		p, err := provider.WithRetry(inner, &provider.RetryOptions{MaxDelay: time.Hour, Sleep: clock.Sleep})
		require.NoError(t, err)
		_, err = p.Generate(ctx, &provider.Request{})
		assert.ErrorIs(t, err, provider.ErrRateLimited)
		assert.NotErrorIs(t, err, context.DeadlineExceeded)
		assert.Empty(t, clock.Waits())
	})
	t.Run("an error once the context ended is not retried", func(t *testing.T) {
		clock := newClock()
		ctx, cancel := context.WithCancel(context.Background())
		inner := provider.Func(func(ctx context.Context, _ *provider.Request) (*provider.Response, error) {
			cancel()
			return nil, fmt.Errorf("post: %w", context.Canceled)
		})
		p, err := provider.WithRetry(inner, clock.options(provider.RetryOptions{}))
		require.NoError(t, err)
		_, err = p.Generate(ctx, &provider.Request{})
		assert.ErrorIs(t, err, context.Canceled)
		assert.Empty(t, clock.Waits())
	})
	t.Run("a timeout the caller did not set is retried", func(t *testing.T) {
		clock := newClock()
		calls := 0
		inner := provider.Func(func(ctx context.Context, _ *provider.Request) (*provider.Response, error) {
			calls++
			if calls == 1 {
				return nil, fmt.Errorf("client timeout: %w", context.DeadlineExceeded)
			}
			return &provider.Response{Text: "ok"}, nil
		})
		p, err := provider.WithRetry(inner, clock.options(provider.RetryOptions{}))
		require.NoError(t, err)
		resp, err := p.Generate(context.Background(), &provider.Request{})
		require.NoError(t, err)
		assert.Equal(t, "ok", resp.Text)
		assert.Equal(t, 2, calls)
	})
}

// TestWithRetryStream: a stream is retried only before its first chunk.
func TestWithRetryStream(t *testing.T) {
	tests := []struct {
		name    string
		replies []providertest.Reply
		texts   []string
		wantErr error
		calls   int
	}{
		{
			name:    "failed before the first chunk: retried",
			replies: []providertest.Reply{providertest.Failed(rateLimited(time.Second)), providertest.Pieces("he", "llo")},
			texts:   []string{"he", "llo"},
			calls:   2,
		},
		{
			name:    "failed after the first chunk: passed on",
			replies: []providertest.Reply{{Chunks: []string{"he"}, Err: overloaded}, providertest.Pieces("he", "llo")},
			texts:   []string{"he"},
			wantErr: provider.ErrOverloaded,
			calls:   1,
		},
		{
			name:    "cut off after the first chunk: passed on",
			replies: []providertest.Reply{{Chunks: []string{"he"}, CutOff: true}, providertest.Pieces("he", "llo")},
			texts:   []string{"he"},
			calls:   1,
		},
		{
			name:    "auth before the first chunk: not retried",
			replies: []providertest.Reply{providertest.Failed(&provider.Error{Kind: provider.ErrAuth}), providertest.Pieces("he", "llo")},
			wantErr: provider.ErrAuth,
			calls:   1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newClock()
			inner := providertest.New(tt.replies...)
			p, err := provider.WithRetry(inner, clock.options(provider.RetryOptions{}))
			require.NoError(t, err)
			s, ok := p.(provider.Streamer)
			require.True(t, ok, "a Streamer wrapped is a Streamer")
			var texts []string
			var got error
			for ch, err := range s.Stream(context.Background(), &provider.Request{}) {
				if err != nil {
					got = err
					break
				}
				if ch.Text != "" {
					texts = append(texts, ch.Text)
				}
			}
			assert.Equal(t, tt.texts, texts)
			if tt.wantErr == nil {
				assert.NoError(t, got)
			} else {
				assert.ErrorIs(t, got, tt.wantErr)
			}
			assert.Len(t, inner.Requests(), tt.calls)
		})
	}
	t.Run("leaving early makes no other call", func(t *testing.T) {
		inner := providertest.New(providertest.Pieces("he", "llo"), providertest.Text("never"))
		p, err := provider.WithRetry(inner, nil)
		require.NoError(t, err)
		ch, err := providertest.First(p.(provider.Streamer).Stream(context.Background(), &provider.Request{}))
		require.NoError(t, err)
		assert.Equal(t, "he", ch.Text)
		assert.Len(t, inner.Requests(), 1)
	})
}

// TestWithRetryPassesOn: capabilities, and the optional interfaces of the
// provider wrapped.
func TestWithRetryPassesOn(t *testing.T) {
	caps := provider.Capabilities{NativeSchema: true, Dialect: "openai"}
	p, err := provider.WithRetry(provider.WithCapabilities(provider.Func(nil), caps), nil)
	require.NoError(t, err)
	assert.Equal(t, caps, p.Capabilities())
	_, streams := p.(provider.Streamer)
	assert.False(t, streams, "a Func does not stream, nor does its wrapper")

	b, err := provider.WithRetry(providertest.NewBatcher(nil, nil), nil)
	require.NoError(t, err)
	_, finds := b.(provider.BatchFinder)
	assert.True(t, finds, "a BatchFinder wrapped is a BatchFinder")
	_, streams = b.(provider.Streamer)
	assert.Equal(t, isStreamer(providertest.NewBatcher(nil, nil)), streams)
}

func isStreamer(p provider.Provider) bool {
	_, ok := p.(provider.Streamer)
	return ok
}

func TestWithRetryInvalidOptions(t *testing.T) {
	for _, o := range []*provider.RetryOptions{{MaxAttempts: -1}, {BaseDelay: -1}, {MaxDelay: -1}, {Budget: -time.Second}} {
		_, err := provider.WithRetry(providertest.New(), o)
		assert.ErrorIs(t, err, provider.ErrInvalidOption)
	}
	_, err := provider.WithRetry(nil, nil)
	assert.ErrorIs(t, err, provider.ErrInvalidOption)
}

func TestRetryable(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{rateLimited(0), true},
		{overloaded, true},
		{&provider.Error{Kind: provider.ErrAuth, Err: io.ErrUnexpectedEOF}, false},
		{&provider.Error{Kind: provider.ErrInvalidRequest}, false},
		{&provider.Error{Kind: provider.ErrSchemaRejected}, false},
		{&provider.Error{Kind: provider.ErrOther}, false},
		{&provider.Error{Kind: provider.ErrOther, Err: syscall.ECONNRESET}, true},
		{fmt.Errorf("write: %w", syscall.EPIPE), true},
		{io.ErrUnexpectedEOF, true},
		{os.ErrDeadlineExceeded, true},
		{timeoutError{}, true},
		{context.Canceled, false},
		{io.EOF, false},
		{&provider.Error{Kind: provider.ErrOther, Err: &url.Error{Op: "Post", URL: "http://x", Err: io.EOF}}, true}, // closed before the response
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.err), func(t *testing.T) {
			assert.Equal(t, tt.want, provider.Retryable(tt.err))
		})
	}
}

// The reply of a call made again says how many retries came before it,
// in Generate's response and a stream's last chunk, and the wrapped
// provider's own reply is not changed.
func TestWithRetryCountsRetries(t *testing.T) {
	clock := newClock()
	answer := &provider.Response{Text: "ok"}
	fails := 0
	inner := provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) {
		if fails < 2 {
			fails++
			return nil, overloaded
		}
		return answer, nil
	})
	p, err := provider.WithRetry(inner, clock.options(provider.RetryOptions{}))
	require.NoError(t, err)
	resp, err := p.Generate(context.Background(), &provider.Request{})
	require.NoError(t, err)
	assert.Equal(t, 2, resp.Retries)
	assert.Zero(t, answer.Retries, "the wrapped provider's reply is not changed")

	first, err := provider.WithRetry(provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) { return answer, nil }), clock.options(provider.RetryOptions{}))
	require.NoError(t, err)
	resp, err = first.Generate(context.Background(), &provider.Request{})
	require.NoError(t, err)
	assert.Same(t, answer, resp, "a reply at the first try is passed on as it is")

	s, err := provider.WithRetry(providertest.New(providertest.Failed(rateLimited(0)), providertest.Pieces("he", "llo")), clock.options(provider.RetryOptions{}))
	require.NoError(t, err)
	streamed, err := provider.Collect(s.(provider.Streamer).Stream(context.Background(), &provider.Request{}))
	require.NoError(t, err)
	assert.Equal(t, 1, streamed.Retries)
}
