package sse

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/agentio/agentio/internal/lines"
)

// An Event is one dispatched server-sent event.
type Event struct {
	// Type is the event's type (its event: field), "" when it has none
	// (the standard's default, "message").
	Type string
	// Data is the event's data lines, joined by \n.
	Data string
	// ID is the last event id the stream set (its id: field).
	ID string
}

// A Reader reads the events of a stream. A Reader is for one goroutine.
type Reader struct {
	lines *lines.Reader
	max   int
	id    string
}

// NewReader returns a Reader of r whose lines, and events' data, may hold
// up to max bytes.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{lines: lines.NewReader(r, max), max: max}
}

// Next returns the next event. Comments (lines starting with a colon) and
// fields other than event, data and id (retry, unknown names) are skipped,
// and so are events without data, as the standard says. At the end of the
// stream Next returns io.EOF, dropping an event that no empty line ended.
// A line or an event's data longer than the limit is an error matching
// lines.ErrTooLong; a read error is returned as it is.
func (r *Reader) Next() (Event, error) {
	var (
		ev      Event
		data    strings.Builder
		hasData bool
	)
	for {
		line, err := r.lines.Next()
		if err != nil {
			return Event{}, err // io.EOF drops the event being read
		}
		if len(line) == 0 {
			if !hasData {
				ev.Type = ""
				continue
			}
			ev.Data, ev.ID = data.String(), r.id
			return ev, nil
		}
		name, value := field(line)
		switch name {
		case "event":
			ev.Type = string(value)
		case "data":
			if hasData {
				data.WriteByte('\n')
			}
			if data.Len()+len(value) > r.max {
				return Event{}, fmt.Errorf("%w: an event's data is more than %d bytes", lines.ErrTooLong, r.max)
			}
			data.Write(value)
			hasData = true
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				r.id = string(value)
			}
		}
	}
}

// field splits a line into its field name and value: the name is what
// comes before the first colon (the whole line when there is none), the
// value what follows it, without one leading space. A comment has an empty
// name.
func field(line []byte) (string, []byte) {
	name, value, found := bytes.Cut(line, []byte(":"))
	if !found {
		return string(name), nil
	}
	return string(name), bytes.TrimPrefix(value, []byte(" "))
}
