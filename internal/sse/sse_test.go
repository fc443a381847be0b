package sse_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/lines"
	"github.com/agentio/agentio/internal/sse"
)

// readAll returns the events r gives and the error that ended them.
func readAll(r *sse.Reader) ([]sse.Event, error) {
	var out []sse.Event
	for {
		ev, err := r.Next()
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want []sse.Event
		err  error
	}{
		{
			name: "data events",
			in:   "data: {\"a\":1}\n\ndata: [DONE]\n\n",
			want: []sse.Event{{Data: `{"a":1}`}, {Data: "[DONE]"}},
		},
		{
			name: "comments, crlf, event types, ids, retry",
			in:   ": keep-alive\r\n\r\nevent: completion\r\nid: 7\r\nretry: 100\r\ndata: x\r\n\r\ndata:y\r\n\r\n",
			want: []sse.Event{{Type: "completion", Data: "x", ID: "7"}, {Data: "y", ID: "7"}},
		},
		{
			name: "data lines joined, one leading space dropped",
			in:   "data:  a\ndata\ndata: b\n\n",
			want: []sse.Event{{Data: " a\n\nb"}},
		},
		{
			name: "an event without data is skipped with its type",
			in:   "event: ping\n\ndata: x\n\n",
			want: []sse.Event{{Data: "x"}},
		},
		{
			name: "an event no empty line ends is dropped",
			in:   "data: a\n\ndata: b\n",
			want: []sse.Event{{Data: "a"}},
		},
		{
			name: "a line past the limit",
			in:   "data: a\n\ndata: " + strings.Repeat("x", 100) + "\n\n",
			max:  50,
			want: []sse.Event{{Data: "a"}},
			err:  lines.ErrTooLong,
		},
		{
			name: "data past the limit over many lines",
			in:   strings.Repeat("data: 0123456789\n", 10) + "\n",
			max:  50,
			err:  lines.ErrTooLong,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			max := tt.max
			if max == 0 {
				max = 1 << 10
			}
			want := tt.err
			if want == nil {
				want = io.EOF
			}
			got, err := readAll(sse.NewReader(strings.NewReader(tt.in), max))
			assert.Equal(t, tt.want, got)
			assert.ErrorIs(t, err, want)
		})
	}
}

// FuzzReader reads any stream: no panic, the stream ends with io.EOF or
// a too-long error, no event's data is past the limit, and data written as
// events is read back.
func FuzzReader(f *testing.F) {
	f.Add("data: {\"x\":1}\r\n\r\n: c\n\nevent: e\ndata: [DONE]\n\n", "payload")
	f.Add("data\n\ndata:\n\n", "")
	f.Add("id: \x00\n", "a\rb")
	f.Fuzz(func(t *testing.T, in, payload string) {
		const max = 256
		got, err := readAll(sse.NewReader(strings.NewReader(in), max))
		if err != io.EOF && !errors.Is(err, lines.ErrTooLong) {
			t.Fatalf("error %v", err)
		}
		for _, ev := range got {
			if len(ev.Data) > max {
				t.Fatalf("data of %d bytes past the limit", len(ev.Data))
			}
		}
		if strings.ContainsAny(payload, "\r\n") || len(payload) > max {
			return
		}
		got, err = readAll(sse.NewReader(strings.NewReader(in+"\n\ndata: "+payload+"\r\n\r\n"), max))
		if err != io.EOF {
			return // the fuzzed prefix broke the stream
		}
		require.NotEmpty(t, got)
		assert.Equal(t, payload, got[len(got)-1].Data)
	})
}
