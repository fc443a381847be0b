// Command registry-server serves named output schemas from a SQLite
// database over HTTP: package sqlregistry keeps them in an output_schemas
// table, package registryhttp serves that registry under /api/.
//
//	REGISTRY_TOKEN=s3cret go run ./examples/registry-server -db schemas.db -addr localhost:8080
//	curl -X POST -H 'Authorization: Bearer s3cret' localhost:8080/api/schemas -d '{"name":"incident","schema":{"type":"object"}}'
//	curl localhost:8080/api/schemas/incident
//
// registryhttp authenticates no one: that is the host's job, and this
// host's is a bearer token. Every write (POST, PUT, DELETE) must carry
// "Authorization: Bearer <token>", the token given with -token or in
// REGISTRY_TOKEN, compared in constant time; a missing or wrong one gets
// 401 with a problem document. Reads stay open unless -private-reads. The
// server does not start without a token.
//
// With -demo it runs offline instead: it starts the server on a loopback
// port, makes a round of requests (create, read, a bad schema, a stale
// update, a conditional update, delete) and prints each exchange.
package main

import (
	"bytes"
	"context"
	"crypto/subtle"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	_ "modernc.org/sqlite"

	"github.com/agentio/agentio/registry/registryhttp"
	"github.com/agentio/agentio/registry/sqlregistry"
)

func main() {
	dbPath := flag.String("db", "schemas.db", "SQLite database file")
	addr := flag.String("addr", "localhost:8080", "address to listen on")
	demo := flag.Bool("demo", false, "run a round of requests against a temporary database and exit")
	token := flag.String("token", os.Getenv("REGISTRY_TOKEN"), "bearer token every write must carry (default $REGISTRY_TOKEN)")
	privateReads := flag.Bool("private-reads", false, "require the token for reads too")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if *demo {
		err = runDemo(ctx, os.Stdout)
	} else {
		err = serve(ctx, *dbPath, *addr, access{token: *token, reads: *privateReads})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "registry-server:", err)
		os.Exit(1)
	}
}

// access is who may use the API: every write, and every read when reads
// is set, must carry the bearer token.
type access struct {
	token string
	reads bool
}

// guard returns h behind a check of the bearer token.
func (a access) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		read := r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions
		if read && !a.reads || a.authorized(r) {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="registry"`)
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusUnauthorized)
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.Encode(registryhttp.Problem{
			Type:     registryhttp.ProblemTypeBase + "unauthorized",
			Title:    http.StatusText(http.StatusUnauthorized),
			Status:   http.StatusUnauthorized,
			Detail:   "this request needs the header Authorization: Bearer <token>",
			Instance: r.URL.Path,
		})
	})
}

// authorized reports whether r carries the token, compared in constant
// time.
func (a access) authorized(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && a.token != "" && subtle.ConstantTimeCompare([]byte(got), []byte(a.token)) == 1
}

// newHandler opens the database at path and returns the API mounted under
// /api/ behind a's check, and a function that closes the database.
func newHandler(ctx context.Context, path string, logger *slog.Logger, a access) (http.Handler, func() error, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)")
	if err != nil {
		return nil, nil, err
	}
	reg, err := sqlregistry.New(db, nil)
	if err == nil {
		err = reg.Migrate(ctx)
	}
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", a.guard(http.StripPrefix("/api", registryhttp.New(reg, &registryhttp.Options{Logger: logger}))))
	return mux, db.Close, nil
}

func serve(ctx context.Context, path, addr string, a access) error {
	if a.token == "" {
		return errors.New("no token: set -token or REGISTRY_TOKEN; registryhttp authenticates no one, so this server requires a bearer token for writes")
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	h, closeDB, err := newHandler(ctx, path, logger, a)
	if err != nil {
		return err
	}
	defer closeDB()
	srv := &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	logger.Info("serving named schemas", "addr", addr, "db", path, "api", "/api/schemas")
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// runDemo serves a temporary database on a loopback port and prints a
// round of requests and their answers. Timestamps are printed as <time>,
// so the output is the same on every run.
func runDemo(ctx context.Context, w io.Writer) error {
	dir, err := os.MkdirTemp("", "registry-server")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	a := access{token: "demo-token"}
	h, closeDB, err := newHandler(ctx, filepath.Join(dir, "schemas.db"), nil, a)
	if err != nil {
		return err
	}
	defer closeDB()
	srv := httptest.NewServer(h)
	defer srv.Close()

	var etag string
	steps := []struct {
		say, method, path, body string
		header                  func() http.Header
		anonymous               bool
	}{
		{say: "a write without the token is refused", method: "POST", path: "/api/schemas", anonymous: true,
			body: `{"name":"incident-summary","schema":{"type":"object"}}`},
		{say: "create a named schema", method: "POST", path: "/api/schemas",
			body: `{"name":"incident-summary","description":"One-paragraph incident summary","schema":{"type":"object","required":["summary","severity"],"properties":{"summary":{"type":"string"},"severity":{"enum":["low","high"]}}}}`},
		{say: "read it back (keep its ETag)", method: "GET", path: "/api/schemas/incident-summary"},
		{say: "a schema that does not compile is refused with its location", method: "PUT", path: "/api/schemas/broken",
			body: `{"schema":{"properties":{"count":{"type":"integr"}}}}`},
		{say: "update it, naming the version read", method: "PUT", path: "/api/schemas/incident-summary",
			body:   `{"description":"Incident summary v2","schema":{"type":"object","required":["summary"]}}`,
			header: func() http.Header { return http.Header{"If-Match": {etag}} }},
		{say: "a second update naming the same, now stale, version is refused", method: "PUT", path: "/api/schemas/incident-summary",
			body:   `{"description":"lost update","schema":{}}`,
			header: func() http.Header { return http.Header{"If-Match": {etag}} }},
		{say: "list the schemas", method: "GET", path: "/api/schemas"},
		{say: "delete it", method: "DELETE", path: "/api/schemas/incident-summary"},
		{say: "it is gone", method: "GET", path: "/api/schemas/incident-summary"},
	}
	for _, st := range steps {
		req, err := http.NewRequestWithContext(ctx, st.method, srv.URL+st.path, bytes.NewBufferString(st.body))
		if err != nil {
			return err
		}
		if st.header != nil {
			for k, v := range st.header() {
				req.Header[k] = v
			}
		}
		if !st.anonymous {
			req.Header.Set("Authorization", "Bearer "+a.token)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if tag := resp.Header.Get("ETag"); tag != "" && st.method == "GET" {
			etag = tag
		}
		fmt.Fprintf(w, "# %s\n%s %s\n", st.say, st.method, st.path)
		if st.body != "" {
			fmt.Fprintf(w, "%s\n", st.body)
		}
		fmt.Fprintf(w, "-> %s\n", resp.Status)
		if len(body) > 0 {
			fmt.Fprintf(w, "%s\n", timestamps.ReplaceAllString(string(bytes.TrimSpace(body)), "<time>"))
		}
		fmt.Fprintln(w)
	}
	return nil
}

var timestamps = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)
