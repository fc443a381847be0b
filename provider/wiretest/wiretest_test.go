package wiretest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider/wiretest"
)

func TestServer(t *testing.T) {
	s := wiretest.New(t, &wiretest.Options{Header: map[string]string{"x-request-id": "req_1"}, Exhausted: wiretest.Reply{Status: 500, Body: "none left"}},
		wiretest.Reply{Body: `{"ok": true}`},
		wiretest.Reply{Status: 429, Body: "slow down", Header: map[string]string{"Content-Type": "text/plain"}},
	)
	get := func() (*http.Response, string) {
		resp, err := http.Post(s.URL+"/v1/x", "application/json", strings.NewReader(`{"q": 1}`))
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := get()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "req_1", resp.Header.Get("x-request-id"))
	assert.Equal(t, `{"ok": true}`, body)
	resp, body = get()
	assert.Equal(t, 429, resp.StatusCode)
	assert.Equal(t, "text/plain", resp.Header.Get("Content-Type"))
	assert.Equal(t, "slow down", body)
	resp, _ = get()
	assert.Equal(t, 500, resp.StatusCode)

	reqs := s.Requests()
	require.Len(t, reqs, 3)
	assert.Equal(t, "/v1/x", reqs[0].Path)
	assert.Equal(t, map[string]any{"q": 1.0}, reqs[0].JSON(t))
}

func TestServerStreams(t *testing.T) {
	s := wiretest.New(t, nil,
		wiretest.Reply{Body: "a", Parts: []string{"b", "c"}},
		wiretest.Reply{Parts: []string{"one ", "two ", "three"}, HoldAfter: 1},
		wiretest.Reply{Parts: []string{"cut "}, Cut: true},
	)
	resp, err := http.Post(s.URL, "application/json", nil)
	require.NoError(t, err)
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, "abc", string(b))

	resp, err = http.Post(s.URL, "application/json", nil)
	require.NoError(t, err)
	first := make([]byte, 4)
	_, err = io.ReadFull(resp.Body, first)
	require.NoError(t, err)
	assert.Equal(t, "one ", string(first))
	resp.Body.Close() // the client goes away while the reply is held
	assert.True(t, s.AwaitCancel())

	resp, err = http.Post(s.URL, "application/json", nil)
	require.NoError(t, err)
	b, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, "cut ", string(b))
}
