package eval

import (
	"context"
	"sync"
	"time"

	"github.com/agentio/agentio/provider"
)

// limited is a provider whose calls are spaced at least every apart.
type limited struct {
	p     provider.Provider
	every time.Duration

	mu   sync.Mutex
	next time.Time // when the next call may start
}

// Generate waits for the call's slot, or for ctx to end, then calls p.
func (l *limited) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.every)
	l.mu.Unlock()
	if wait := time.Until(at); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	return l.p.Generate(ctx, req)
}

// Capabilities returns p's.
func (l *limited) Capabilities() provider.Capabilities { return l.p.Capabilities() }
