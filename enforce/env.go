package enforce

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// The environment variables read by [OptionsFromEnv].
const (
	// EnvMaxRetries holds the default number of re-asks, a non-negative
	// integer ([WithMaxRetries]).
	EnvMaxRetries = "SCHEMA_ENFORCEMENT_MAX_RETRIES"
	// EnvExtractJSON says whether JSON is extracted from mixed text, a
	// boolean ("true", "false", "1", "0", ...; false is [WithoutExtraction]).
	EnvExtractJSON = "SCHEMA_ENFORCEMENT_EXTRACT_JSON"
)

// OptionsFromEnv returns the options set by the environment variables
// [EnvMaxRetries] and [EnvExtractJSON]; an unset or empty variable adds
// nothing. Put them before the caller's own options, so that options set in
// code override the environment:
//
//	envOpts, err := enforce.OptionsFromEnv()
//	res, err := enforce.Run(ctx, p, req, s, append(envOpts, enforce.WithRepair())...)
//
// A value that does not parse is an error matching [ErrInvalidOption] that
// names the variable.
func OptionsFromEnv() ([]Option, error) {
	var opts []Option
	if v := strings.TrimSpace(os.Getenv(EnvMaxRetries)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%w: %s=%q: want a non-negative integer", ErrInvalidOption, EnvMaxRetries, v)
		}
		opts = append(opts, WithMaxRetries(n))
	}
	if v := strings.TrimSpace(os.Getenv(EnvExtractJSON)); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("%w: %s=%q: want true or false", ErrInvalidOption, EnvExtractJSON, v)
		}
		if !on {
			opts = append(opts, WithoutExtraction())
		}
	}
	return opts, nil
}
