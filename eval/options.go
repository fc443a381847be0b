package eval

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/agentio/agentio/enforce"
)

// ErrInvalidOption is returned, wrapped with the offending value, by [Run]
// when an option was given a bad value. No provider is called.
var ErrInvalidOption = errors.New("eval: invalid option")

// An Option adjusts one call of [Run]. Options are values, safe to share
// between calls and goroutines.
type Option func(*config) error

type config struct {
	concurrency int
	rate        float64 // calls per second per target; 0 is unlimited
	enforce     []enforce.Option
	progress    func(Progress)
}

// newConfig applies opts over the defaults.
func newConfig(opts []Option) (config, error) {
	c := config{concurrency: 2}
	for _, o := range opts {
		if o == nil {
			return c, fmt.Errorf("%w: nil option", ErrInvalidOption)
		}
		if err := o(&c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// WithConcurrency sets how many runs (a case against a target) go at once;
// n must be positive. The default is 2.
func WithConcurrency(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("%w: concurrency must be positive, got %d", ErrInvalidOption, n)
		}
		c.concurrency = n
		return nil
	}
}

// WithRateLimit caps the provider calls made to each target at perSecond
// calls per second (re-asks count), spaced evenly; perSecond must be
// positive and finite. Without it calls are not limited. The time a run
// waits for its slots is reported as its RateLimitWait, not as latency; a
// target that is a [provider.Streamer] is still streamed from.
func WithRateLimit(perSecond float64) Option {
	return func(c *config) error {
		if !(perSecond > 0) || math.IsInf(perSecond, 0) {
			return fmt.Errorf("%w: rate limit must be positive and finite, got %v", ErrInvalidOption, perSecond)
		}
		c.rate = perSecond
		return nil
	}
}

// WithEnforceOptions adds options for every enforcement run: the mode, the
// re-ask budget, repair, lenient validation. Several calls add up; the
// slice is copied. An attempt hook given here runs beside the one Run uses
// to collect attempts.
func WithEnforceOptions(opts ...enforce.Option) Option {
	opts = slices.Clone(opts)
	return func(c *config) error {
		c.enforce = append(c.enforce, opts...)
		return nil
	}
}

// Progress is how far a [Run] has come, as [WithProgress] reports it.
type Progress struct {
	// Done runs (a case against a target) have finished, of Total.
	Done, Total int
	// Valid of the Done runs produced a valid output.
	Valid int
	// Last is the run that just finished.
	Last *CaseResult
}

// WithProgress calls fn after each run (a case against a target) finishes,
// with how many are done: for a progress bar, or a log line. The calls are
// made one at a time, in the order runs finish, from Run's goroutines; fn
// must not block for long, as the next run waits for it. A nil fn is an
// error matching [ErrInvalidOption].
func WithProgress(fn func(Progress)) Option {
	return func(c *config) error {
		if fn == nil {
			return fmt.Errorf("%w: nil progress function", ErrInvalidOption)
		}
		c.progress = fn
		return nil
	}
}
