package provider_test

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
)

func TestRetryAfterFrom(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{"seconds with spaces", map[string]string{"Retry-After": " 2 "}, 2 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "0.25"}, 250 * time.Millisecond},
		{"zero seconds", map[string]string{"Retry-After": "0"}, 0},
		{"negative seconds", map[string]string{"Retry-After": "-3"}, 0},
		{"HTTP date", map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second},
		{"HTTP date in the past", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0},
		{"RFC 850 date", map[string]string{"Retry-After": now.Add(time.Hour).Format(time.RFC850)}, time.Hour},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0},
		{"milliseconds", map[string]string{"retry-after-ms": "1500"}, 1500 * time.Millisecond},
		{"fractional milliseconds round up", map[string]string{"retry-after-ms": "0.5"}, 500 * time.Microsecond},
		{"milliseconds win over seconds", map[string]string{"retry-after-ms": "20", "Retry-After": "1"}, 20 * time.Millisecond},
		{"bad milliseconds fall back to seconds", map[string]string{"retry-after-ms": "x", "Retry-After": "1"}, time.Second},
		{"retry-after wins over resets", map[string]string{"Retry-After": "1", "x-ratelimit-reset-requests": "9s"}, time.Second},
		{"reset duration", map[string]string{"x-ratelimit-reset-requests": "1m30s", "x-ratelimit-remaining-requests": "0"}, 90 * time.Second},
		{"reset milliseconds duration", map[string]string{"x-ratelimit-reset-tokens": "20ms"}, 20 * time.Millisecond},
		{"reset not spent is skipped", map[string]string{"x-ratelimit-reset-requests": "6m0s", "x-ratelimit-remaining-requests": "12", "x-ratelimit-reset-tokens": "2s", "x-ratelimit-remaining-tokens": "0"}, 2 * time.Second},
		{"longest spent reset", map[string]string{"x-ratelimit-reset-requests": "3s", "x-ratelimit-reset-tokens": "2s"}, 3 * time.Second},
		{"anthropic reset time", map[string]string{"anthropic-ratelimit-tokens-reset": now.Add(40 * time.Second).Format(time.RFC3339), "anthropic-ratelimit-tokens-remaining": "0"}, 40 * time.Second},
		{"anthropic reset with tokens left", map[string]string{"anthropic-ratelimit-tokens-reset": now.Add(40 * time.Second).Format(time.RFC3339), "anthropic-ratelimit-tokens-remaining": "500"}, 0},
		{"ratelimit-reset seconds", map[string]string{"RateLimit-Reset": "12"}, 12 * time.Second},
		{"x-ratelimit-reset unix time", map[string]string{"X-RateLimit-Reset": strconv.FormatInt(now.Add(5*time.Second).Unix(), 10)}, 5 * time.Second},
		{"x-ratelimit-reset with requests left", map[string]string{"X-RateLimit-Reset": "30", "X-RateLimit-Remaining": "4"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			assert.Equal(t, tt.want, provider.RetryAfterFrom(h, now))
		})
	}
	assert.Zero(t, provider.RetryAfterFrom(nil, now))
}

// TestErrorRetryAfterJSON: RetryAfter survives a round trip through JSON,
// never shorter than it was, and a document without it decodes with none.
func TestErrorRetryAfterJSON(t *testing.T) {
	e := &provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429, RetryAfter: 1500*time.Millisecond + 1}
	data, err := json.Marshal(e)
	require.NoError(t, err)
	assert.JSONEq(t, `{"kind":"rate_limited","status_code":429,"retry_after_ms":1501}`, string(data))
	var back provider.Error
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Equal(t, 1501*time.Millisecond, back.RetryAfter)

	var old provider.Error
	require.NoError(t, json.Unmarshal([]byte(`{"kind":"overloaded","status_code":503}`), &old))
	assert.Zero(t, old.RetryAfter)

	data, err = json.Marshal(&provider.Error{Kind: provider.ErrOverloaded})
	require.NoError(t, err)
	assert.JSONEq(t, `{"kind":"overloaded"}`, string(data), "no wait, no member")
}

// TestErrorRetryAfterJSONLongest: the longest waits RetryAfterFrom returns
// (a Retry-After past what a Duration holds is clamped to the longest one)
// encode to a positive retry_after_ms and decode no shorter, instead of
// overflowing to a negative number read back as no wait at all.
func TestErrorRetryAfterJSONLongest(t *testing.T) {
	huge := provider.RetryAfterFrom(http.Header{"Retry-After": {"1e12"}}, time.Now())
	require.Equal(t, time.Duration(math.MaxInt64), huge)
	for _, d := range []time.Duration{huge, huge - time.Millisecond + 2, 100 * 365 * 24 * time.Hour} {
		data, err := json.Marshal(&provider.Error{Kind: provider.ErrRateLimited, RetryAfter: d})
		require.NoError(t, err)
		var back provider.Error
		require.NoError(t, json.Unmarshal(data, &back))
		assert.GreaterOrEqual(t, back.RetryAfter, d, "%s decoded from %s", d, data)
	}
	var back provider.Error
	require.NoError(t, json.Unmarshal([]byte(`{"kind":"rate_limited","retry_after_ms":9223372036854775807}`), &back))
	assert.Equal(t, time.Duration(math.MaxInt64), back.RetryAfter, "a wait past a Duration's range is the longest one, not a wrapped one")
}
