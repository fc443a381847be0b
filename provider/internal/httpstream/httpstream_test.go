package httpstream_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/lines"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/internal/httpstream"
)

// call is a Call answered with status and body, whose Read yields the
// body's text and returns readErr.
func call(status int, body string, readErr error) httpstream.Call {
	return httpstream.Call{
		Send: func(ctx context.Context) (*http.Response, error) {
			return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader(body))}, nil
		},
		ReadAll: func(res *http.Response) ([]byte, error) { return io.ReadAll(res.Body) },
		Failure: func(res *http.Response, data []byte) error {
			return &provider.Error{Kind: provider.KindForStatus(res.StatusCode), StatusCode: res.StatusCode, Message: string(data)}
		},
		ReadFailure: func(res *http.Response, err error) *provider.Error {
			return &provider.Error{Kind: provider.ErrOther, StatusCode: res.StatusCode, Message: "cannot read the reply", Err: err}
		},
		Read: func(_ *http.Response, body io.Reader, yield func(provider.Chunk, error) bool) error {
			b, _ := io.ReadAll(body)
			if !yield(provider.Chunk{Text: string(b)}, nil) {
				return nil
			}
			return readErr
		},
		Limit: 5,
	}
}

// run returns the text and the error Run yields.
func run(c httpstream.Call) (string, error) {
	var text string
	for ch, err := range func(yield func(provider.Chunk, error) bool) { httpstream.Run(context.Background(), c, yield) } {
		if err != nil {
			return text, err
		}
		text += ch.Text
	}
	return text, nil
}

func TestRun(t *testing.T) {
	boom := errors.New("connection reset")
	tests := []struct {
		name    string
		call    httpstream.Call
		text    string
		err     error
		message string
	}{
		{name: "a body read whole, cut at the limit", call: call(200, "abcdefgh", nil), text: "abcde"},
		{name: "a body that ends", call: call(200, "ab", io.EOF), text: "ab"},
		{name: "a connection dropped", call: call(200, "ab", io.ErrUnexpectedEOF), text: "ab", err: io.ErrUnexpectedEOF, message: "cannot read the reply"},
		{name: "a failure status", call: call(429, "slow down", nil), err: provider.ErrRateLimited, message: "slow down"},
		{name: "a line too long", call: call(200, "ab", fmt.Errorf("%w: more", lines.ErrTooLong)), text: "ab", err: lines.ErrTooLong, message: "a line of the stream is longer than 8388608 bytes"},
		{name: "a read error", call: call(200, "ab", boom), text: "ab", err: boom, message: "cannot read the reply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, err := run(tt.call)
			assert.Equal(t, tt.text, text)
			if tt.err == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.err)
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.message, pe.Message)
		})
	}
}

func TestRunSendFails(t *testing.T) {
	c := call(200, "", nil)
	boom := &provider.Error{Kind: provider.ErrOther, Message: "cannot reach the server"}
	var sent context.Context
	c.Send = func(ctx context.Context) (*http.Response, error) { sent = ctx; return nil, boom }
	_, err := run(c)
	assert.Same(t, boom, err)
	require.NotNil(t, sent)
	assert.ErrorIs(t, sent.Err(), context.Canceled, "the call's context is cancelled when Run returns")
}
