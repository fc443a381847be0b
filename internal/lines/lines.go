package lines

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrTooLong is returned (wrapped) by [Reader.Next] for a line longer than
// the Reader's limit; the Reader then stays failed.
var ErrTooLong = errors.New("lines: line too long")

// A Reader reads lines ended by \n or \r\n. A Reader is for one goroutine.
type Reader struct {
	r   *bufio.Reader
	max int
	buf []byte
	err error // sticky: once set, Next returns it
}

// NewReader returns a Reader of r whose lines may hold up to max bytes,
// their end excluded.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{r: bufio.NewReader(r), max: max}
}

// Next returns the next line, without its end. The line is valid until the
// next call. A last line without an end comes back with io.EOF, as
// bufio.Reader.ReadBytes returns it; after the last line Next returns nil
// and io.EOF. A line longer than the limit is an error matching
// [ErrTooLong]; a read error is returned as it is, with the part of a line
// read before it dropped. Once it has returned an error, Next returns it
// again.
func (r *Reader) Next() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	r.buf = r.buf[:0]
	for {
		frag, err := r.r.ReadSlice('\n')
		r.buf = append(r.buf, frag...)
		switch {
		case err == nil:
			return r.line(r.buf, nil)
		case errors.Is(err, bufio.ErrBufferFull):
			if len(r.buf) > r.max+1 { // +1: a \r may end the line
				return nil, r.fail(fmt.Errorf("%w: more than %d bytes", ErrTooLong, r.max))
			}
		case err == io.EOF:
			r.err = io.EOF
			if len(r.buf) == 0 {
				return nil, io.EOF
			}
			return r.line(r.buf, io.EOF)
		default:
			return nil, r.fail(err)
		}
	}
}

// line returns b without its end, unless it is too long.
func (r *Reader) line(b []byte, err error) ([]byte, error) {
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	if len(b) > r.max {
		return nil, r.fail(fmt.Errorf("%w: more than %d bytes", ErrTooLong, r.max))
	}
	return b, err
}

// fail makes err the Reader's error and returns it.
func (r *Reader) fail(err error) error {
	r.err = err
	r.buf = nil
	return err
}
