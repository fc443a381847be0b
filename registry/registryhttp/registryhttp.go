package registryhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/agentio/agentio/internal/regtime"
	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/schema"
)

// DefaultMaxBodyBytes caps request bodies when Options.MaxBodyBytes is 0.
const DefaultMaxBodyBytes = 1 << 20

// Options configures [New]. A nil *Options and the zero value mean the
// defaults.
type Options struct {
	// MaxBodyBytes caps the size of a request body; 0 means
	// [DefaultMaxBodyBytes].
	MaxBodyBytes int64
	// ParseOptions compile the schemas of POST and PUT bodies (a Loader
	// for remote $refs, AssertFormat). Nil means the defaults.
	ParseOptions *schema.ParseOptions
	// Logger receives a record for each request that fails with a 5xx
	// status (a registry error). Nil logs nothing.
	Logger *slog.Logger
}

// A Handler serves a registry; see the package documentation. It is safe
// for concurrent use.
type Handler struct {
	reg  registry.Registry
	opts Options
	mux  *http.ServeMux
}

// New returns a Handler serving reg. opts may be nil; it is copied.
func New(reg registry.Registry, opts *Options) *Handler {
	h := &Handler{reg: reg}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.MaxBodyBytes <= 0 {
		h.opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	h.mux = http.NewServeMux()
	h.mux.HandleFunc("GET /schemas", h.list)
	h.mux.HandleFunc("POST /schemas", h.create)
	h.mux.HandleFunc("GET /schemas/{name}", h.get)
	h.mux.HandleFunc("PUT /schemas/{name}", h.put)
	h.mux.HandleFunc("DELETE /schemas/{name}", h.delete)
	return h
}

// ServeHTTP serves one request. A path the API does not have is a 404
// problem, a method it does not allow there a 405 with the Allow header.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, pattern := h.mux.Handler(r)
	if pattern == "" {
		// Let the mux decide between 404 and 405 (it sets Allow), but
		// answer with a problem document rather than its text.
		rec := &statusRecorder{header: http.Header{}}
		h.mux.ServeHTTP(rec, r)
		if allow := rec.header.Get("Allow"); allow != "" {
			w.Header().Set("Allow", allow)
		}
		if rec.status == http.StatusMethodNotAllowed {
			writeProblem(w, r, &problem{Status: http.StatusMethodNotAllowed, Type: "method-not-allowed",
				Detail: fmt.Sprintf("%s is not allowed on %s (allowed: %s)", r.Method, r.URL.Path, rec.header.Get("Allow"))})
			return
		}
		writeProblem(w, r, &problem{Status: http.StatusNotFound, Type: "not-found", Detail: "no such resource: " + r.URL.Path})
		return
	}
	h.mux.ServeHTTP(w, r)
}

// statusRecorder captures the status and headers of the mux's own 404 and
// 405 answers, discarding their bodies.
type statusRecorder struct {
	header http.Header
	status int
}

func (s *statusRecorder) Header() http.Header         { return s.header }
func (s *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (s *statusRecorder) WriteHeader(status int)      { s.status = status }

// summary is one element of GET /schemas.
type summary struct {
	Name        string    `json:"name"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"created_at"`
	ModifiedAt  time.Time `json:"modified_at"`
}

// entryJSON is an entry as the API writes it: the schema as its author
// wrote it.
type entryJSON struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	CreatedAt   time.Time       `json:"created_at"`
	ModifiedAt  time.Time       `json:"modified_at"`
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	entries, err := h.reg.List(r.Context())
	if err != nil && len(entries) == 0 {
		h.registryError(w, r, "", err)
		return
	}
	// A registry that could read some entries lists those; the others are
	// the registry's to report (a corrupt file), logged here.
	if err != nil && h.opts.Logger != nil {
		h.opts.Logger.WarnContext(r.Context(), "registryhttp: list: some entries could not be read", "err", err)
	}
	out := make([]summary, 0, len(entries))
	for _, e := range entries {
		out = append(out, summary{Name: e.Name, Description: e.Description, CreatedAt: e.CreatedAt, ModifiedAt: e.ModifiedAt})
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	e, err := h.reg.Get(r.Context(), name)
	if err != nil {
		h.registryError(w, r, name, err)
		return
	}
	tag := etag(e.ModifiedAt)
	w.Header().Set("ETag", tag)
	if match(r.Header.Get("If-None-Match"), tag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeJSON(w, http.StatusOK, toJSON(e))
}

// body is what POST and PUT accept.
type body struct {
	Name        *string         `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
	b, s, ok := h.decode(w, r)
	if !ok {
		return
	}
	if b.Name == nil {
		writeProblem(w, r, &problem{Status: http.StatusBadRequest, Type: "invalid-request", Field: "name", Detail: "the body has no name"})
		return
	}
	name := *b.Name
	if err := registry.ValidateName(name); err != nil {
		writeProblem(w, r, &problem{Status: http.StatusBadRequest, Type: "invalid-name", Field: "name", Detail: err.Error()})
		return
	}
	if !h.write(w, r, &registry.Entry{Name: name, Description: b.Description, Schema: s}, time.Time{}, true) {
		return
	}
	w.Header().Set("Location", "schemas/"+url.PathEscape(name))
	h.respondStored(w, r, name, http.StatusCreated)
}

func (h *Handler) put(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if err := registry.ValidateName(name); err != nil {
		writeProblem(w, r, &problem{Status: http.StatusBadRequest, Type: "invalid-name", Field: "name", Detail: err.Error()})
		return
	}
	b, s, ok := h.decode(w, r)
	if !ok {
		return
	}
	if b.Name != nil && *b.Name != name {
		writeProblem(w, r, &problem{Status: http.StatusBadRequest, Type: "invalid-request", Field: "name",
			Detail: fmt.Sprintf("the body names %q but the path names %q", *b.Name, name)})
		return
	}
	e := &registry.Entry{Name: name, Description: b.Description, Schema: s}
	var version time.Time
	conditional := false
	switch {
	case r.Header.Get("If-Match") != "":
		v, ok := parseETag(r.Header.Get("If-Match"))
		if !ok {
			writeProblem(w, r, &problem{Status: http.StatusPreconditionFailed, Type: "precondition-failed",
				Detail: "If-Match names no version this API issued: send the ETag of a GET"})
			return
		}
		version, conditional = v, true
	case r.Header.Get("If-None-Match") == "*":
		conditional = true // create only
	}
	// Whether the entry existed decides 200 or 201; a conditional write
	// on a version knows it did.
	existed := !version.IsZero()
	if !conditional {
		_, err := h.reg.Get(r.Context(), name)
		existed = err == nil
	}
	if !h.write(w, r, e, version, conditional) {
		return
	}
	status := http.StatusOK
	if !existed {
		status = http.StatusCreated
		w.Header().Set("Location", url.PathEscape(name))
	}
	h.respondStored(w, r, name, status)
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	var err error
	if im := r.Header.Get("If-Match"); im != "" {
		v, ok := parseETag(im)
		if !ok {
			writeProblem(w, r, &problem{Status: http.StatusPreconditionFailed, Type: "precondition-failed",
				Detail: "If-Match names no version this API issued: send the ETag of a GET"})
			return
		}
		err = h.deleteIf(r.Context(), name, v)
	} else {
		err = h.reg.Delete(r.Context(), name)
	}
	if err != nil {
		h.registryError(w, r, name, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// write stores e, conditionally on version when conditional is set (zero:
// only if absent). It writes the error response and reports false on
// failure.
func (h *Handler) write(w http.ResponseWriter, r *http.Request, e *registry.Entry, version time.Time, conditional bool) bool {
	var err error
	if conditional {
		err = h.putIf(r.Context(), e, version)
	} else {
		err = h.reg.Put(r.Context(), e)
	}
	if err != nil {
		if conditional && version.IsZero() && errors.Is(err, registry.ErrModified) && r.Method == http.MethodPost {
			writeProblem(w, r, &problem{Status: http.StatusConflict, Type: "name-taken", Field: "name",
				Detail: fmt.Sprintf("a schema named %q exists: PUT /schemas/%s replaces it", e.Name, e.Name)})
			return false
		}
		h.registryError(w, r, e.Name, err)
		return false
	}
	return true
}

// putIf is the registry's PutIf, or a Get then a Put for a registry that
// has none.
func (h *Handler) putIf(ctx context.Context, e *registry.Entry, version time.Time) error {
	if cr, ok := h.reg.(registry.ConditionalRegistry); ok {
		return cr.PutIf(ctx, e, version)
	}
	cur, err := h.reg.Get(ctx, e.Name)
	var stored time.Time
	switch {
	case err == nil:
		stored = cur.ModifiedAt
	case !errors.Is(err, registry.ErrNotFound):
		return err
	}
	if !regtime.Same(stored, version) {
		return fmt.Errorf("%w: %q", registry.ErrModified, e.Name)
	}
	return h.reg.Put(ctx, e)
}

// deleteIf is the registry's DeleteIf, or a Get then a Delete.
func (h *Handler) deleteIf(ctx context.Context, name string, version time.Time) error {
	if cr, ok := h.reg.(registry.ConditionalRegistry); ok {
		return cr.DeleteIf(ctx, name, version)
	}
	cur, err := h.reg.Get(ctx, name)
	if err != nil {
		return err
	}
	if !regtime.Same(cur.ModifiedAt, version) {
		return fmt.Errorf("%w: %q", registry.ErrModified, name)
	}
	return h.reg.Delete(ctx, name)
}

// respondStored answers a write with the entry as stored and its ETag.
func (h *Handler) respondStored(w http.ResponseWriter, r *http.Request, name string, status int) {
	e, err := h.reg.Get(r.Context(), name)
	if err != nil {
		h.registryError(w, r, name, err)
		return
	}
	w.Header().Set("ETag", etag(e.ModifiedAt))
	writeJSON(w, status, toJSON(e))
}

// decode reads a POST or PUT body and compiles its schema, writing the
// error response and reporting false when it cannot.
func (h *Handler) decode(w http.ResponseWriter, r *http.Request) (body, *schema.Schema, bool) {
	var b body
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			writeProblem(w, r, &problem{Status: http.StatusUnsupportedMediaType, Type: "unsupported-media-type",
				Detail: fmt.Sprintf("the body is %q; send application/json", ct)})
			return b, nil, false
		}
	}
	if r.ContentLength > h.opts.MaxBodyBytes {
		writeProblem(w, r, tooLarge(h.opts.MaxBodyBytes))
		return b, nil, false
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeProblem(w, r, tooLarge(h.opts.MaxBodyBytes))
		} else {
			writeProblem(w, r, &problem{Status: http.StatusBadRequest, Type: "invalid-request", Detail: "reading the body: " + err.Error()})
		}
		return b, nil, false
	}
	b, p := decodeBody(data)
	if p != nil {
		writeProblem(w, r, p)
		return b, nil, false
	}
	s, err := schema.ParseWith(b.Schema, h.opts.ParseOptions)
	if err != nil {
		p := &problem{Status: http.StatusBadRequest, Type: "invalid-schema", Field: "schema", Detail: err.Error()}
		var ie *schema.InvalidSchemaError
		if errors.As(err, &ie) {
			p.Location = ie.Path
			p.Detail = ie.Reason
		}
		writeProblem(w, r, p)
		return b, nil, false
	}
	return b, s, true
}

// decodeBody decodes a POST or PUT body strictly: one JSON object, known
// fields only, a schema present. The problem says what is wrong and where.
func decodeBody(data []byte) (body, *problem) {
	var b body
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		p := &problem{Status: http.StatusBadRequest, Type: "invalid-json", Detail: "the body is not a JSON object of name, description and schema: " + err.Error()}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			p.Offset = &se.Offset
		case errors.As(err, &te):
			p.Field = te.Field
			p.Offset = &te.Offset
		case errors.Is(err, io.ErrUnexpectedEOF):
			end := int64(len(data))
			p.Offset = &end
			p.Detail = "the body ends in the middle of a JSON value"
		case errors.Is(err, io.EOF):
			p.Detail = "the body is empty"
		}
		return b, p
	}
	if dec.More() {
		off := dec.InputOffset()
		return b, &problem{Status: http.StatusBadRequest, Type: "invalid-json", Offset: &off, Detail: "the body holds more than one JSON value"}
	}
	if len(b.Schema) == 0 || string(b.Schema) == "null" {
		return b, &problem{Status: http.StatusBadRequest, Type: "invalid-request", Field: "schema", Detail: "the body has no schema"}
	}
	return b, nil
}

// registryError answers an error of the registry.
func (h *Handler) registryError(w http.ResponseWriter, r *http.Request, name string, err error) {
	var ie *schema.InvalidSchemaError
	switch {
	case errors.Is(err, registry.ErrInvalidName):
		writeProblem(w, r, &problem{Status: http.StatusBadRequest, Type: "invalid-name", Field: "name", Detail: err.Error()})
	case errors.Is(err, registry.ErrNotFound):
		writeProblem(w, r, &problem{Status: http.StatusNotFound, Type: "schema-not-found", Detail: fmt.Sprintf("no schema named %q", name)})
	case errors.Is(err, registry.ErrModified):
		writeProblem(w, r, &problem{Status: http.StatusPreconditionFailed, Type: "precondition-failed",
			Detail: fmt.Sprintf("%q is not the version named by the request's precondition: GET it again", name)})
	case errors.As(err, &ie):
		writeProblem(w, r, &problem{Status: http.StatusBadRequest, Type: "invalid-schema", Field: "schema", Location: ie.Path, Detail: ie.Reason})
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		writeProblem(w, r, &problem{Status: http.StatusServiceUnavailable, Type: "unavailable", Detail: "the request ended before the registry answered"})
	default:
		if h.opts.Logger != nil {
			h.opts.Logger.ErrorContext(r.Context(), "registryhttp: registry error", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		writeProblem(w, r, &problem{Status: http.StatusInternalServerError, Type: "registry-error", Detail: "the registry failed; see the server's log"})
	}
}

func toJSON(e *registry.Entry) entryJSON {
	return entryJSON{Name: e.Name, Description: e.Description, Schema: json.RawMessage(e.Schema.JSON()),
		CreatedAt: e.CreatedAt, ModifiedAt: e.ModifiedAt}
}

// etag is the strong ETag of a version: its modified_at in the registry's
// text form.
func etag(modified time.Time) string {
	return `"` + modified.UTC().Truncate(time.Microsecond).Format(regtime.Layout) + `"`
}

// parseETag reads a version back from an If-Match value (one ETag; a weak
// one is taken as its strong twin).
func parseETag(v string) (time.Time, bool) {
	if len(v) >= 2 && v[:2] == "W/" {
		v = v[2:]
	}
	s, err := strconv.Unquote(v)
	if err != nil {
		return time.Time{}, false
	}
	t, err := time.Parse(regtime.Layout, s)
	return t, err == nil
}

// match reports whether an If-None-Match value names tag (or is *).
func match(header, tag string) bool {
	if header == "" {
		return false
	}
	if header == "*" {
		return true
	}
	for _, v := range bytes.Split([]byte(header), []byte(",")) {
		v = bytes.TrimSpace(v)
		v = bytes.TrimPrefix(v, []byte("W/"))
		if string(v) == tag {
			return true
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "registryhttp: cannot encode the response", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}
