package registryhttp_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/registry/registryhttp"
)

// Example mounts the API under /api/ and sends it a schema that does not
// compile: the problem document names the field and the schema location.
func Example() {
	reg := registry.NewMemory() // or a sqlregistry.Registry, a registry.Dir
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", registryhttp.New(reg, nil)))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/api/schemas", "application/json",
		strings.NewReader(`{"name":"review","schema":{"properties":{"severity":{"enum":"high"}}}}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, resp.Header.Get("Content-Type"))
	fmt.Println(string(body))
	// Output:
	// 400 Bad Request application/problem+json
	// {"type":"urn:agentio:problem:invalid-schema","title":"Bad Request","status":400,"detail":"enum must be an array, not string 'high'","instance":"/api/schemas","field":"schema","location":"$.properties.severity.enum"}
}
