package provider_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
)

func TestStreamCall(t *testing.T) {
	pieces := func(texts ...string) func(ctx context.Context, send func(string) error) (*provider.Response, error) {
		return func(ctx context.Context, send func(string) error) (*provider.Response, error) {
			for _, s := range texts {
				if err := send(s); err != nil {
					return nil, err
				}
			}
			return &provider.Response{Text: "whole"}, nil
		}
	}
	var got []string
	var last *provider.Response
	for ch, err := range provider.StreamCall(context.Background(), pieces("a", "", "b")) {
		require.NoError(t, err)
		if ch.Response != nil {
			last = ch.Response
		} else {
			got = append(got, ch.Text)
		}
	}
	assert.Equal(t, []string{"a", "b"}, got, "empty pieces skipped")
	assert.Equal(t, "whole", last.Text)

	// A consumer that stops: the call's context ends, and the call has
	// returned when the loop does.
	var callErr error
	returned := false
	for range provider.StreamCall(context.Background(), func(ctx context.Context, send func(string) error) (*provider.Response, error) {
		for {
			if callErr = send("x"); callErr != nil {
				returned = true
				return nil, callErr
			}
		}
	}) {
		break
	}
	assert.True(t, returned)
	assert.ErrorIs(t, callErr, context.Canceled)

	// The call's error ends the sequence.
	boom := errors.New("boom")
	var errs []error
	for _, err := range provider.StreamCall(context.Background(), func(context.Context, func(string) error) (*provider.Response, error) { return nil, boom }) {
		errs = append(errs, err)
	}
	assert.Equal(t, []error{boom}, errs)
}
