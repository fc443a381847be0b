package httpstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/agentio/agentio/internal/lines"
	"github.com/agentio/agentio/provider"
)

// MaxLine bounds a line of a streamed reply, in bytes: a server that never
// ends its line gets an error matching lines.ErrTooLong.
const MaxLine = 8 << 20

// A Call is one streamed call of an adapter.
type Call struct {
	// Send makes the call with ctx. Its error ends the stream as it is.
	Send func(ctx context.Context) (*http.Response, error)
	// ReadAll reads the body of a reply with a failure status (at or
	// above 300) as Generate reads a body; its error ends the stream as
	// it is.
	ReadAll func(res *http.Response) ([]byte, error)
	// Failure returns the error of a reply with a failure status whose
	// body is data, as Generate classifies it.
	Failure func(res *http.Response, data []byte) error
	// ReadFailure returns the error for a reply whose body could not be
	// read, as Generate returns it.
	ReadFailure func(res *http.Response, err error) *provider.Error
	// Read reads a reply with a success status from body, yielding its
	// chunks and the errors it finds in it. It returns the error of a read
	// of body, or nil once it has read the reply or stopped.
	Read func(res *http.Response, body io.Reader, yield func(provider.Chunk, error) bool) error
	// Limit bounds the body read, in bytes: past it the reply is cut off.
	Limit int64
}

// Run makes the call and yields what it reads. A read error ends the
// sequence with c.ReadFailure's error, a dropped connection
// (io.ErrUnexpectedEOF) included, as [provider.Streamer] asks of a network
// failure; the end of the body (io.EOF, or the size limit) ends it without
// one: a reply Read has not finished was cut off.
func Run(ctx context.Context, c Call, yield func(provider.Chunk, error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	res, err := c.Send(ctx)
	if err != nil {
		yield(provider.Chunk{}, err)
		return
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		data, err := c.ReadAll(res)
		if err == nil {
			err = c.Failure(res, data)
		}
		yield(provider.Chunk{}, err)
		return
	}
	err = c.Read(res, io.LimitReader(res.Body, c.Limit), yield)
	if err == nil || errors.Is(err, io.EOF) {
		return
	}
	e := c.ReadFailure(res, err)
	if errors.Is(err, lines.ErrTooLong) {
		e.Message = fmt.Sprintf("a line of the stream is longer than %d bytes", MaxLine)
	}
	yield(provider.Chunk{}, e)
}
