package wiretest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// A Reply is one scripted HTTP response.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Body is the response body.
	Body string
	// Header holds headers set after the server's defaults.
	Header map[string]string
	// Parts, when not empty, are sent after Body one at a time, each
	// flushed before the next, as a server streams its reply.
	Parts []string
	// HoldAfter, when positive, holds the reply after its first HoldAfter
	// parts (after all of them, when it is their number) until the client
	// goes away (cancels the request or closes the connection) or
	// [HoldTimeout] passes; the parts after it are sent only in the second
	// case. [Server.AwaitCancel] reports the first.
	HoldAfter int
	// Cut, when true, ends the reply after its parts by dropping the
	// connection, as a server that dies mid-reply.
	Cut bool
}

// HoldTimeout bounds how long a reply with Reply.HoldAfter waits for its
// client to go away.
const HoldTimeout = 10 * time.Second

// A Request is one request the server received.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// JSON decodes the request body as an object, failing t when it is not
// one.
func (r Request) JSON(t testing.TB) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("request body %s: %v", r.Body, err)
	}
	return v
}

// Options configure a [Server]. A nil *Options is the zero Options: no
// extra headers, and a request after the last reply gets an empty 200.
type Options struct {
	// Header holds headers every response carries (Content-Type is
	// application/json unless set here or in a Reply).
	Header map[string]string
	// Exhausted answers a request made after every reply was used.
	Exhausted Reply
}

// A Server is a local HTTP server answering from a script.
type Server struct {
	*httptest.Server
	opts     Options
	mu       sync.Mutex
	replies  []Reply
	requests []Request
	cancels  chan struct{} // one value per held reply whose client went away
}

// New starts a Server with the given replies, closed when the test ends.
// opts may be nil; New copies it.
func New(t testing.TB, opts *Options, replies ...Reply) *Server {
	t.Helper()
	var o Options
	if opts != nil {
		o = *opts
	}
	s := &Server{opts: o, replies: replies, cancels: make(chan struct{}, len(replies)+1)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	reply := s.opts.Exhausted
	if len(s.replies) > 0 {
		reply, s.replies = s.replies[0], s.replies[1:]
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	for k, v := range s.opts.Header {
		w.Header().Set(k, v)
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, reply.Body)
	if len(reply.Parts) > 0 || reply.Cut {
		s.stream(w, r, reply)
	}
}

// stream sends a reply's parts, flushed one by one, holding and cutting
// it as the reply says.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, reply Reply) {
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	for i := 0; i <= len(reply.Parts); i++ {
		if reply.HoldAfter > 0 && i == reply.HoldAfter && s.hold(r) {
			return
		}
		if i == len(reply.Parts) {
			break
		}
		_, _ = io.WriteString(w, reply.Parts[i])
		_ = rc.Flush()
	}
	if reply.Cut {
		panic(http.ErrAbortHandler) // the server drops the connection
	}
}

// hold waits until the client of r goes away or HoldTimeout passes, and
// reports the first.
func (s *Server) hold(r *http.Request) bool {
	t := time.NewTimer(HoldTimeout)
	defer t.Stop()
	select {
	case <-r.Context().Done():
		select {
		case s.cancels <- struct{}{}:
		default: // more departures than replies: the test waits for fewer
		}
		return true
	case <-t.C:
		return false
	}
}

// AwaitCancel waits until the client of a reply held by Reply.HoldAfter
// goes away, and reports whether one did within HoldTimeout. Each
// departure is reported once.
func (s *Server) AwaitCancel() bool {
	t := time.NewTimer(HoldTimeout)
	defer t.Stop()
	select {
	case <-s.cancels:
		return true
	case <-t.C:
		return false
	}
}

// Requests returns the requests received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}
