package eval

import (
	"context"
	"iter"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentio/agentio/provider"
)

// A limiter spaces the calls to one target at least every apart. It is
// safe for concurrent use.
type limiter struct {
	every time.Duration

	mu   sync.Mutex
	next time.Time // when the next call may start
}

// wait waits for the next call's slot, or for ctx to end.
func (l *limiter) wait(ctx context.Context) error {
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.every)
	l.mu.Unlock()
	wait := time.Until(at)
	if wait <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// A meter is the provider of one run: it waits for the target's limiter,
// if any, and measures apart the time spent waiting and the time spent in
// the provider's calls. A meter of a [provider.Streamer] is one
// ([newMeter]). It is safe for concurrent use.
type meter struct {
	p     provider.Provider
	limit *limiter // nil: calls are not limited

	waited atomic.Int64 // nanoseconds waiting for the limiter
	called atomic.Int64 // nanoseconds in the provider's calls
}

// streamingMeter is a meter of a Streamer.
type streamingMeter struct {
	*meter
	s provider.Streamer
}

// newMeter returns the meter of a run against p and, as a Provider, the
// meter itself, a Streamer when p is one.
func newMeter(p provider.Provider, limit *limiter) (*meter, provider.Provider) {
	m := &meter{p: p, limit: limit}
	if s, ok := p.(provider.Streamer); ok {
		return m, streamingMeter{m, s}
	}
	return m, m
}

// start waits for the call's slot and adds the wait to m.waited.
func (m *meter) start(ctx context.Context) error {
	if m.limit == nil {
		return nil
	}
	begin := time.Now()
	err := m.limit.wait(ctx)
	m.waited.Add(int64(time.Since(begin)))
	return err
}

// Generate waits for the call's slot, then calls p, timing the call.
func (m *meter) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	if err := m.start(ctx); err != nil {
		return nil, err
	}
	begin := time.Now()
	defer func() { m.called.Add(int64(time.Since(begin))) }()
	return m.p.Generate(ctx, req)
}

// Capabilities returns p's.
func (m *meter) Capabilities() provider.Capabilities { return m.p.Capabilities() }

// Stream waits for the call's slot when the sequence is read, then streams
// from p. The call's time is the time from asking p for the stream until
// the reading ends.
func (m streamingMeter) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		if err := m.start(ctx); err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		begin := time.Now()
		defer func() { m.called.Add(int64(time.Since(begin))) }()
		for c, err := range m.s.Stream(ctx, req) {
			if !yield(c, err) {
				return
			}
		}
	}
}
