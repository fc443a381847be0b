package sqltest

import (
	"context"
	"database/sql"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/registry/registryhttp"
	"github.com/agentio/agentio/registry/sqlregistry"
)

// serveRegistry is the README's registry snippet, run against SQLite.
func serveRegistry(ctx context.Context, path string, mux *http.ServeMux) error {
	// snippet: registry
	db, err := sql.Open("sqlite", "file:"+path) // or "pgx" with sqlregistry.EnginePostgres
	if err != nil {
		return err
	}
	reg, err := sqlregistry.New(db, nil)
	if err != nil {
		return err
	}
	if err := reg.Migrate(ctx); err != nil { // CREATE TABLE IF NOT EXISTS output_schemas (...)
		return err
	}
	mux.Handle("/api/", http.StripPrefix("/api", registryhttp.New(reg, nil)))
	// end snippet
	return nil
}

func TestREADMESnippet(t *testing.T) {
	mux := http.NewServeMux()
	require.NoError(t, serveRegistry(context.Background(), filepath.Join(t.TempDir(), "agents.db"), mux))
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/api/schemas", nil))
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "[]\n", rec.Body.String())
}
