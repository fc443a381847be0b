package extract

import (
	"encoding/json"
	"fmt"
)

// DefaultMaxSize is the largest input, in bytes, that [JSON] and [Candidates]
// accept when [WithMaxSize] is not given: 16 MiB, far above any model reply.
const DefaultMaxSize = 16 << 20

// An Option changes how [JSON] and [Candidates] look for JSON. Options are
// applied in order; a later option overrides an earlier one of the same kind,
// and a nil Option is an invalid option ([ErrInvalidOption]), as a bad
// option value is. Without options, any JSON value is accepted,
// the first found wins, nothing is repaired and inputs up to
// [DefaultMaxSize] are searched.
type Option func(*config) error

// config holds the per-call settings built from the options.
type config struct {
	repair      bool
	strict      bool
	preferLast  bool
	objectsOnly bool
	maxSize     int
	rulesOff    ruleSet                    // repair rules turned off
	accept      func(json.RawMessage) bool // the caller's validity check, or nil
	err         error                      // first bad option value, reported by the call
}

// newConfig applies opts over the defaults.
func newConfig(opts []Option) config {
	var c config
	c.set(opts)
	return c
}

// set makes c the defaults with opts applied over them. It is the one
// place defaults are set.
func (c *config) set(opts []Option) {
	*c = config{maxSize: DefaultMaxSize}
	for i, o := range opts {
		if o == nil {
			c.setErr(fmt.Errorf("%w: option %d is nil", ErrInvalidOption, i))
			continue
		}
		if err := o(c); err != nil {
			c.setErr(err)
		}
	}
}

// WithRepair turns on repair: when no candidate parses as JSON, the most
// likely span is repaired (comments removed, quotes fixed, a truncated value
// closed, and so on) and returned with [SourceRepaired] and the [Fix] list.
// Text that already parses is never changed. Repair is off by default.
func WithRepair() Option {
	return func(c *config) error { c.repair = true; return nil }
}

// WithAccept hands extraction the caller's test of a value, such as
// validation against the JSON Schema the reply must follow. It is called
// with candidate values (valid JSON, owned by extract: copy what you keep)
// on the caller's goroutine and must not keep them.
//
// With it, [JSON] returns the first candidate, in the order of
// [Candidates], that valid accepts, or the first candidate when none is
// accepted (so that the caller can report why). Under [WithRepair] it also
// settles the repairs that have two plausible readings (see the package
// documentation): the reading valid accepts wins; when both or neither are
// accepted, the value yields no candidate, as without a validator. A nil
// func is an invalid option ([ErrInvalidOption]).
func WithAccept(valid func(json.RawMessage) bool) Option {
	return func(c *config) error {
		if valid == nil {
			return fmt.Errorf("%w: WithAccept(nil)", ErrInvalidOption)
		}
		c.accept = valid
		return nil
	}
}

// WithStrictJSONOnly requires the reply to be one JSON value and nothing else:
// whitespace and reasoning blocks may surround it, and so may one ```json (or
// unlabelled) fence that holds the whole reply. Any other text makes [JSON]
// return an error matching [ErrNonJSONText].
func WithStrictJSONOnly() Option {
	return func(c *config) error { c.strict = true; return nil }
}

// WithPreferLast makes the last value of each strategy win instead of the
// first: use it when a model drafts an answer and then corrects it.
func WithPreferLast() Option {
	return func(c *config) error { c.preferLast = true; return nil }
}

// WithObjectsOnly accepts only JSON objects: arrays and scalars are not
// candidates, whichever way they were found. By default any JSON value found
// as the whole text or a fenced block is accepted, and the scan of prose finds
// objects and arrays.
func WithObjectsOnly() Option {
	return func(c *config) error { c.objectsOnly = true; return nil }
}

// WithMaxSize sets the largest input, in bytes, that is searched (default
// [DefaultMaxSize]). A longer input makes [JSON] return an error matching
// [ErrTooLarge]; n must be positive, otherwise the call returns an error
// matching [ErrInvalidOption].
func WithMaxSize(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("%w: WithMaxSize(%d): not positive", ErrInvalidOption, n)
		}
		c.maxSize = n
		return nil
	}
}

// setErr keeps the first option error.
func (c *config) setErr(err error) {
	if c.err == nil {
		c.err = err
	}
}
