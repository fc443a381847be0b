package registryhttp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/registry/registryhttp"
)

type response struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, h http.Handler, method, path, body string, header ...string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
}

func problemOf(t *testing.T, r response) registryhttp.Problem {
	t.Helper()
	assert.Equal(t, "application/problem+json", r.header.Get("Content-Type"))
	var p registryhttp.Problem
	require.NoError(t, json.Unmarshal([]byte(r.body), &p), r.body)
	assert.Equal(t, r.status, p.Status)
	assert.Equal(t, http.StatusText(r.status), p.Title)
	return p
}

const reviewSchema = `{"type":"object","required":["summary"],"properties":{"summary":{"type":"string"}}}`

func TestRoutes(t *testing.T) {
	h := registryhttp.New(registry.NewMemory(), nil)

	r := do(t, h, "GET", "/schemas", "")
	assert.Equal(t, http.StatusOK, r.status)
	assert.JSONEq(t, `[]`, r.body)

	r = do(t, h, "POST", "/schemas", `{"name":"code-review","description":"Review findings","schema":`+reviewSchema+`}`, "Content-Type", "application/json")
	require.Equal(t, http.StatusCreated, r.status, r.body)
	assert.Equal(t, "schemas/code-review", r.header.Get("Location"))
	created := r.header.Get("ETag")
	assert.NotEmpty(t, created)
	var e map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.body), &e))
	assert.Equal(t, "code-review", e["name"])
	assert.Equal(t, "Review findings", e["description"])
	assert.NotEmpty(t, e["created_at"])

	r = do(t, h, "GET", "/schemas/code-review", "")
	require.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, created, r.header.Get("ETag"))
	assert.Contains(t, r.body, `"schema":`+reviewSchema, "the author's key order")

	r = do(t, h, "GET", "/schemas/code-review", "", "If-None-Match", created)
	assert.Equal(t, http.StatusNotModified, r.status)
	assert.Empty(t, r.body)

	r = do(t, h, "PUT", "/schemas/code-review", `{"description":"v2","schema":{"type":"object"}}`)
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.NotEqual(t, created, r.header.Get("ETag"))
	assert.Contains(t, r.body, `"description":"v2"`)

	r = do(t, h, "PUT", "/schemas/other", `{"schema":true}`)
	require.Equal(t, http.StatusCreated, r.status, r.body)
	assert.Equal(t, "other", r.header.Get("Location"))

	r = do(t, h, "GET", "/schemas", "")
	require.Equal(t, http.StatusOK, r.status)
	var list []map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.body), &list))
	require.Len(t, list, 2)
	assert.Equal(t, "code-review", list[0]["name"])
	assert.Equal(t, "other", list[1]["name"])
	assert.NotContains(t, list[0], "schema", "the list carries no schemas")

	r = do(t, h, "DELETE", "/schemas/other", "")
	assert.Equal(t, http.StatusNoContent, r.status)
	r = do(t, h, "GET", "/schemas/other", "")
	assert.Equal(t, http.StatusNotFound, r.status)
}

func TestErrors(t *testing.T) {
	reg := registry.NewMemory()
	h := registryhttp.New(reg, &registryhttp.Options{MaxBodyBytes: 256})
	require.Equal(t, http.StatusCreated, do(t, h, "POST", "/schemas", `{"name":"taken","schema":{}}`).status)
	tests := []struct {
		name                 string
		method, path, body   string
		header               []string
		status               int
		typ, field, location string
		detail               string
		offset               int64
	}{
		{name: "bad schema", method: "POST", path: "/schemas", body: `{"name":"s","schema":{"properties":{"severity":{"type":"strin"}}}}`,
			status: 400, typ: "invalid-schema", field: "schema", location: "$.properties.severity.type", detail: "strin"},
		{name: "schema missing", method: "POST", path: "/schemas", body: `{"name":"s"}`, status: 400, typ: "invalid-request", field: "schema"},
		{name: "name missing", method: "POST", path: "/schemas", body: `{"schema":{}}`, status: 400, typ: "invalid-request", field: "name"},
		{name: "bad name in body", method: "POST", path: "/schemas", body: `{"name":"../etc","schema":{}}`, status: 400, typ: "invalid-name", field: "name"},
		{name: "bad name in path", method: "PUT", path: "/schemas/Upper", body: `{"schema":{}}`, status: 400, typ: "invalid-name", field: "name"},
		{name: "names differ", method: "PUT", path: "/schemas/a", body: `{"name":"b","schema":{}}`, status: 400, typ: "invalid-request", field: "name"},
		{name: "syntax error", method: "POST", path: "/schemas", body: `{"name":"s",`, status: 400, typ: "invalid-json", offset: 12, detail: "middle"},
		{name: "wrong type", method: "POST", path: "/schemas", body: `{"name":1,"schema":{}}`, status: 400, typ: "invalid-json", field: "name", offset: 9},
		{name: "unknown field", method: "POST", path: "/schemas", body: `{"name":"s","schema":{},"owner":"x"}`, status: 400, typ: "invalid-json", detail: "owner"},
		{name: "two values", method: "POST", path: "/schemas", body: `{"name":"s","schema":{}} {}`, status: 400, typ: "invalid-json", detail: "more than one"},
		{name: "empty body", method: "POST", path: "/schemas", status: 400, typ: "invalid-json", detail: "empty"},
		{name: "not json", method: "POST", path: "/schemas", body: `{}`, header: []string{"Content-Type", "text/plain"}, status: 415, typ: "unsupported-media-type"},
		{name: "too large", method: "POST", path: "/schemas", body: `{"name":"s","schema":{"description":"` + strings.Repeat("x", 300) + `"}}`, status: 413, typ: "body-too-large"},
		{name: "name taken", method: "POST", path: "/schemas", body: `{"name":"taken","schema":{}}`, status: 409, typ: "name-taken", field: "name"},
		{name: "missing", method: "GET", path: "/schemas/missing", status: 404, typ: "schema-not-found"},
		{name: "delete missing", method: "DELETE", path: "/schemas/missing", status: 404, typ: "schema-not-found"},
		{name: "stale if-match", method: "PUT", path: "/schemas/taken", body: `{"schema":{}}`, header: []string{"If-Match", `"2001-01-01T00:00:00.000000Z"`}, status: 412, typ: "precondition-failed"},
		{name: "foreign if-match", method: "PUT", path: "/schemas/taken", body: `{"schema":{}}`, header: []string{"If-Match", `"abc"`}, status: 412, typ: "precondition-failed"},
		{name: "create only", method: "PUT", path: "/schemas/taken", body: `{"schema":{}}`, header: []string{"If-None-Match", "*"}, status: 412, typ: "precondition-failed"},
		{name: "stale delete", method: "DELETE", path: "/schemas/taken", header: []string{"If-Match", `"2001-01-01T00:00:00.000000Z"`}, status: 412, typ: "precondition-failed"},
		{name: "method", method: "PATCH", path: "/schemas/taken", status: 405, typ: "method-not-allowed"},
		{name: "no route", method: "GET", path: "/other", status: 404, typ: "not-found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, h, tt.method, tt.path, tt.body, tt.header...)
			require.Equal(t, tt.status, r.status, r.body)
			p := problemOf(t, r)
			assert.Equal(t, registryhttp.ProblemTypeBase+tt.typ, p.Type)
			assert.Equal(t, tt.field, p.Field)
			assert.Equal(t, tt.location, p.Location)
			assert.Contains(t, p.Detail, tt.detail)
			assert.Equal(t, tt.path, p.Instance)
			if tt.offset != 0 {
				require.NotNil(t, p.Offset)
				assert.Equal(t, tt.offset, *p.Offset)
			}
		})
	}
	e, err := reg.Get(context.Background(), "taken")
	require.NoError(t, err)
	assert.Equal(t, `{}`, string(e.Schema.JSON()), "no refused request wrote")
	r := do(t, h, "PATCH", "/schemas/taken", "")
	assert.Contains(t, r.header.Get("Allow"), "PUT")
}

func TestConditional(t *testing.T) {
	for _, reg := range []struct {
		name string
		reg  registry.Registry
	}{
		{"conditional registry", registry.NewMemory()},
		{"plain registry", plainRegistry{registry.NewMemory()}},
	} {
		t.Run(reg.name, func(t *testing.T) {
			h := registryhttp.New(reg.reg, nil)
			r := do(t, h, "PUT", "/schemas/s", `{"schema":{}}`, "If-None-Match", "*")
			require.Equal(t, http.StatusCreated, r.status, r.body)
			v1 := r.header.Get("ETag")
			r = do(t, h, "PUT", "/schemas/s", `{"description":"v2","schema":{}}`, "If-Match", v1)
			require.Equal(t, http.StatusOK, r.status, r.body)
			v2 := r.header.Get("ETag")
			require.NotEqual(t, v1, v2)
			r = do(t, h, "PUT", "/schemas/s", `{"description":"lost update","schema":{}}`, "If-Match", v1)
			require.Equal(t, http.StatusPreconditionFailed, r.status, r.body)
			r = do(t, h, "DELETE", "/schemas/s", "", "If-Match", v1)
			require.Equal(t, http.StatusPreconditionFailed, r.status, r.body)
			r = do(t, h, "GET", "/schemas/s", "")
			assert.Contains(t, r.body, `"description":"v2"`)
			r = do(t, h, "DELETE", "/schemas/s", "", "If-Match", "W/"+v2)
			require.Equal(t, http.StatusNoContent, r.status, r.body)
		})
	}
}

// plainRegistry hides the conditional methods of the registry it wraps.
type plainRegistry struct{ r *registry.Memory }

func (p plainRegistry) Get(ctx context.Context, name string) (*registry.Entry, error) {
	return p.r.Get(ctx, name)
}
func (p plainRegistry) Put(ctx context.Context, e *registry.Entry) error { return p.r.Put(ctx, e) }
func (p plainRegistry) List(ctx context.Context) ([]*registry.Entry, error) {
	return p.r.List(ctx)
}
func (p plainRegistry) Delete(ctx context.Context, name string) error { return p.r.Delete(ctx, name) }

// TestConcurrentPuts checks that of many clients writing back the version
// they read, exactly one wins, and that unconditional PUTs all land.
func TestConcurrentPuts(t *testing.T) {
	srv := httptest.NewServer(registryhttp.New(registry.NewMemory(), nil))
	defer srv.Close()
	put := func(path, body string, header ...string) (int, string) {
		req, err := http.NewRequest("PUT", srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("ETag")
	}
	status, v := put("/schemas/s", `{"schema":{}}`)
	require.Equal(t, http.StatusCreated, status)
	const clients = 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, _ := put("/schemas/s", fmt.Sprintf(`{"description":"client %d","schema":{}}`, i), "If-Match", v)
			c2, _ := put(fmt.Sprintf("/schemas/own-%d", i), `{"schema":{}}`)
			mu.Lock()
			codes[c]++
			codes[c2]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	assert.Equal(t, map[int]int{http.StatusOK: 1, http.StatusPreconditionFailed: clients - 1, http.StatusCreated: clients}, codes)
}

// TestMounted checks the handler under a prefix.
func TestMounted(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", registryhttp.New(registry.NewMemory(), nil)))
	r := do(t, mux, "POST", "/api/schemas", `{"name":"s","schema":{}}`)
	require.Equal(t, http.StatusCreated, r.status, r.body)
	r = do(t, mux, "GET", "/api/schemas/s", "")
	assert.Equal(t, http.StatusOK, r.status)
}

// FuzzRequests sends arbitrary methods, paths, bodies and preconditions:
// never a panic or a 5xx, and every answer but a redirect or a 204 is JSON.
func FuzzRequests(f *testing.F) {
	f.Add("POST", "/schemas", `{"name":"a","schema":{"type":"string"}}`, "")
	f.Add("PUT", "/schemas/a", `{"schema":{"$ref":"#/x"}}`, `"2026-01-01T00:00:00.000000Z"`)
	f.Add("PUT", "/schemas/a%2Fb", `{"schema":[]}`, "*")
	f.Add("POST", "/schemas", `{"name":"a","schema":{},"name":"b"}`, "")
	f.Add("DELETE", "/schemas/a", ``, `W/"x"`)
	f.Add("GET", "/schemas/a", ``, `"x", W/"y"`)
	f.Fuzz(func(t *testing.T, method, path, body, precondition string) {
		switch method {
		case "GET", "POST", "PUT", "DELETE", "PATCH":
		default:
			return
		}
		if _, err := url.ParseRequestURI(path); err != nil || !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \t\r\n?#") {
			return
		}
		reg := registry.NewMemory()
		h := registryhttp.New(reg, &registryhttp.Options{MaxBodyBytes: 4096})
		req := httptest.NewRequest(method, "http://x"+path, strings.NewReader(body))
		req.Header.Set("If-Match", precondition)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s: status %d: %s", method, path, rec.Code, rec.Body)
		}
		if rec.Code/100 == 3 {
			return // the mux redirects unclean paths (/schemas//a) to their clean form
		}
		if rec.Code != http.StatusNoContent && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s: status %d with a body that is not JSON: %q", method, path, rec.Code, rec.Body)
		}
	})
}
