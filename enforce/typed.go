package enforce

import (
	"context"
	"encoding/json"
	"fmt"
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

// WithTypedPartials is [WithPartials] for a run whose output is a T (a
// [Typed] run): fn receives each partial value decoded into a T, with the
// Partial it was decoded from. A partial that does not decode into a T (a
// member of the wrong type, which the final validation will reject) is
// skipped. A nil fn is an error matching [ErrInvalidOption].
func WithTypedPartials[T any](fn func(T, Partial)) Option {
	if fn == nil {
		return WithPartials(nil)
	}
	return WithPartials(func(p Partial) {
		var v T
		if json.Unmarshal(p.JSON, &v) == nil {
			fn(v, p)
		}
	})
}
