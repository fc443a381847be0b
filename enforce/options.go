package enforce

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/agentio/agentio/schema"
)

// An Option changes how [Run], [Typed] and [New] enforce the schema. A bad
// option value, or a nil Option, makes them return an error matching
// [ErrInvalidOption] before any provider call. Options are applied in order; a later option overrides
// an earlier one of the same kind, except [WithValidator] and
// [WithAttemptHook], which add up.
type Option func(*config) error

// A Validator checks a value that the schema accepted, for rules a schema
// cannot express (counts that must match a list, cross-field constraints).
// It sees the attempt so far (its Number, Mode, Response and JSON) and
// returns the violations found, none when the value is acceptable; they
// are handled like schema violations (re-asked, reported). Validators run in
// the order given, on the caller's goroutine, and must not modify value.
type Validator func(ctx context.Context, a Attempt, value any) []schema.Violation

// An AttemptHook observes each attempt once it is decided: its number,
// outcome, violations, usage and duration. Hooks run on the caller's
// goroutine, in attempt order, and must not modify a.
type AttemptHook func(ctx context.Context, a Attempt)

// DefaultMaxRetries is the number of re-asks allowed after the first
// attempt when [WithMaxRetries] is not given.
const DefaultMaxRetries = 2

// config holds the settings built from the options.
type config struct {
	maxRetries     int
	mode           Mode
	validators     []Validator
	hooks          []AttemptHook
	logger         *slog.Logger
	repair         bool
	strict         bool
	preferLast     bool
	extraction     bool
	fullHistory    bool
	schemaFallback bool
	reask          ReaskFunc
	raiseMaxTokens int
	tokenBudget    int
	lenient        bool
	partials       []func(Partial)
	partChecks     []PartCheck
	coercions      []schema.CoerceOption
}

// newConfig applies opts over the defaults. It is the one place defaults are
// set.
func newConfig(opts []Option) (config, error) {
	c := config{
		maxRetries:     DefaultMaxRetries,
		mode:           ModeAuto,
		extraction:     true,
		schemaFallback: true,
		reask:          DefaultReask,
	}
	for i, o := range opts {
		if o == nil {
			return config{}, fmt.Errorf("%w: option %d is nil", ErrInvalidOption, i)
		}
		if err := o(&c); err != nil {
			return config{}, err
		}
	}
	return c, nil
}

// WithMaxRetries sets how many re-asks may follow the first attempt
// (default [DefaultMaxRetries]): n = 0 makes one call and no re-ask, so a
// run makes at most n+1 calls (one more when the provider rejects the schema
// and the run falls back to [ModePrompt]). n must not be negative.
func WithMaxRetries(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("%w: WithMaxRetries(%d): must not be negative", ErrInvalidOption, n)
		}
		c.maxRetries = n
		return nil
	}
}

// WithMode sets how the schema reaches the model (default [ModeAuto]).
// [ModeNative] and [ModeTool] need a provider that supports them; otherwise
// the run fails with [ErrInvalidRequest] before any call.
func WithMode(m Mode) Option {
	return func(c *config) error {
		if !m.valid() {
			return fmt.Errorf("%w: WithMode(%q): unknown mode", ErrInvalidOption, string(m))
		}
		c.mode = m
		return nil
	}
}

// WithValidator adds a check run on every value the schema accepts. fn must
// not be nil.
func WithValidator(fn Validator) Option {
	return func(c *config) error {
		if fn == nil {
			return fmt.Errorf("%w: WithValidator(nil)", ErrInvalidOption)
		}
		c.validators = append(c.validators, fn)
		return nil
	}
}

// WithAttemptHook adds an observer called once per attempt. fn must not be
// nil.
func WithAttemptHook(fn AttemptHook) Option {
	return func(c *config) error {
		if fn == nil {
			return fmt.Errorf("%w: WithAttemptHook(nil)", ErrInvalidOption)
		}
		c.hooks = append(c.hooks, fn)
		return nil
	}
}

// WithLogger logs one line per attempt at debug level to l: attempt number,
// mode, outcome, violation count, tokens and duration. A nil l (the
// default) logs nothing.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		c.logger = l
		return nil
	}
}

// WithRepair repairs JSON that does not parse (trailing commas, comments,
// single quotes, a value left open by a truncated reply, ...) before
// validation, recording every fix in the attempt. Off by default: the model
// is re-asked instead. A broken value with two plausible repairs (is
// ["a,"b"] one string or two?) is settled by the schema: the reading that
// passes it wins, and when both or neither do, nothing is guessed (see
// extract.WithValidator).
func WithRepair() Option {
	return func(c *config) error {
		c.repair = true
		return nil
	}
}

// WithStrictJSONOnly rejects a reply with any text around its JSON value
// (white space, reasoning blocks and a single fence holding the whole reply
// are allowed): such a reply is a failed attempt matching [ErrNonJSONText].
func WithStrictJSONOnly() Option {
	return func(c *config) error {
		c.strict = true
		return nil
	}
}

// WithPreferLast tries the JSON values found in a reply last first, for
// models that draft an answer and then correct it. By default the first
// valid value wins.
func WithPreferLast() Option {
	return func(c *config) error {
		c.preferLast = true
		return nil
	}
}

// WithoutExtraction turns off the extraction of JSON from mixed text, which
// is on by default: the whole reply less surrounding white space must then
// be the JSON value, with no fences, no prose and no repair.
func WithoutExtraction() Option {
	return func(c *config) error {
		c.extraction = false
		return nil
	}
}

// WithFullHistory sends every failed reply and re-ask on each re-ask. By
// default a re-ask sends the original request, the last bad reply and the
// re-ask only, which keeps the prompt from growing.
func WithFullHistory() Option {
	return func(c *config) error {
		c.fullHistory = true
		return nil
	}
}

// WithReask replaces the text of the re-ask with fn's. fn receives what
// [DefaultReask] renders (the failed attempt, its violations, its output cut
// to size, the schema) and may wrap it. fn must not be nil.
func WithReask(fn ReaskFunc) Option {
	return func(c *config) error {
		if fn == nil {
			return fmt.Errorf("%w: WithReask(nil)", ErrInvalidOption)
		}
		c.reask = fn
		return nil
	}
}

// WithRaiseMaxTokens answers a truncated reply by sending the same request
// again with a larger MaxTokens (twice the previous limit, or twice the
// reply's output tokens when no limit was set) up to limit, instead of
// asking for a shorter answer. Once limit is reached, the shorter-answer
// re-ask is used. Each such call counts as a re-ask. limit must be positive.
func WithRaiseMaxTokens(limit int) Option {
	return func(c *config) error {
		if limit <= 0 {
			return fmt.Errorf("%w: WithRaiseMaxTokens(%d): must be positive", ErrInvalidOption, limit)
		}
		c.raiseMaxTokens = limit
		return nil
	}
}

// WithTokenBudget caps the total tokens (input and output, summed over the
// run's calls) a run may spend. Before each call the request's input is
// estimated from its size (a token per 3 bytes); the call is not made when
// the estimate does not fit in what is left, and otherwise its MaxTokens is
// lowered to what is left. The run then ends with an error matching
// [ErrTokenBudget]. tokens must be positive.
func WithTokenBudget(tokens int) Option {
	return func(c *config) error {
		if tokens <= 0 {
			return fmt.Errorf("%w: WithTokenBudget(%d): must be positive", ErrInvalidOption, tokens)
		}
		c.tokenBudget = tokens
		return nil
	}
}

// WithoutSchemaFallback ends a run in [ModeNative] or [ModeTool] whose
// provider rejects the schema (an error matching provider.ErrSchemaRejected)
// with that error. By default such a run continues in [ModePrompt]; the
// rejected call is recorded as an attempt but is not counted as a re-ask.
func WithoutSchemaFallback() Option {
	return func(c *config) error {
		c.schemaFallback = false
		return nil
	}
}

// WithPartials streams the run: each attempt's reply is read while the
// model writes it (when the provider is a [provider.Streamer]; another is
// called as without the option, with no partials), and fn receives the
// value each time a part of it completes, on the goroutine that called
// Run. Partials of a re-asked attempt follow those of the failed one, with
// a higher Partial.Attempt. Several calls add up: each fn receives every
// partial, in the order the options were given. To stop a run from fn,
// cancel the context it was given.
//
// While the reply streams in, every part of the value that completes (a
// string, a number, an object, an array) is checked at once against the
// parts of the schema that certainly apply to it (see schema.Cursor). When
// a complete part can no longer become valid (a wrong enum value, a type
// mismatch, a property the schema forbids, an item too many), the stream is
// stopped and the model re-asked at once; the stopped attempt counts as an
// attempt (Attempt.StoppedEarly). Parts are checked this way when the value
// is the model's whole answer: in native and tool modes, and in prompt and
// system modes when the value begins the reply or a fenced block; not
// under [WithLenient], whose coercions may still mend a part; and not in
// native or tool mode when the provider's dialect rewrites values (OpenAI's
// strict mode, which constrains the output to the schema anyway). Whatever
// was checked early, the complete output gets the full validation before
// it is returned. A nil fn is an error matching [ErrInvalidOption].
func WithPartials(fn func(Partial)) Option {
	return func(c *config) error {
		if fn == nil {
			return fmt.Errorf("%w: WithPartials: nil function", ErrInvalidOption)
		}
		c.partials = append(c.partials, fn)
		return nil
	}
}

// A PartCheck judges one complete part of a reply while it streams in: the
// value v (a string, a number, an object, an array, decoded) at the
// instance path at, in the schema's value ("$.findings[2].evidence"). It
// returns the violations of the part, none when it is fine so far. It is
// called on the goroutine that called Run, only for a part the schema's
// early checks accept, and must judge the part alone: what follows in the
// reply cannot make it right.
type PartCheck func(at string, v any) []schema.Violation

// WithPartCheck adds fn to the checks a streamed run ([WithPartials]) makes
// of each part as it completes, beside the schema's: a violation stops the
// stream and re-asks at once, as a schema violation found early does
// (Attempt.StoppedEarly). Parts are checked when the schema's are (see
// [WithPartials]: not under [WithLenient], not with a dialect that rewrites
// values). A run that does not stream never calls fn; the finished output
// gets the validators of [WithValidator] either way, so fn is a way to stop
// early, not a check of its own. A nil fn is an error matching
// [ErrInvalidOption].
func WithPartCheck(fn PartCheck) Option {
	return func(c *config) error {
		if fn == nil {
			return fmt.Errorf("%w: WithPartCheck: nil function", ErrInvalidOption)
		}
		c.partChecks = append(c.partChecks, fn)
		return nil
	}
}

// WithLenient turns on lenient validation: a value that fails the schema is
// coerced by it ([schema.Schema.Coerce]: "5" to 5 where an integer is
// wanted, "High" to "high" where the enum says so, a bare list into the
// object that wraps it) and validated again, strictly; when the coerced
// value passes, it is the result and [Attempt.Coercions] (and
// [Result.Coercions]) list every change. A coerced value that still fails
// is not used: the attempt fails with the violations of what the model
// wrote, so the re-ask shows the model its own mistakes. A reply whose JSON
// had to be completed because it was cut off is never accepted, lenient or
// not ([OutcomeTruncated]).
//
// Every value the reply holds is offered to coercion, whatever the root's
// type: a bare list or a quoted object may become the object the schema
// wants. Among the values, one valid as written wins over one valid after
// coercion, which wins over one that fails with fewer violations. An object
// found inside a list is taken as written or not at all: the list is what
// the model wrote.
//
// opts choose the coercions ([schema.WithCoercions]); none means
// [schema.DefaultCoercions]. An unknown coercion is an error matching
// [ErrInvalidOption], from [New] or the run.
func WithLenient(opts ...schema.CoerceOption) Option {
	return func(c *config) error {
		c.lenient = true
		c.coercions = append([]schema.CoerceOption(nil), opts...)
		return nil
	}
}
