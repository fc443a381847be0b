package blueprint

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/internal/clip"
)

// ValidationMode says how strictly a model's output is held to its schema.
type ValidationMode string

// The validation modes.
const (
	// ValidationStrict accepts only output that validates as it is
	// (after extraction from the surrounding text).
	ValidationStrict ValidationMode = "strict"
	// ValidationLenient first coerces near misses by the schema ("5" for 5,
	// "High" for "high", a bare list for the object wrapping it) and then
	// validates strictly: enforce.WithLenient with the default coercions.
	ValidationLenient ValidationMode = "lenient"
)

// OutputOptions are the knobs of output-schema enforcement as written in
// JSON: a blueprint's default_output_schema_options or a run's
// output_schema_options. A nil pointer (or an empty ValidationMode) means
// "not set here", so that [OutputOptions.Over] can layer run options over
// blueprint defaults over library defaults. The zero value sets nothing.
type OutputOptions struct {
	// MaxRetries is how many times a model may be asked again after an
	// invalid reply; it must not be negative.
	MaxRetries *int `json:"max_retries,omitempty"`
	// ExtractJSON lets the enforcement loop look for the JSON inside
	// surrounding prose and code fences.
	ExtractJSON *bool `json:"extract_json,omitempty"`
	// StrictJSONOnly rejects a reply with any text around its JSON.
	StrictJSONOnly *bool `json:"strict_json_only,omitempty"`
	// ValidationMode is ValidationStrict or ValidationLenient.
	ValidationMode ValidationMode `json:"validation_mode,omitempty"`
}

// EffectiveOptions are the enforcement options a run actually uses: every
// knob set, by the run, else the blueprint, else [DefaultOptions].
type EffectiveOptions struct {
	// MaxRetries is how many re-asks follow a first invalid reply.
	MaxRetries int `json:"max_retries"`
	// ExtractJSON lets the loop find JSON inside surrounding text.
	ExtractJSON bool `json:"extract_json"`
	// StrictJSONOnly rejects text around the JSON.
	StrictJSONOnly bool `json:"strict_json_only"`
	// ValidationMode is the validation mode.
	ValidationMode ValidationMode `json:"validation_mode"`
}

// DefaultOptions returns the library defaults: enforce.DefaultMaxRetries
// (two) re-asks, JSON extracted from surrounding text, text around the JSON
// allowed, strict validation; the enforce package's own defaults. An agent
// that should be re-asked only once, as the output-schema requirements
// describe, says so with "default_output_schema_options": {"max_retries": 1}.
func DefaultOptions() EffectiveOptions {
	return EffectiveOptions{
		MaxRetries:     enforce.DefaultMaxRetries,
		ExtractJSON:    true,
		StrictJSONOnly: false,
		ValidationMode: ValidationStrict,
	}
}

// Over returns base with every knob that o sets replaced by o's value.
func (o OutputOptions) Over(base EffectiveOptions) EffectiveOptions {
	if o.MaxRetries != nil {
		base.MaxRetries = *o.MaxRetries
	}
	if o.ExtractJSON != nil {
		base.ExtractJSON = *o.ExtractJSON
	}
	if o.StrictJSONOnly != nil {
		base.StrictJSONOnly = *o.StrictJSONOnly
	}
	if o.ValidationMode != "" {
		base.ValidationMode = o.ValidationMode
	}
	return base
}

// Check reports the first knob with an unusable value (a negative
// MaxRetries, an unknown ValidationMode) as a [*FieldError] naming it.
// The field names are relative ("max_retries"); callers that know where the
// options came from prefix them.
func (o OutputOptions) Check() error {
	if o.MaxRetries != nil && *o.MaxRetries < 0 {
		return &FieldError{Field: "max_retries", Reason: fmt.Sprintf("must not be negative, got %d", *o.MaxRetries)}
	}
	switch o.ValidationMode {
	case "", ValidationStrict, ValidationLenient:
	default:
		return &FieldError{Field: "validation_mode", Reason: fmt.Sprintf(`must be "strict" or "lenient", got %q`, cut(string(o.ValidationMode)))}
	}
	return nil
}

// EnforceOptions returns the enforce options that carry o: max_retries,
// extract_json, strict_json_only and validation_mode ("lenient" is
// enforce.WithLenient with the default coercions). A negative MaxRetries
// is refused by enforce when the options are used (enforce.ErrInvalidOption),
// an unknown validation mode here.
func (o EffectiveOptions) EnforceOptions() ([]enforce.Option, error) {
	opts := []enforce.Option{enforce.WithMaxRetries(o.MaxRetries)}
	if !o.ExtractJSON {
		opts = append(opts, enforce.WithoutExtraction())
	}
	switch o.ValidationMode {
	case "", ValidationStrict:
	case ValidationLenient:
		opts = append(opts, enforce.WithLenient())
	default:
		return nil, fmt.Errorf("%w: unknown validation mode %q", enforce.ErrInvalidOption, cut(string(o.ValidationMode)))
	}
	if o.StrictJSONOnly {
		opts = append(opts, enforce.WithStrictJSONOnly())
	}
	return opts, nil
}

// UnmarshalJSON reads options as strictly as [Parse] reads a blueprint's
// default_output_schema_options: an unknown key (a misspelt "max_retires")
// or a value of the wrong kind is an error, one [*FieldError] per problem,
// joined, rather than being silently ignored. null sets nothing. This is how
// a run request's output_schema_options (in [RunSpec]) are decoded.
func (o *OutputOptions) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	parsed, ferrs := parseOptions(data)
	if len(ferrs) > 0 {
		errs := make([]error, len(ferrs))
		for i, fe := range ferrs {
			errs[i] = fe
		}
		return errors.Join(errs...)
	}
	*o = parsed
	return nil
}

// parseOptions decodes default_output_schema_options. Unknown keys are
// errors: a misspelt retry count must not pass unnoticed.
func parseOptions(raw json.RawMessage) (OutputOptions, []*FieldError) {
	var o OutputOptions
	fields, err := objectFields(raw)
	if err != nil {
		return o, []*FieldError{{Reason: "must be an object or null"}}
	}
	var errs []*FieldError
	for _, f := range fields {
		fail := func(reason string) { errs = append(errs, &FieldError{Field: f.Key, Reason: reason}) }
		if isNull(f.Value) {
			continue
		}
		switch f.Key {
		case "max_retries":
			var n json.Number
			if f.Value[0] == '"' || json.Unmarshal(f.Value, &n) != nil { // json.Number takes "2" too
				fail("must be an integer")
				continue
			}
			v, err := n.Int64()
			if err != nil || v < 0 || int64(int(v)) != v {
				fail("must be a non-negative integer, got " + cut(n.String()))
				continue
			}
			i := int(v)
			o.MaxRetries = &i
		case "extract_json", "strict_json_only":
			var b bool
			if json.Unmarshal(f.Value, &b) != nil {
				fail("must be true or false")
				continue
			}
			if f.Key == "extract_json" {
				o.ExtractJSON = &b
			} else {
				o.StrictJSONOnly = &b
			}
		case "validation_mode":
			var s string
			if json.Unmarshal(f.Value, &s) != nil {
				fail(`must be "strict" or "lenient"`)
				continue
			}
			o.ValidationMode = ValidationMode(s)
			if err := (OutputOptions{ValidationMode: o.ValidationMode}).Check(); err != nil {
				fail(err.(*FieldError).Reason)
				o.ValidationMode = ""
			}
		default:
			fail("unknown option (known: max_retries, extract_json, strict_json_only, validation_mode)")
		}
	}
	return o, errs
}

// cut shortens s for an error message.
func cut(s string) string {
	if head, ok := clip.Head(s, 64); ok {
		return strings.TrimSpace(head) + "…"
	}
	return s
}
