package providertest_test

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

const answer = `{"summary": "all good", "score": 7}`

// clean is a provider that always answers with answer; it does not
// stream.
func clean() provider.Provider {
	return provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: answer, StopReason: provider.StopEnd}, nil
	})
}

// TestFaultKinds: each fault, through Generate and through Stream.
func TestFaultKinds(t *testing.T) {
	tests := []struct {
		f     providertest.Fault
		check func(t *testing.T, resp *provider.Response, err error)
	}{
		{f: providertest.FaultRateLimited, check: func(t *testing.T, _ *provider.Response, err error) {
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, provider.ErrRateLimited, pe.Kind)
			assert.Equal(t, 429, pe.StatusCode)
			assert.Equal(t, 3*time.Second, pe.RetryAfter)
		}},
		{f: providertest.FaultServerError, check: func(t *testing.T, _ *provider.Response, err error) {
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, provider.ErrOverloaded, pe.Kind)
			assert.Equal(t, 500, pe.StatusCode)
		}},
		{f: providertest.FaultUnavailable, check: func(t *testing.T, _ *provider.Response, err error) {
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, provider.ErrOverloaded, pe.Kind)
			assert.Equal(t, 503, pe.StatusCode)
		}},
		{f: providertest.FaultReset, check: func(t *testing.T, _ *provider.Response, err error) {
			assert.ErrorIs(t, err, syscall.ECONNRESET)
			assert.Equal(t, provider.ErrOther, provider.KindOf(err))
			assert.True(t, provider.Retryable(err), "a reset connection is worth retrying")
		}},
		{f: providertest.FaultSlowFirstByte, check: func(t *testing.T, resp *provider.Response, err error) {
			require.NoError(t, err)
			assert.Equal(t, answer, resp.Text)
		}},
		{f: providertest.FaultStreamCut, check: func(t *testing.T, resp *provider.Response, err error) {
			require.NoError(t, err)
			assert.Equal(t, answer[:len(answer)/2], resp.Text)
			assert.Equal(t, provider.StopLength, resp.StopReason)
			assert.Equal(t, "stream_cut_off", resp.RawStopReason)
		}},
		{f: providertest.FaultTruncated, check: func(t *testing.T, resp *provider.Response, err error) {
			require.NoError(t, err)
			assert.Equal(t, answer[:len(answer)/2], resp.Text)
			assert.Equal(t, provider.StopLength, resp.StopReason)
		}},
		{f: providertest.FaultNotText, check: func(t *testing.T, resp *provider.Response, err error) {
			require.NoError(t, err)
			assert.False(t, utf8.ValidString(resp.Text))
		}},
		{f: providertest.FaultHang, check: func(t *testing.T, _ *provider.Response, err error) {
			assert.ErrorIs(t, err, context.DeadlineExceeded)
		}},
	}
	require.Len(t, tests, len(providertest.Faults()), "a case per fault")
	for _, tt := range tests {
		for _, streamed := range []bool{false, true} {
			name := string(tt.f)
			if streamed {
				name += "/stream"
			}
			t.Run(name, func(t *testing.T) {
				p, err := providertest.NewFaulty(clean(), &providertest.FaultOptions{
					Schedule: map[int]providertest.Fault{0: tt.f}, RetryAfter: 3 * time.Second, SlowFor: 20 * time.Millisecond})
				require.NoError(t, err)
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				defer cancel()
				start := time.Now()
				var resp *provider.Response
				if streamed {
					resp, err = provider.Collect(p.Stream(ctx, &provider.Request{}))
				} else {
					resp, err = p.Generate(ctx, &provider.Request{})
				}
				tt.check(t, resp, err)
				if tt.f == providertest.FaultSlowFirstByte {
					assert.GreaterOrEqual(t, time.Since(start), 20*time.Millisecond)
				}
				assert.Equal(t, map[providertest.Fault]int{tt.f: 1}, p.Injected())

				// The next call, not scheduled, runs clean.
				resp, err = p.Generate(context.Background(), &provider.Request{})
				require.NoError(t, err)
				assert.Equal(t, answer, resp.Text)
				assert.Equal(t, 2, p.Calls())
			})
		}
	}
}

// TestFaultStreamCutMidValue: a cut stream sends the first half of the
// reply and ends with neither its Response nor an error.
func TestFaultStreamCutMidValue(t *testing.T) {
	inner := providertest.New(providertest.Chunked(5, answer))
	p, err := providertest.NewFaulty(inner, &providertest.FaultOptions{Schedule: map[int]providertest.Fault{0: providertest.FaultStreamCut}})
	require.NoError(t, err)
	chunks, err := providertest.Chunks(p.Stream(context.Background(), &provider.Request{}))
	require.NoError(t, err)
	require.NotEmpty(t, chunks)
	var text string
	for _, ch := range chunks {
		assert.Nil(t, ch.Response, "no final chunk")
		text += ch.Text
	}
	assert.Equal(t, answer[:len(answer)/2], text)
}

// TestFaultRate: a seeded rate faults about that share of calls, the
// same calls for the same seed however the calls interleave, and only
// the kinds named.
func TestFaultRate(t *testing.T) {
	run := func(seed uint64) []bool {
		p, err := providertest.NewFaulty(clean(), &providertest.FaultOptions{Rate: 0.2, Seed: seed,
			Kinds: []providertest.Fault{providertest.FaultUnavailable, providertest.FaultTruncated}})
		require.NoError(t, err)
		var faulted []bool
		for range 1000 {
			resp, err := p.Generate(context.Background(), &provider.Request{})
			faulted = append(faulted, err != nil || resp.Text != answer)
		}
		inj := p.Injected()
		assert.Equal(t, 2, len(inj), "both kinds drawn: %v", inj)
		assert.InDelta(t, 200, inj[providertest.FaultUnavailable]+inj[providertest.FaultTruncated], 50)
		return faulted
	}
	assert.Equal(t, run(7), run(7))
	assert.NotEqual(t, run(7), run(8))
}

func TestNewFaultyInvalid(t *testing.T) {
	for name, o := range map[string]*providertest.FaultOptions{
		"rate above 1":  {Rate: 1.5},
		"negative rate": {Rate: -0.1},
		"unknown fault": {Schedule: map[int]providertest.Fault{0: "meteor"}},
		"no kinds":      {Rate: 0.5, Kinds: []providertest.Fault{}},
		"negative wait": {RetryAfter: -time.Second},
	} {
		_, err := providertest.NewFaulty(clean(), o)
		assert.Error(t, err, name)
	}
	_, err := providertest.NewFaulty(nil, nil)
	assert.Error(t, err)
	p, err := providertest.NewFaulty(clean(), nil)
	require.NoError(t, err)
	_, err = p.Generate(context.Background(), &provider.Request{})
	assert.False(t, errors.Is(err, provider.ErrOverloaded))
	assert.Empty(t, p.Injected(), "nil options inject nothing")
}
