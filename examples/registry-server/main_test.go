package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/registry/registryhttp"
)

// TestOutput runs the demo as `go run ./examples/registry-server -demo`
// does and checks what it prints against testdata/output.golden
// (go test . -update rewrites it).
func TestOutput(t *testing.T) {
	golden.CheckOutput(t, "output", func(w io.Writer) error { return runDemo(context.Background(), w) })
}

// TestAccess checks the bearer token: writes need it, reads only with
// private reads, a wrong or missing token gets 401 with a problem
// document, and the server does not start without a token.
func TestAccess(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	tests := []struct {
		name   string
		a      access
		method string
		auth   string
		want   int
	}{
		{"read, open", access{token: "t"}, "GET", "", 204},
		{"write without the token", access{token: "t"}, "POST", "", 401},
		{"write with a wrong token", access{token: "t"}, "PUT", "Bearer u", 401},
		{"write with a token of another scheme", access{token: "t"}, "DELETE", "Basic t", 401},
		{"write with the token", access{token: "t"}, "DELETE", "Bearer t", 204},
		{"private read without the token", access{token: "t", reads: true}, "GET", "", 401},
		{"private read with the token", access{token: "t", reads: true}, "GET", "Bearer t", 204},
		{"no token configured refuses every write", access{}, "POST", "Bearer ", 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "/api/schemas/x", nil)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			tt.a.guard(ok).ServeHTTP(rec, req)
			require.Equal(t, tt.want, rec.Code)
			if tt.want == 401 {
				assert.Equal(t, "application/problem+json", rec.Header().Get("Content-Type"))
				assert.Contains(t, rec.Header().Get("WWW-Authenticate"), "Bearer")
				var p registryhttp.Problem
				require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &p))
				assert.Equal(t, 401, p.Status)
				assert.Equal(t, "/api/schemas/x", p.Instance)
			}
		})
	}
	err := serve(context.Background(), filepath.Join(t.TempDir(), "s.db"), "127.0.0.1:0", access{})
	assert.ErrorContains(t, err, "no token")
}
