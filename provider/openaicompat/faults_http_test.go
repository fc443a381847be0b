package openaicompat_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openaicompat"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/wiretest"
)

// Each fault of providertest.FaultyHandler, injected between the adapter
// and a scripted API on a local server, fails the call as the adapter
// should say it (kind, wait asked), and provider.WithRetry over the same
// adapter recovers from every one a retry can mend.
func TestFaultsOverHTTP(t *testing.T) {
	const answer = "All good."
	req := &provider.Request{Messages: []provider.Message{provider.UserMessage("Check it.")}}
	serve := func(t *testing.T, fault providertest.Fault) (*providertest.FaultyHandler, *openaicompat.Provider) {
		api := newServer(t, wiretest.Reply{Body: textCompletion(answer, "stop")}, wiretest.Reply{Body: textCompletion(answer, "stop")})
		h, err := providertest.NewFaultyHandler(api.Config.Handler, &providertest.FaultOptions{
			Schedule: map[int]providertest.Fault{0: fault}, RetryAfter: 2 * time.Second, SlowFor: 20 * time.Millisecond})
		require.NoError(t, err)
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		p, err := openaicompat.New(&openaicompat.Options{Model: "gpt-test", BaseURL: srv.URL + "/v1"})
		require.NoError(t, err)
		return h, p
	}
	for _, tc := range []struct {
		fault providertest.Fault
		check func(t *testing.T, resp *provider.Response, err error, took time.Duration)
	}{
		{providertest.FaultRateLimited, func(t *testing.T, _ *provider.Response, err error, _ time.Duration) {
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.ErrorIs(t, err, provider.ErrRateLimited)
			assert.Equal(t, 2*time.Second, pe.RetryAfter)
		}},
		{providertest.FaultServerError, func(t *testing.T, _ *provider.Response, err error, _ time.Duration) {
			assert.ErrorIs(t, err, provider.ErrOverloaded)
		}},
		{providertest.FaultUnavailable, func(t *testing.T, _ *provider.Response, err error, _ time.Duration) {
			assert.ErrorIs(t, err, provider.ErrOverloaded)
		}},
		{providertest.FaultReset, func(t *testing.T, _ *provider.Response, err error, _ time.Duration) {
			require.Error(t, err)
			assert.True(t, provider.Retryable(err), "a dropped connection is retryable: %v", err)
		}},
		{providertest.FaultSlowFirstByte, func(t *testing.T, resp *provider.Response, err error, took time.Duration) {
			require.NoError(t, err)
			assert.Equal(t, answer, resp.Text)
			assert.GreaterOrEqual(t, took, 20*time.Millisecond)
		}},
		{providertest.FaultStreamCut, func(t *testing.T, _ *provider.Response, err error, _ time.Duration) {
			require.Error(t, err, "a body cut mid-value is no reply")
		}},
		{providertest.FaultTruncated, func(t *testing.T, _ *provider.Response, err error, _ time.Duration) {
			require.Error(t, err, "half a body is no reply")
		}},
		{providertest.FaultNotText, func(t *testing.T, _ *provider.Response, err error, _ time.Duration) {
			require.Error(t, err, "bytes that are not JSON are no reply")
		}},
		{providertest.FaultHang, func(t *testing.T, _ *provider.Response, err error, _ time.Duration) {
			assert.ErrorIs(t, err, context.DeadlineExceeded)
		}},
	} {
		t.Run(string(tc.fault), func(t *testing.T) {
			h, p := serve(t, tc.fault)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if tc.fault == providertest.FaultHang {
				ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
				defer cancel()
			}
			start := time.Now()
			resp, err := p.Generate(ctx, req)
			tc.check(t, resp, err, time.Since(start))
			assert.Equal(t, map[providertest.Fault]int{tc.fault: 1}, h.Injected())

			if tc.fault == providertest.FaultHang || tc.fault == providertest.FaultSlowFirstByte {
				return
			}
			// Behind WithRetry the same fault is mended by the second call,
			// unless the fault makes the reply itself wrong (a body the
			// adapter cannot read is not retried: it is no transient fault).
			h, p = serve(t, tc.fault)
			var waits []time.Duration
			r, err := provider.WithRetry(p, &provider.RetryOptions{Sleep: func(_ context.Context, d time.Duration) error {
				waits = append(waits, d)
				return nil
			}})
			require.NoError(t, err)
			resp, err = r.Generate(context.Background(), req)
			if provider.Retryable(firstError(t, tc.fault, serve)) {
				require.NoError(t, err)
				assert.Equal(t, answer, resp.Text)
				assert.Equal(t, 2, h.Calls())
				if tc.fault == providertest.FaultRateLimited {
					assert.Equal(t, []time.Duration{2 * time.Second}, waits, "the wait the 429 asked for")
				}
			} else {
				require.Error(t, err)
				assert.Equal(t, 1, h.Calls(), "not retried")
			}
		})
	}
}

// firstError returns the error a call meets under fault.
func firstError(t *testing.T, fault providertest.Fault, serve func(*testing.T, providertest.Fault) (*providertest.FaultyHandler, *openaicompat.Provider)) error {
	_, p := serve(t, fault)
	_, err := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}})
	return err
}

var _ http.Handler = (*providertest.FaultyHandler)(nil)
