package enforce

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"reflect"
	"sync"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// Typed runs [Run] with the schema inferred from T (see schema.For) and
// decodes the valid JSON into a T. Struct fields without omitempty are
// required; json tags name the properties.
//
// T's schema is inferred once per type and reused, safely for concurrent
// use. The Result and error are Run's; a T that cannot hold the valid JSON
// (which the inferred schema should prevent) is an error beside the Result.
func Typed[T any](ctx context.Context, p provider.Provider, req Request, opts ...Option) (T, *Result, error) {
	var zero T
	s, err := schemaOf(reflect.TypeFor[T](), schema.For[T])
	if err != nil {
		return zero, nil, err
	}
	return decodeResult[T](Run(ctx, p, req, s, opts...))
}

// decodeResult decodes a run's valid JSON into a T, passing the run's
// error through.
func decodeResult[T any](res *Result, err error) (T, *Result, error) {
	var v T
	if err != nil {
		return v, res, err
	}
	if err := json.Unmarshal(res.JSON, &v); err != nil {
		var zero T
		return zero, res, fmt.Errorf("enforce: decode the valid output into %T: %w", v, err)
	}
	return v, res, nil
}

// typeSchemas caches the schema inferred for each type Typed is called with.
// It is written once per type and only grows with the set of types a program
// names in its code, like encoding/json's cache of struct fields; it holds
// *typeSchema values.
var typeSchemas sync.Map

// A typeSchema is the outcome of inferring a type's schema.
type typeSchema struct {
	s   *schema.Schema
	err error
}

// schemaOf returns the schema inferred by infer for t, inferring it on
// first use.
func schemaOf(t reflect.Type, infer func() (*schema.Schema, error)) (*schema.Schema, error) {
	if c, ok := typeSchemas.Load(t); ok {
		ts := c.(*typeSchema)
		return ts.s, ts.err
	}
	s, err := infer()
	if err != nil {
		err = fmt.Errorf("enforce: schema of %v: %w", t, err)
	}
	c, _ := typeSchemas.LoadOrStore(t, &typeSchema{s: s, err: err})
	ts := c.(*typeSchema)
	return ts.s, ts.err
}

// A TypedPartial is a [Partial] decoded into a T: the fields whose values
// are complete are set, the others are zero. Like every Partial, it is not
// the result.
type TypedPartial[T any] struct {
	Partial
	// Typed is Partial.JSON decoded into a T.
	Typed T
}

// TypedStream is the streaming twin of [Typed]: [Stream] with the schema
// inferred from T, whose partial values and result are decoded into T's.
func TypedStream[T any](ctx context.Context, p provider.Provider, req Request, opts ...Option) *TypedStreaming[T] {
	s, err := schemaOf(reflect.TypeFor[T](), schema.For[T])
	if err != nil {
		return &TypedStreaming[T]{s: &Streaming{err: err, done: true}}
	}
	return &TypedStreaming[T]{s: Stream(ctx, p, req, s, opts...)}
}

// A TypedStreaming is a run started by [TypedStream]; see [Streaming].
type TypedStreaming[T any] struct {
	s *Streaming
}

// Partials runs the loop and yields each partial value decoded into a T,
// as [Streaming.Partials] does; a partial that does not decode into a T (a
// member of the wrong type, which the final validation will reject) is
// skipped.
func (t *TypedStreaming[T]) Partials() iter.Seq[TypedPartial[T]] {
	return func(yield func(TypedPartial[T]) bool) {
		for p := range t.s.Partials() {
			var v T
			if json.Unmarshal(p.JSON, &v) != nil {
				continue
			}
			if !yield(TypedPartial[T]{Partial: p, Typed: v}) {
				return
			}
		}
	}
}

// Result returns the outcome of the run as [Typed] does, running the loop
// first when Partials was not iterated.
func (t *TypedStreaming[T]) Result() (T, *Result, error) {
	return decodeResult[T](t.s.Result())
}
