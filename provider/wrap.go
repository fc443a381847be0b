package provider

import (
	"context"
	"errors"
	"iter"
)

// ErrInvalidOption matches (errors.Is) the error [WithRetry] and
// [Fallback] return for an options field they cannot use, before any
// call.
var ErrInvalidOption = errors.New("provider: invalid option")

// A streamFunc is a wrapper's Stream.
type streamFunc func(ctx context.Context, req *Request) iter.Seq2[Chunk, error]

// compose returns core (a wrapper's Generate and Capabilities) with the
// optional interfaces the wrapper passes on: a [Streamer] when stream is
// not nil, and the batch methods of inner when inner is a [Batcher] or a
// [BatchFinder], forwarded unchanged.
func compose(core Provider, stream streamFunc, inner Provider) Provider {
	f, isFinder := inner.(BatchFinder)
	b, isBatcher := inner.(Batcher)
	s := streamOf{stream}
	switch {
	case stream != nil && isFinder:
		return struct {
			Provider
			streamOf
			batchOf
			finderOf
		}{core, s, batchOf{f}, finderOf{f}}
	case stream != nil && isBatcher:
		return struct {
			Provider
			streamOf
			batchOf
		}{core, s, batchOf{b}}
	case stream != nil:
		return struct {
			Provider
			streamOf
		}{core, s}
	case isFinder:
		return struct {
			Provider
			batchOf
			finderOf
		}{core, batchOf{f}, finderOf{f}}
	case isBatcher:
		return struct {
			Provider
			batchOf
		}{core, batchOf{b}}
	default:
		return core
	}
}

type streamOf struct{ stream streamFunc }

func (s streamOf) Stream(ctx context.Context, req *Request) iter.Seq2[Chunk, error] {
	return s.stream(ctx, req)
}

// batchOf forwards a Batcher's batch methods (not its Generate).
type batchOf struct{ b Batcher }

func (w batchOf) SubmitBatch(ctx context.Context, key string, reqs []BatchRequest) (*Batch, error) {
	return w.b.SubmitBatch(ctx, key, reqs)
}

func (w batchOf) Batch(ctx context.Context, id string) (*Batch, error) { return w.b.Batch(ctx, id) }

func (w batchOf) BatchResults(ctx context.Context, id string) iter.Seq2[BatchResult, error] {
	return w.b.BatchResults(ctx, id)
}

func (w batchOf) CancelBatch(ctx context.Context, id string) error { return w.b.CancelBatch(ctx, id) }

func (w batchOf) BatchLimits() BatchLimits { return w.b.BatchLimits() }

func (w batchOf) BatchRequestSize(r BatchRequest) (int, error) { return w.b.BatchRequestSize(r) }

type finderOf struct{ f BatchFinder }

func (w finderOf) FindBatch(ctx context.Context, key string) (*Batch, error) {
	return w.f.FindBatch(ctx, key)
}
