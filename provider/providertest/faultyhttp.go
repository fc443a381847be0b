package providertest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"
)

// A FaultyHandler is an http.Handler that serves the requests of the
// net/http adapters (provider/openaicompat, provider/ollama) through
// another handler — a scripted API, such as a provider/wiretest server's
// — injecting the faults of [FaultOptions] as an API and its network
// would show them:
//
//   - [FaultRateLimited]: 429 with Retry-After (whole seconds, rounded up)
//     and an error body;
//   - [FaultServerError], [FaultUnavailable]: 500, 503 with an error body;
//   - [FaultReset]: the connection closed before any response;
//   - [FaultSlowFirstByte]: the response sent after SlowFor;
//   - [FaultStreamCut]: the status, the headers and the first half of the
//     body sent, then the connection closed mid-value;
//   - [FaultTruncated]: the first half of the body, as a complete response;
//   - [FaultNotText]: 200 with [NotText] as the body;
//   - [FaultHang]: nothing, until the client gives up.
//
// It is safe for concurrent use; it counts the requests and the faults
// injected ([FaultyHandler.Injected]).
type FaultyHandler struct {
	h http.Handler
	*faultSchedule
}

// NewFaultyHandler returns a FaultyHandler over h. It copies opts, and
// fails as [NewFaulty] does on bad options or a nil h.
func NewFaultyHandler(h http.Handler, opts *FaultOptions) (*FaultyHandler, error) {
	if h == nil {
		return nil, errors.New("providertest: NewFaultyHandler of a nil handler")
	}
	s, err := newFaultSchedule(opts)
	if err != nil {
		return nil, err
	}
	return &FaultyHandler{h: h, faultSchedule: s}, nil
}

// ServeHTTP serves r through the wrapped handler, with the fault the
// schedule or the rate gives it.
func (f *FaultyHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fault := f.next()
	apiError := func(status int, message string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"injected"}}`, message)
	}
	switch fault {
	case FaultRateLimited:
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(f.o.RetryAfter.Seconds()))))
		apiError(http.StatusTooManyRequests, "injected: rate limited")
		return
	case FaultServerError:
		apiError(http.StatusInternalServerError, "injected: internal server error")
		return
	case FaultUnavailable:
		apiError(http.StatusServiceUnavailable, "injected: service unavailable")
		return
	case FaultReset:
		closeConnection(w)
		return
	case FaultHang:
		// The body read whole, the server notices when the client goes
		// away, which ends the request's context.
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
		return
	case FaultNotText:
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(NotText))
		return
	case FaultSlowFirstByte:
		body, _ := io.ReadAll(r.Body) // read, so that a client going away ends the wait
		r.Body = io.NopCloser(bytes.NewReader(body))
		t := time.NewTimer(f.o.SlowFor)
		defer t.Stop()
		select {
		case <-r.Context().Done():
			return
		case <-t.C:
		}
	case FaultStreamCut, FaultTruncated:
		rec := httptest.NewRecorder()
		f.h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		body = body[:len(body)/2]
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.Header().Del("Content-Length")
		if fault == FaultTruncated {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.WriteHeader(rec.Code)
		w.Write(bytes.Clone(body))
		if fault == FaultStreamCut {
			if fl, ok := w.(http.Flusher); ok {
				fl.Flush()
			}
			closeConnection(w)
		}
		return
	}
	f.h.ServeHTTP(w, r)
}

// closeConnection closes the connection under w without finishing the
// response: the client reads a reset or an unexpected end.
func closeConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // the server drops the connection
	}
	conn.Close()
}
