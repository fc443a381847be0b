package provider

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryAfterFrom returns how long the response headers h ask a client to
// wait before trying again, measured from now (the time the response was
// received), or 0 when they ask for no wait. Adapters on net/http call it
// for a failure status and put the result in [Error.RetryAfter].
//
// The headers read, the first one present with a value that parses
// winning:
//
//   - retry-after-ms: milliseconds, possibly fractional (OpenAI, Azure);
//   - Retry-After: whole seconds, or an HTTP date (RFC 9110);
//   - rate-limit reset headers, the longest wait among those whose limit
//     is spent: x-ratelimit-reset-requests and x-ratelimit-reset-tokens
//     (a Go-style duration such as "1s" or "6m0s", or seconds), each
//     skipped when its x-ratelimit-remaining-* header says some of the
//     limit is left; anthropic-ratelimit-requests-reset,
//     anthropic-ratelimit-tokens-reset and the like (an RFC 3339 time);
//     ratelimit-reset and x-ratelimit-reset (seconds, or a Unix time when
//     the number is past one billion).
//
// A time in the past, a negative number or a value that does not parse
// counts as no wait. RetryAfterFrom is a pure function, safe for
// concurrent use; h may be nil.
func RetryAfterFrom(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && ms > 0 && !math.IsInf(ms, 0) {
			return clampWait(ms * float64(time.Millisecond))
		}
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil {
			if s > 0 && !math.IsInf(s, 0) {
				return clampWait(s * float64(time.Second))
			}
			return 0
		}
		if t, err := http.ParseTime(v); err == nil {
			return until(t, now)
		}
	}
	return resetWait(h, now)
}

// resetWait reads the rate-limit reset headers: the longest wait among
// the limits that are spent.
func resetWait(h http.Header, now time.Time) time.Duration {
	var wait time.Duration
	longer := func(d time.Duration) {
		if d > wait {
			wait = d
		}
	}
	for _, limit := range []string{"requests", "tokens"} {
		v := h.Get("x-ratelimit-reset-" + limit)
		if v == "" || left(h.Get("x-ratelimit-remaining-"+limit)) {
			continue
		}
		longer(resetValue(v, now))
	}
	for name, vs := range h {
		lower := strings.ToLower(name)
		if len(vs) == 0 || !strings.HasPrefix(lower, "anthropic-ratelimit-") || !strings.HasSuffix(lower, "-reset") {
			continue
		}
		remaining := strings.TrimSuffix(lower, "-reset") + "-remaining"
		if left(h.Get(remaining)) {
			continue
		}
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(vs[0])); err == nil {
			longer(until(t, now))
		}
	}
	for _, name := range []string{"ratelimit-reset", "x-ratelimit-reset"} {
		if v := h.Get(name); v != "" && !left(h.Get(strings.Replace(name, "reset", "remaining", 1))) {
			longer(resetValue(v, now))
		}
	}
	return wait
}

// left reports whether a rate-limit remaining header says some of the
// limit is left: a number above zero. An absent or unreadable one says
// nothing, so the reset counts.
func left(remaining string) bool {
	n, err := strconv.ParseFloat(strings.TrimSpace(remaining), 64)
	return err == nil && n > 0
}

// resetValue reads a reset header: a Go-style duration, seconds, a Unix
// time (seconds past one billion) or an RFC 3339 time.
func resetValue(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if n, err := strconv.ParseFloat(v, 64); err == nil {
		switch {
		case n <= 0 || math.IsInf(n, 0) || math.IsNaN(n):
			return 0
		case n > 1e9:
			sec, frac := math.Modf(n)
			return until(time.Unix(int64(sec), int64(frac*1e9)), now)
		default:
			return clampWait(n * float64(time.Second))
		}
	}
	if d, err := time.ParseDuration(v); err == nil {
		return max(d, 0)
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return until(t, now)
	}
	return 0
}

// until returns t - now, or 0 when t is not after now.
func until(t, now time.Time) time.Duration {
	return max(t.Sub(now), 0)
}

// clampWait turns a wait in nanoseconds into a Duration, the longest one
// for a number past it and 0 for a NaN.
func clampWait(ns float64) time.Duration {
	switch {
	case math.IsNaN(ns) || ns <= 0:
		return 0
	case ns >= math.MaxInt64:
		return math.MaxInt64
	default:
		return time.Duration(math.Ceil(ns))
	}
}
