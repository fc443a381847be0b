package inputs

import (
	"fmt"
	"reflect"
)

// An Option adjusts one call of [Format] or [FormatJSON]. Options are
// immutable values, safe to share between goroutines and calls. A nil Option
// or an option given a bad value makes the call fail with an error wrapping
// [ErrInvalidOption].
type Option func(*config) error

// A PropertyOrderer lists the properties of a parameters schema in the order
// its author wrote them. *schema.Schema from this module implements it;
// [WithSchema] takes any implementation, so this package needs no schema
// package.
type PropertyOrderer interface {
	// PropertyOrder returns the property names in the author's order. The
	// caller of PropertyOrder does not modify the slice.
	PropertyOrder() []string
}

// Order is a property order given as a plain list, for [WithSchema] when
// the order comes from somewhere other than a schema (a form definition, a
// configuration file):
//
//	inputs.Format(params, inputs.WithSchema(inputs.Order{"topic", "format"}))
//
// Unlike [WithOrder], it is the schema's level of precedence: keys named by
// WithOrder still come first.
type Order []string

// PropertyOrder returns o.
func (o Order) PropertyOrder() []string { return o }

// config is the resolved set of options of one call.
type config struct {
	order       []string // from WithOrder: placed first
	schemaOrder []string // from WithSchema: placed next
	promptKey   string   // the parameter holding the prompt
}

// defaultPromptKey is the parameter that holds the prompt.
const defaultPromptKey = "prompt"

// newConfig sets the defaults, then applies opts in order.
func newConfig(opts []Option) (*config, error) {
	c := &config{promptKey: defaultPromptKey}
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: option %d is nil", ErrInvalidOption, i)
		}
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// WithOrder fixes the order of the parameter lines: the keys named here come
// first, in this order; keys not named follow in the order [WithSchema]
// gives, then in the default order (sorted for [Format], the document's for
// [FormatJSON]). Names without a parameter in the call are skipped. An empty
// or repeated name is an invalid option. A later WithOrder replaces an
// earlier one. The slice is copied.
func WithOrder(keys ...string) Option {
	keys = append([]string(nil), keys...)
	return func(c *config) error {
		seen := make(map[string]bool, len(keys))
		for _, k := range keys {
			if k == "" {
				return fmt.Errorf("%w: WithOrder: empty key", ErrInvalidOption)
			}
			if seen[k] {
				return fmt.Errorf("%w: WithOrder: key %q listed twice", ErrInvalidOption, shorten(k))
			}
			seen[k] = true
		}
		c.order = keys
		return nil
	}
}

// WithSchema orders the parameter lines by the property order of a
// parameters schema (a *schema.Schema, an [Order], or any
// [PropertyOrderer]). Keys
// named by [WithOrder] still come first; keys the schema does not list come
// last, in the default order. PropertyOrder is called once per call of
// [Format] or [FormatJSON]; a name it repeats is placed at its first
// position. A nil s (or a nil pointer in s) is an invalid option. A later
// WithSchema replaces an earlier one.
func WithSchema(s PropertyOrderer) Option {
	return func(c *config) error {
		if isNil(s) {
			return fmt.Errorf("%w: WithSchema: nil schema", ErrInvalidOption)
		}
		c.schemaOrder = s.PropertyOrder()
		return nil
	}
}

// WithPromptKey names the parameter that holds the prompt, for agents whose
// schema calls it something other than "prompt". The parameter named
// "prompt", if any, then renders like any other. An empty key is an invalid
// option.
func WithPromptKey(key string) Option {
	return func(c *config) error {
		if key == "" {
			return fmt.Errorf("%w: WithPromptKey: empty key", ErrInvalidOption)
		}
		c.promptKey = key
		return nil
	}
}

// isNil reports whether v is nil or holds a nil pointer, whose
// PropertyOrder method would likely dereference it.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}
