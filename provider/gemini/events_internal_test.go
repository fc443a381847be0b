package gemini

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readEvents reads body through an eventBody, a few bytes at a time. Line
// ends come out as \n.
func readEvents(t testing.TB, body string) string {
	t.Helper()
	out, err := io.ReadAll(iotest.OneByteReader(newEventBody(io.NopCloser(strings.NewReader(body)), nil)))
	require.NoError(t, err)
	return string(out)
}

func TestEventBody(t *testing.T) {
	data := `data: {"candidates":[{"content":{"parts":[{"text":"{"}]}}]}`
	event := data + "\n\n"
	tests := []struct {
		name, body, want string
	}{
		{name: "events pass", body: event + event, want: event + event},
		{name: "CRLF line ends", body: data + "\r\n\r\n" + data + "\r\n\r\n", want: event + event},
		{name: "no final line end", body: event + `data: {}`, want: event + `data: {}`},
		{name: "error over lines", body: event + "{\n  \"error\": {\n    \"code\": 500\n  }\n}\n", want: event + `{"error":{"code":500}}` + "\n"},
		{name: "error as an event", body: event + `data: {"error": {"code": 500}}` + "\r\n", want: event + `{"error": {"code": 500}}` + "\n"},
		{name: "comments and fields dropped", body: ": keep-alive\nevent: message\nid: 7\nretry: 10\n" + event, want: event},
		{name: "an unclosed object ends at an event", body: "{\n  \"error\"\n" + event, want: "{\n  \"error\"\n\n" + event},
		{name: "an unclosed object ends at the end", body: event + "{\n", want: event + "{\n\n"},
		{name: "other lines pass", body: "upstream timeout\n", want: "upstream timeout\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, readEvents(t, tc.body))
		})
	}
}

// TestEventBodyReadError: a read error ends the body like its end, after
// what came before it, and is kept for Stream; so is a line too long.
func TestEventBodyReadError(t *testing.T) {
	reset := errors.New("connection reset")
	src := io.MultiReader(strings.NewReader("data: {}\n"), iotest.ErrReader(reset))
	var failure streamFailure
	out, err := io.ReadAll(newEventBody(io.NopCloser(src), &failure))
	require.NoError(t, err)
	assert.Equal(t, "data: {}\n", string(out))
	assert.ErrorIs(t, failure.get(), reset)

	long := strings.NewReader("data: {}\n\ndata: " + strings.Repeat("x", maxLine))
	failure = streamFailure{}
	out, err = io.ReadAll(newEventBody(io.NopCloser(long), &failure))
	require.NoError(t, err)
	assert.Equal(t, "data: {}\n\n", string(out), "the long line is not buffered")
	assert.ErrorIs(t, failure.get(), bufio.ErrTooLong)

	// The end of the body is no failure.
	failure = streamFailure{}
	_, err = io.ReadAll(newEventBody(io.NopCloser(strings.NewReader("data: {}")), &failure))
	require.NoError(t, err)
	assert.NoError(t, failure.get())
}

// dataLines returns the trimmed lines of s that are events, leaving out
// those whose payload is an error object when skipErrors is set.
func dataLines(s string, skipErrors bool) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		payload, ok := strings.CutPrefix(line, "data:")
		if !ok || (skipErrors && isAPIErrorBody(bytes.TrimSpace([]byte(payload)))) {
			continue
		}
		out = append(out, line)
	}
	return out
}

// FuzzEventBody: whatever the body, reading it ends without panic; every
// event passes unchanged and in order; the output grows by at most a line
// ending per line; a body of events alone passes unchanged.
func FuzzEventBody(f *testing.F) {
	f.Add("data: {\"candidates\":[]}\r\n\r\n{\n \"error\": {\"code\": 500}\n}\n")
	f.Add("data: {\"error\":{\"code\":429}}\n: ping\nevent: x\n{\"a\":\n")
	f.Add("{{{\ndata: {}\n}}}\n\r\n")
	f.Add(strings.Repeat("data: x\n", 3))
	f.Fuzz(func(t *testing.T, body string) {
		out := readEvents(t, body)
		assert.LessOrEqual(t, len(out), len(body)+strings.Count(body, "\n")+1)
		assert.Equal(t, dataLines(body, true), dataLines(out, false))

		var events strings.Builder
		for _, line := range strings.Split(body, "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.Contains(line, "error") {
				events.WriteString("data: " + line + "\n")
			}
		}
		assert.Equal(t, events.String(), readEvents(t, events.String()))
	})
}
